// Hand-written scan reports turned into grade facts and graded answers; every expected value is
// read off the report by hand (group sizes: RFC 8422 §5.1.1, RFC 7748, RFC 7919).
import { describe, expect, it } from 'vitest';
import { tlsAnalysis } from './analysis.ts';
import { gradeFactsOf } from './grade-facts.ts';
import type { CertificateScan, CertificateSummary, TlsScanReport, Vulnerability } from './scan-report.ts';

const leaf: CertificateSummary = {
  subject: 'CN=tls.example.test',
  issuer: 'CN=Lab CA',
  subjectAltNames: ['DNS:tls.example.test'],
  validFrom: '2026-01-01T00:00:00.000Z',
  validTo: '2027-01-01T00:00:00.000Z',
  serialNumber: '01',
  fingerprint256: 'AA:BB',
  selfSigned: false,
  keyType: 'rsa',
  keyBits: 2048,
  signatureAlgorithm: 'sha256WithRSAEncryption',
  sctCount: 0,
  pem: '-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n',
};

function finding(id: Vulnerability['id'], status: Vulnerability['status']): Vulnerability {
  return {
    id,
    title: `Title of ${id}`,
    status,
    severity: 'high',
    references: [],
    evidence: `Evidence of ${id}`,
    fix: `Fix of ${id}`,
  };
}

const suite = (code: number, name: string, group?: string) => ({
  code,
  hex: `0x${code.toString(16)}`,
  name,
  openssl: null,
  ...(group === undefined ? {} : { keyExchange: { group } }),
});

const trustedRsa: CertificateScan = {
  chain: [leaf],
  trusted: true,
  nameMatches: true,
  expired: false,
  notYetValid: false,
  source: 'handshake',
};

/** The report with `certificate` as its only certificate, changed by `change`. */
function withCertificate(change: Partial<CertificateScan>): TlsScanReport {
  const certificate = { ...trustedRsa, ...change };
  return { ...modern, certificate, certificates: [certificate] };
}

