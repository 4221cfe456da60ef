// The scanner reads every certificate a server serves: a lab Node server with an ECDSA P-256
// certificate and an RSA 1024 one (told apart by key and by name) gives a client one or the
// other by the suites (TLS 1.2) or signature algorithms (TLS 1.3) it offers. Each is checked and
// graded: the weak RSA key caps the grade at B although the default handshake gets the ECDSA one.
// testssl.sh -S, where installed, counts the same certificates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type IssuedCertificate,
  type LabTlsServer,
  startNodeTlsServer,
  startScriptedTlsServer,
} from '@rfckit/testlab';
import { type TlsScanReport, certificateLabel, tlsAnalysis } from '@rfckit/standards';
import { scanTls } from '../src/tls/scan.ts';
import { testsslFindings, testsslProgram } from './helpers/tls-peers.ts';
import { LAB_TLS_HOST, type TlsLab, createTlsLab } from './helpers/tls-lab.ts';

const RSA_NAME = 'rsa.example.test';
// ECDHE with either certificate; SECLEVEL 0 lets OpenSSL load the 1024-bit key
const DUAL_SUITES = 'ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:@SECLEVEL=0';

let lab: TlsLab;
let ecdsa: IssuedCertificate;
let weakRsa: IssuedCertificate;
function scan(server: LabTlsServer): Promise<TlsScanReport> {
  return scanTls(lab.session(server.port), { host: LAB_TLS_HOST, port: 443 }, { timeoutMs: 2_000 });
}

const leaves = (report: TlsScanReport) =>
  report.certificates.map((certificate) => ({
    label: certificateLabel(certificate),
    names: certificate.chain[0]?.subjectAltNames,
    keyBits: certificate.chain[0]?.keyBits,
    curve: certificate.chain[0]?.curve,
    trusted: certificate.trusted,
    nameMatches: certificate.nameMatches,
  }));

beforeAll(async () => {
  lab = await createTlsLab();
  ecdsa = await lab.issue({ keyType: 'ec-p256' });
  weakRsa = await lab.issue({ keyType: 'rsa-1024', names: [LAB_TLS_HOST, RSA_NAME] });
});

afterAll(async () => {
  await lab.close();
});

describe('a server with an ECDSA and an RSA certificate (TLS 1.2 and 1.3)', () => {
  let server: LabTlsServer;
  let report: TlsScanReport;

  beforeAll(async () => {
    server = await lab.started(
      startNodeTlsServer({ certificate: ecdsa, extraCertificates: [weakRsa], ciphers: DUAL_SUITES }),
    );
    report = await scan(server);
  }, 60_000);

  it('reports both certificates, the default handshake’s first, each checked', () => {
    expect(leaves(report)).toEqual([
      {
        label: 'ECDSA certificate',
        names: [`DNS:${LAB_TLS_HOST}`],
        keyBits: undefined,
        curve: 'prime256v1',
        trusted: true,
        nameMatches: true,
      },
      {
        label: 'RSA certificate',
        names: [`DNS:${LAB_TLS_HOST}`, `DNS:${RSA_NAME}`],
        keyBits: 1024,
        curve: undefined,
        trusted: true,
        nameMatches: true,
      },
    ]);
    expect(report.certificate).toEqual(report.certificates[0]);
    expect(report.certificates.map((certificate) => certificate.source)).toEqual(['handshake', 'handshake']);
  });

  it('finds the weak RSA key in its own certificate finding', () => {
    const findings = report.vulnerabilities.filter((finding) => finding.id === 'certificate');
    expect(findings.map((finding) => [finding.title, finding.status])).toEqual([
      ['Certificate problems (ECDSA certificate)', 'ok'],
      ['Certificate problems (RSA certificate)', 'vulnerable'],
    ]);
    expect(findings[1]?.evidence).toBe('the RSA key has only 1024 bits.');
  });

  it('grades the key exchange by the weaker key, and Mozilla old sees the RSA certificate', () => {
    const grading = tlsAnalysis(report, { checked: false }).grading;
    expect(grading?.categories.keyExchange.basis).toBe('Weakest key exchange: RSA 1024-bit server key (80)');
    expect(grading?.gradeIgnoringTrust).toBe('B');
    expect(grading?.caps.map((cap) => [cap.code, cap.evidence])).toContainEqual([
      'KEY_UNDER_2048',
      'RSA 1024-bit server key',
    ]);
    const old = grading?.mozilla.find((check) => check.profile === 'old');
    expect(old?.blockers).toContain('RSA key of 1024 bits; old asks for 2048');
    expect(old?.blockers.some((blocker) => blocker.includes('old asks for RSA'))).toBe(false);
  });

  it.skipIf(testsslProgram === undefined)(
    'counts as many certificates as testssl.sh -S',
    async () => {
      const findings = await testsslFindings(server.port, ['-S']);
      expect(findings.find((finding) => finding.id === 'cert_numbers')?.finding).toBe(
        String(report.certificates.length),
      );
      const sizes = findings
        .filter((finding) => finding.id.startsWith('cert_keySize <cert#'))
        .map((finding) => finding.finding)
        .sort();
      expect(sizes).toEqual(['EC 256 bits', 'RSA 1024 bits']);
    },
    180_000,
  );
});

describe('certificates told apart by signature algorithm alone', () => {
  it('reads both certificates of a TLS 1.3-only server', async () => {
    const server = await lab.started(
      startNodeTlsServer({
        certificate: ecdsa,
        extraCertificates: [weakRsa],
        minVersion: 'TLSv1.3',
        ciphers: DUAL_SUITES,
      }),
    );
    const report = await scan(server);
    expect(leaves(report).map(({ label, keyBits }) => [label, keyBits])).toEqual([
      ['ECDSA certificate', undefined],
      ['RSA certificate', 1024],
    ]);
  }, 60_000);
});

describe('certificates only a raw probe can read', () => {
  it('reads the chain of each kind of suite from the probes', async () => {
    // a scripted TLS 1.0 server Node cannot finish a handshake with: AES128-SHA with the RSA
    // certificate, ECDH-ECDSA-AES128-SHA with the ECDSA one
    const rsa = await lab.issue({ keyType: 'rsa-2048' });
    const server = await lab.started(
      startScriptedTlsServer({
        versions: ['TLSv1.0'],
        suites: [0x002f, 0xc004],
        certificate: rsa,
        certificatesBySuite: [{ suites: [0xc004], certificate: ecdsa }],
      }),
    );
    const report = await scan(server);
    expect(
      report.certificates.map((certificate) => [certificateLabel(certificate), certificate.source]),
    ).toEqual([
      ['RSA certificate', 'probe'],
      ['ECDSA certificate', 'probe'],
    ]);
    expect(report.certificates.every((certificate) => certificate.trusted && certificate.nameMatches)).toBe(
      true,
    );
  }, 60_000);
});

describe('a server with one certificate', () => {
  it('reports it once', async () => {
    const server = await lab.started(startNodeTlsServer({ certificate: ecdsa }));
    const report = await scan(server);
    expect(leaves(report).map(({ label }) => label)).toEqual(['ECDSA certificate']);
    expect(report.vulnerabilities.filter((finding) => finding.id === 'certificate')).toEqual([
      expect.objectContaining({ title: 'Certificate problems', status: 'ok' }),
    ]);
  }, 60_000);
});