/** TLS 1.2 + 1.3, ECDHE with X25519 and P-256, a trusted RSA 2048 certificate. */
const modern: TlsScanReport = {
  host: 'tls.example.test',
  port: 443,
  address: '127.0.0.1',
  versions: [
    { version: 'SSLv2', supported: false, suites: [] },
    { version: 'TLSv1.1', supported: false, suites: [] },
    {
      version: 'TLSv1.2',
      supported: true,
      suites: [
        suite(0xc02f, 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', 'x25519'),
        suite(0xc030, 'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384', 'x25519'),
      ],
      preference: 'server',
    },
    {
      version: 'TLSv1.3',
      supported: true,
      suites: [suite(0x1301, 'TLS_AES_128_GCM_SHA256', 'x25519'), suite(0x1302, 'TLS_AES_256_GCM_SHA384')],
    },
  ],
  groups: { tls12: ['x25519', 'secp256r1'], tls13: ['x25519'], dhPrimeBits: [] },
  features: {
    alpn: 'h2',
    ocspStapling: 'no',
    secureRenegotiation: 'yes',
    fallbackScsv: 'yes',
    compression: 'no',
    sessionTickets: 'yes',
    heartbeat: 'no',
    extendedMasterSecret: 'yes',
  },
  certificate: trustedRsa,
  certificates: [trustedRsa],
  vulnerabilities: [finding('heartbleed', 'ok'), finding('no-fallback-scsv', 'ok')],
  notes: [],
  incomplete: false,
  stats: { connections: 30, durationMs: 900 },
};

describe('gradeFactsOf', () => {
  it('reads versions, suites per version, the key and the smallest EC group', () => {
    const result = gradeFactsOf(modern, 31_536_000);
    expect(result).toEqual({
      ok: true,
      facts: {
        protocols: ['TLSv1.2', 'TLSv1.3'],
        suites: { 'TLSv1.2': [0xc02f, 0xc030], 'TLSv1.3': [0x1301, 0x1302] },
        certificates: [
          {
            key: { type: 'RSA', bits: 2048 },
            trusted: true,
            expired: false,
            selfSigned: false,
            nameMatches: true,
            chainComplete: true,
            signatureAlgorithm: 'sha256WithRSAEncryption',
          },
        ],
        dhBits: undefined,
        // x25519 255 bits, secp256r1 256 bits
        ecdhBits: 255,
        vulnerabilities: {
          heartbleed: false,
          ccsInjection: false,
          insecureRenegotiation: false,
          compression: false,
          fallbackScsv: true,
        },
        hstsMaxAge: 31_536_000,
      },
    });
  });

  it('takes the smallest DH prime and ffdhe group, and the vulnerability verdicts', () => {
    const report: TlsScanReport = {
      ...modern,
      versions: [
        {
          version: 'TLSv1.2',
          supported: true,
          suites: [
            { ...suite(0x009e, 'TLS_DHE_RSA_WITH_AES_128_GCM_SHA256'), keyExchange: { dhBits: 1024 } },
          ],
        },
      ],
      groups: { tls12: ['ffdhe3072'], tls13: [], dhPrimeBits: [2048] },
      vulnerabilities: [
        finding('heartbleed', 'vulnerable'),
        finding('ccs-injection', 'vulnerable'),
        finding('crime', 'vulnerable'),
        finding('insecure-renegotiation', 'vulnerable'),
        finding('no-fallback-scsv', 'vulnerable'),
      ],
    };
    const result = gradeFactsOf(report);
    expect(result.ok && result.facts.dhBits).toBe(1024);
    expect(result.ok && result.facts.ecdhBits).toBeUndefined();
    expect(result.ok && result.facts.vulnerabilities).toEqual({
      heartbleed: true,
      ccsInjection: true,
      insecureRenegotiation: true,
      compression: true,
      fallbackScsv: false,
    });
  });

  it('caps only a CCS injection the probe saw, not one it could not tell', () => {
    const facts = (status: Vulnerability['status']) => {
      const result = gradeFactsOf({ ...modern, vulnerabilities: [finding('ccs-injection', status)] });
      return result.ok && result.facts.vulnerabilities.ccsInjection;
    };
    expect([facts('vulnerable'), facts('unknown'), facts('ok')]).toEqual([true, false, false]);
  });

  it('sizes ECDSA keys by curve and Ed25519 as 255 bits', () => {
    const { keyBits: _, ...keyless } = leaf;
    const ec = gradeFactsOf(withCertificate({ chain: [{ ...keyless, keyType: 'ec', curve: 'secp384r1' }] }));
    expect(ec.ok && ec.facts.certificates[0]?.key).toEqual({ type: 'ECDSA', bits: 384 });
    const ed = gradeFactsOf(withCertificate({ chain: [{ ...keyless, keyType: 'ed25519' }] }));
    expect(ed.ok && ed.facts.certificates[0]?.key).toEqual({ type: 'EdDSA', bits: 255 });
  });

  it('a missing intermediate is an incomplete chain; a self-signed leaf is self-signed', () => {
    const missing = gradeFactsOf(
      withCertificate({
        trusted: false,
        problem: { code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', message: 'no issuer' },
      }),
    );
    expect(missing.ok && missing.facts.certificates[0]?.chainComplete).toBe(false);
    const selfSigned = gradeFactsOf(
      withCertificate({
        chain: [{ ...leaf, selfSigned: true }],
        trusted: false,
        problem: { code: 'DEPTH_ZERO_SELF_SIGNED_CERT', message: 'self-signed' },
      }),
    );
    expect(selfSigned.ok && selfSigned.facts.certificates[0]).toMatchObject({
      selfSigned: true,
      trusted: false,
      chainComplete: true,
    });
  });

  it('grades the trust the scanner found for a chain read from a raw probe', () => {
    const probed = (trusted: boolean, problem?: { code: string; message: string }) =>
      gradeFactsOf(withCertificate({ trusted, source: 'probe', ...(problem ? { problem } : {}) }));
    const unknownIssuer = probed(false, {
      code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      message: 'unable to verify the first certificate',
    });
    expect(unknownIssuer.ok && unknownIssuer.facts.certificates[0]).toMatchObject({
      trusted: false,
      chainComplete: false,
    });
    const verified = probed(true);
    expect(verified.ok && verified.facts.certificates[0]).toMatchObject({
      trusted: true,
      chainComplete: true,
    });
  });

  it('reads every certificate of a server with RSA and ECDSA certificates', () => {
    const ecdsa: CertificateScan = {
      ...trustedRsa,
      chain: [
        {
          ...leaf,
          keyType: 'ec',
          curve: 'prime256v1',
          signatureAlgorithm: 'ecdsa-with-SHA256',
          fingerprint256: 'CC:DD',
        },
      ],
    };
    const weakRsa: CertificateScan = {
      ...trustedRsa,
      chain: [{ ...leaf, keyBits: 1024 }],
      nameMatches: false,
    };
    const result = gradeFactsOf({ ...modern, certificate: ecdsa, certificates: [ecdsa, weakRsa] });
    expect(
      result.ok && result.facts.certificates.map((certificate) => [certificate.key, certificate.nameMatches]),
    ).toEqual([
      [{ type: 'ECDSA', bits: 256 }, true],
      [{ type: 'RSA', bits: 1024 }, false],
    ]);
    const unsized = gradeFactsOf({
      ...modern,
      certificates: [ecdsa, { ...weakRsa, chain: [{ ...leaf, keyType: 'x448' }] }],
    });
    expect(unsized).toEqual({
      ok: false,
      reason: "The certificate's key (x448) is not one the grade can size",
    });
  });

  it('cannot grade a server that sent no certificate', () => {
    const { certificate: _, ...anonymous } = { ...modern, certificates: [] };
    expect(gradeFactsOf(anonymous)).toEqual({
      ok: false,
      reason: 'The server sent no certificate we could read, so its key cannot be graded',
    });
  });
});

describe('tlsAnalysis', () => {
  it('answers the spec fields: A with HSTS of a year, A+ needs nothing more', () => {
    const analysis = tlsAnalysis(modern, { checked: true, maxAge: 31_536_000 });
    expect(analysis.supportedVersions).toEqual([
      {
        version: 'TLSv1.2',
        ciphers: ['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', 'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384'],
      },
      { version: 'TLSv1.3', ciphers: ['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384'] },
    ]);
    expect(analysis.vulnerabilities).toEqual([]);
    // protocol (100+100)/2 = 100; key exchange RSA 2048 → 90; cipher (256 → 100, 128 → 80)/2 = 90
    // 0.3·100 + 0.3·90 + 0.4·90 = 93
    expect(analysis.score).toBe(93);
    expect(analysis.grade).toBe('A+');
    expect(analysis.grading?.caps).toEqual([]);
  });

  it('words vulnerable findings and gathers their fixes and the caps’ fixes', () => {
    const analysis = tlsAnalysis(
      {
        ...modern,
        vulnerabilities: [finding('heartbleed', 'vulnerable'), finding('crime', 'ok')],
        incomplete: true,
      },
      { checked: false, note: 'HSTS is read from HTTPS on port 443 only' },
    );
    expect(analysis.vulnerabilities).toEqual(['Title of heartbleed: Evidence of heartbleed']);
    expect(analysis.grade).toBe('F');
    expect(analysis.grading?.caps.map((cap) => cap.code)).toEqual(['HEARTBLEED']);
    expect(analysis.recommendations).toEqual([
      'Fix of heartbleed',
      'Upgrade OpenSSL (1.0.1g or later), then replace the private key and revoke the certificate',
      'The scan did not learn everything (see its notes): run it again, at a quieter time for the server, for a complete result',
    ]);
  });

  it('an ungraded server answers no grade and no score, with the reason', () => {
    const { certificate: _, ...anonymous } = { ...modern, certificates: [] };
    const analysis = tlsAnalysis(anonymous, { checked: false });
    expect(analysis).toMatchObject({ grade: null, score: null, grading: null });
    expect(analysis.ungradedReason).toMatch(/no certificate/);
  });

  it('a scan with a version left untested is not graded: what it hides could cap the grade', () => {
    const facts = gradeFactsOf({
      ...modern,
      versions: [
        { version: 'SSLv2', supported: false, suites: [], tested: false },
        ...modern.versions.filter((version) => version.version !== 'SSLv2'),
      ],
    });
    expect(facts).toEqual({
      ok: false,
      reason:
        'SSL 2.0 could not be tested (the scan notes say why), and the grade rests on every protocol version and suite',
    });
  });
});
