// Every cap of SSL Labs' SSL Server Rating Guide that the grade knows, hit through
// POST /v1/tls-cipher/analyse by a lab server with exactly that weakness, and missed by clean
// control servers. The expected letters come from the guide (v2009q "SSL Server Rating Guide"
// and its 2013-2020 revisions listed in the guide's change log), worked out by hand per server.
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import {
  createTestCa,
  type IssuedCertificate,
  type LabTlsServer,
  type ScriptedTlsOptions,
  startNodeTlsServer,
  type NodeTlsServerOptions,
  startScriptedTlsServer,
  startWebServer,
  type WebServer,
  type TestCa,
} from '@rfckit/testlab';
import type { TlsAnalysis } from '@rfckit/standards';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolTestApp } from './helpers/tool-test-app.ts';

const DAY = 86_400_000;
const host = (label: string) => `${label}.caps.example.test`;

// a TLS 1.2 server as clean as a script can be: one AEAD suite, one forward-secret suite, RSA 2048,
// DH 2048, secure renegotiation, no compression or heartbeat — the guide's A (score 89)
const CLEAN_SUITES = [
  0x009c, // TLS_RSA_WITH_AES_128_GCM_SHA256
  0x0033, // TLS_DHE_RSA_WITH_AES_128_CBC_SHA
] as const;

type Scripted = Omit<ScriptedTlsOptions, 'certificate' | 'versions' | 'suites'> &
  Partial<Pick<ScriptedTlsOptions, 'versions' | 'suites'>> & { keyType?: 'rsa-2048' | 'rsa-512' };
type NodeServer = Omit<NodeTlsServerOptions, 'certificate'> & {
  certificate?: (name: string) => Promise<IssuedCertificate>;
};

let ca: TestCa;
let rsaCa: TestCa;
let caDir: string;
let web: WebServer;
const AIA_HOST = 'aia.caps.example.test';
const servers: LabTlsServer[] = [];
const connectTo: string[] = [];

async function serve(label: string, server: Promise<LabTlsServer>): Promise<void> {
  const running = await server;
  servers.push(running);
  connectTo.push(`${host(label)}::127.0.0.1:${running.port}`);
}

async function scripted(label: string, options: Scripted = {}): Promise<void> {
  const { keyType = 'rsa-2048', ...rest } = options;
  await serve(
    label,
    startScriptedTlsServer({
      versions: ['TLSv1.2'],
      suites: CLEAN_SUITES,
      certificate: await ca.issue({ names: [host(label)], keyType }),
      ...rest,
    }),
  );
}

async function node(label: string, options: NodeServer = {}): Promise<void> {
  const { certificate, ...rest } = options;
  await serve(
    label,
    startNodeTlsServer({
      certificate: await (certificate ?? ((name) => ca.issue({ names: [name] })))(host(label)),
      minVersion: 'TLSv1.2',
      ...rest,
    }),
  );
}

beforeAll(async () => {
  ca = await createTestCa();
  // md5WithRSAEncryption needs an RSA issuer; both roots are trusted
  rsaCa = await createTestCa({ name: 'rfckit test lab RSA root CA', keyType: 'rsa-2048' });
  caDir = mkdtempSync(path.join(tmpdir(), 'rfckit-tls-caps-'));
  writeFileSync(path.join(caDir, 'ca.pem'), `${ca.cert}${rsaCa.cert}`);
  const unknownCa = await createTestCa({ name: 'rfckit unknown CA' });
  const intermediate = await ca.intermediate({ name: 'rfckit test lab intermediate CA' });
  // where the leaves name their issuer (caIssuers), as a CA publishes it: DER over plain HTTP
  web = await startWebServer({
    ca,
    sites: {
      [AIA_HOST]: {
        routes: {
          '/intermediate.crt': {
            headers: { 'Content-Type': 'application/pkix-cert' },
            body: new Uint8Array(new X509Certificate(intermediate.cert).raw),
          },
        },
      },
    },
  });
  connectTo.push(...web.connectTo());
  const leafNamingIssuer = async (name: string, file: string) => {
    const issued = await intermediate.issue({ names: [name], caIssuersUrl: `http://${AIA_HOST}/${file}` });
    return { ...issued, chain: issued.cert };
  };

  await Promise.all([
    node('control'),
    scripted('scripted-control'),
    // F
    scripted('sslv2', { ssl2Kinds: [0x0700c0] }),
    scripted('sslv3-only', { versions: ['SSLv3'], suites: [0x0033, 0x002f] }),
    scripted('rsa-512', { keyType: 'rsa-512' }),
    scripted('dh-768', { dhBits: 768 }),
    node('md5', {
      certificate: (name) => rsaCa.issue({ names: [name], md5Signature: true }),
      // OpenSSL refuses to serve an MD5-signed certificate above security level 0
      ciphers: `${tls.DEFAULT_CIPHERS}:@SECLEVEL=0`,
    }),
    scripted('export', { suites: [...CLEAN_SUITES, 0x0008] }),
    scripted('des', { suites: [...CLEAN_SUITES, 0x0009] }),
    scripted('heartbleed', { heartbeat: 'vulnerable' }),
    scripted('insecure-renegotiation', { secureRenegotiation: false }),
    // C
    node('tls11-only', {
      minVersion: 'TLSv1',
      maxVersion: 'TLSv1.1',
      ciphers: 'ECDHE-ECDSA-AES128-SHA:ECDHE-ECDSA-AES256-SHA:@SECLEVEL=0',
    }),
    scripted('3des', { suites: [...CLEAN_SUITES, 0x000a] }),
    scripted('rc4-tls12', { suites: [...CLEAN_SUITES, 0x0005] }),
    scripted('compression', { compression: true }),
    // B
    scripted('sslv3-too', { versions: ['TLSv1.2', 'SSLv3'], suitesByVersion: { SSLv3: [0x0033, 0x002f] } }),
    node('tls10-too', {
      minVersion: 'TLSv1',
      ciphers: 'ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES128-SHA:@SECLEVEL=0',
    }),
    node('rsa-1024', {
      certificate: (name) => ca.issue({ names: [name], keyType: 'rsa-1024' }),
      ciphers: `${tls.DEFAULT_CIPHERS}:@SECLEVEL=1`,
    }),
    scripted('rc4-tls10', {
      versions: ['TLSv1.2', 'TLSv1.0'],
      suitesByVersion: { 'TLSv1.0': [0x0005, 0x0033] },
    }),
    node('no-forward-secrecy', {
      certificate: (name) => ca.issue({ names: [name], keyType: 'rsa-2048' }),
      maxVersion: 'TLSv1.2',
      ciphers: 'AES128-GCM-SHA256:AES256-GCM-SHA384',
    }),
    node('no-aead', {
      maxVersion: 'TLSv1.2',
      ciphers: 'ECDHE-ECDSA-AES128-SHA256:ECDHE-ECDSA-AES256-SHA384',
    }),
    node('incomplete-chain', {
      // issued by the intermediate, but the server sends the leaf alone
      certificate: async (name) => {
        const issued = await intermediate.issue({ names: [name] });
        return { ...issued, chain: issued.cert };
      },
    }),
    node('incomplete-chain-aia', { certificate: (name) => leafNamingIssuer(name, 'intermediate.crt') }),
    node('incomplete-chain-aia-gone', { certificate: (name) => leafNamingIssuer(name, 'gone.crt') }),
    // T, M
    node('untrusted', { certificate: (name) => unknownCa.issue({ names: [name] }) }),
    node('expired', {
      certificate: (name) =>
        ca.issue({
          names: [name],
          notBefore: new Date(Date.now() - 31 * DAY),
          notAfter: new Date(Date.now() - DAY),
        }),
    }),
    node('self-signed', { certificate: (name) => ca.issue({ names: [name], selfSigned: true }) }),
    node('mismatch', { certificate: () => ca.issue({ names: ['other.caps.example.test'] }) }),
    // A-
    scripted('no-fallback-scsv', { versions: ['TLSv1.2', 'TLSv1.1'], fallbackScsv: false }),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([...servers.map((server) => server.close()), web.close()]);
  rmSync(caDir, { recursive: true, force: true });
});

const tool = toolTestApp({
  lab: () => ({ connectTo }),
  env: () => ({ OUTBOUND_CA_FILE: path.join(caDir, 'ca.pem') }),
});

async function analyse(label: string): Promise<TlsAnalysis> {
  return tool.data<TlsAnalysis>('/v1/tls-cipher/analyse', { host: host(label) });
}

const capCodes = (analysis: TlsAnalysis) => analysis.grading?.caps.map((cap) => cap.code) ?? [];

/** The cap is in the answer with its grade, a reason, and a fix that is also a recommendation. */
function expectCap(analysis: TlsAnalysis, code: string, grade: string): void {
  const cap = analysis.grading?.caps.find((entry) => entry.code === code);
  expect(cap, `caps: ${capCodes(analysis).join(', ')}`).toBeDefined();
  expect(cap?.grade).toBe(grade);
  expect(cap?.reason.length).toBeGreaterThan(20);
  expect(cap?.evidence.length).toBeGreaterThan(5);
  expect(analysis.recommendations).toContain(cap?.fix);
}

describe('clean control servers', { timeout: 60_000 }, () => {
  it('a Node TLS 1.2 + 1.3 server has no cap: A', async () => {
    const analysis = await analyse('control');
    expect(analysis.grading?.caps).toEqual([]);
    expect(analysis.grade).toBe('A');
  });

  it('the scripted TLS 1.2 server the weak ones are built on has no cap: A (score 89)', async () => {
    const analysis = await analyse('scripted-control');
    expect(analysis.grading?.caps).toEqual([]);
    expect(analysis.score).toBe(89);
    expect(analysis.grade).toBe('A');
  });
});

describe('caps to F', { timeout: 60_000 }, () => {
  it('guide: "SSL 2.0 is not allowed (F)"', async () => {
    const analysis = await analyse('sslv2');
    expectCap(analysis, 'SSLV2', 'F');
    expect(capCodes(analysis)).toEqual(['SSLV2']);
    expect(analysis.grade).toBe('F');
  });

  it('guide: "servers that have SSL 3.0 as their best protocol get F"', async () => {
    const analysis = await analyse('sslv3-only');
    expectCap(analysis, 'SSLV3_BEST', 'F');
    expect(capCodes(analysis)[0]).toBe('SSLV3_BEST');
    expect(analysis.grade).toBe('F');
  });

  it('guide: "key below 1024 bits (F)": a 512-bit RSA server key', async () => {
    const analysis = await analyse('rsa-512');
    expectCap(analysis, 'KEY_UNDER_1024', 'F');
    expect(analysis.grading?.caps.find((cap) => cap.code === 'KEY_UNDER_1024')?.evidence).toMatch(
      /RSA 512-bit/,
    );
    expect(capCodes(analysis)).toEqual(['KEY_UNDER_1024']);
    expect(analysis.grade).toBe('F');
  });

  it('guide: "weak (below 1024 bits) Diffie-Hellman parameters (F)": a 768-bit DH group', async () => {
    const analysis = await analyse('dh-768');
    expectCap(analysis, 'KEY_UNDER_1024', 'F');
    expect(analysis.grading?.caps.find((cap) => cap.code === 'KEY_UNDER_1024')?.evidence).toMatch(
      /768-bit DH/,
    );
    expect(capCodes(analysis)).toEqual(['KEY_UNDER_1024']);
    expect(analysis.grade).toBe('F');
  });

  it('guide: "MD5 certificate signatures (F)"', async () => {
    const analysis = await analyse('md5');
    expect(analysis.report.certificate?.chain[0]?.signatureAlgorithm).toBe('md5WithRSAEncryption');
    expectCap(analysis, 'MD5_SIGNATURE', 'F');
    expect(capCodes(analysis)).toEqual(['MD5_SIGNATURE']);
    expect(analysis.grade).toBe('F');
  });

  it('guide: "export cipher suites (F)"', async () => {
    const analysis = await analyse('export');
    expectCap(analysis, 'EXPORT_SUITES', 'F');
    expect(capCodes(analysis)).toEqual(['EXPORT_SUITES']);
    expect(analysis.grade).toBe('F');
  });

  it('guide: "cipher suites below 112 bits (F)": single DES, also a 64-bit block cipher (C)', async () => {
    const analysis = await analyse('des');
    expectCap(analysis, 'WEAK_CIPHER', 'F');
    expectCap(analysis, 'BLOCK64_MODERN', 'C');
    expect(analysis.grade).toBe('F');
  });

  it('guide: "vulnerable to Heartbleed (F)"', async () => {
    const analysis = await analyse('heartbleed');
    expectCap(analysis, 'HEARTBLEED', 'F');
    expect(capCodes(analysis)).toEqual(['HEARTBLEED']);
    expect(analysis.grade).toBe('F');
  });

  it('guide: "insecure renegotiation (F)"', async () => {
    const analysis = await analyse('insecure-renegotiation');
    expectCap(analysis, 'INSECURE_RENEGOTIATION', 'F');
    expect(capCodes(analysis)).toEqual(['INSECURE_RENEGOTIATION']);
    expect(analysis.grade).toBe('F');
  });
});

describe('caps to C', { timeout: 60_000 }, () => {
  it('guide 2018: "no TLS 1.2 (C)": TLS 1.0 and 1.1 only, which also caps at B twice', async () => {
    const analysis = await analyse('tls11-only');
    expectCap(analysis, 'NO_TLS12', 'C');
    // TLS 1.0/1.1 (B, 2020) and no AEAD suite (B, 2018) come with it: TLS 1.1 has no AEAD suites
    expect(capCodes(analysis)).toEqual(['NO_TLS12', 'TLS10_TLS11', 'NO_AEAD']);
    expect(analysis.grade).toBe('C');
  });

  it('guide 2016: "64-bit block ciphers (3DES) with TLS 1.1+ (C)"', async () => {
    const analysis = await analyse('3des');
    expectCap(analysis, 'BLOCK64_MODERN', 'C');
    expect(capCodes(analysis)).toEqual(['BLOCK64_MODERN']);
    expect(analysis.grade).toBe('C');
  });

  it('guide 2015: "RC4 with TLS 1.1 or newer (C)"', async () => {
    const analysis = await analyse('rc4-tls12');
    expectCap(analysis, 'RC4_MODERN', 'C');
    expect(capCodes(analysis)).toEqual(['RC4_MODERN']);
    expect(analysis.grade).toBe('C');
  });

  it('guide 2013: "TLS compression (CRIME) (C)"', async () => {
    const analysis = await analyse('compression');
    expectCap(analysis, 'COMPRESSION', 'C');
    expect(capCodes(analysis)).toEqual(['COMPRESSION']);
    expect(analysis.grade).toBe('C');
  });
});

describe('caps to B', { timeout: 60_000 }, () => {
  it('guide 2014: "SSL 3.0 supported alongside newer protocols (B)"', async () => {
    const analysis = await analyse('sslv3-too');
    expectCap(analysis, 'SSLV3', 'B');
    expect(capCodes(analysis)).toEqual(['SSLV3']);
    expect(analysis.grade).toBe('B');
  });

  it('guide 2020: "TLS 1.0 or TLS 1.1 supported (B)"', async () => {
    const analysis = await analyse('tls10-too');
    expectCap(analysis, 'TLS10_TLS11', 'B');
    expect(capCodes(analysis)).toEqual(['TLS10_TLS11']);
    expect(analysis.grade).toBe('B');
  });

  it('guide 2014: "key below 2048 bits (B)": an RSA 1024 server key', async () => {
    const analysis = await analyse('rsa-1024');
    expectCap(analysis, 'KEY_UNDER_2048', 'B');
    expect(capCodes(analysis)).toEqual(['KEY_UNDER_2048']);
    expect(analysis.grade).toBe('B');
  });

  it('guide 2015: "RC4 (B)" where it is used with TLS 1.0 only, not with TLS 1.1+', async () => {
    const analysis = await analyse('rc4-tls10');
    expectCap(analysis, 'RC4', 'B');
    expect(capCodes(analysis)).not.toContain('RC4_MODERN');
    // TLS 1.0 itself caps at B (2020)
    expect(capCodes(analysis).sort()).toEqual(['RC4', 'TLS10_TLS11']);
    expect(analysis.grade).toBe('B');
  });

  it('guide 2014: "no forward secrecy (B)"', async () => {
    const analysis = await analyse('no-forward-secrecy');
    expectCap(analysis, 'NO_FORWARD_SECRECY', 'B');
    expect(capCodes(analysis)).toEqual(['NO_FORWARD_SECRECY']);
    expect(analysis.grade).toBe('B');
  });

  it('guide 2018: "no AEAD suites (B)"', async () => {
    const analysis = await analyse('no-aead');
    expectCap(analysis, 'NO_AEAD', 'B');
    expect(capCodes(analysis)).toEqual(['NO_AEAD']);
    expect(analysis.grade).toBe('B');
  });

  it('guide 2014: "incomplete chain (B)": the intermediate is missing, fetched from the leaf\'s caIssuers', async () => {
    const analysis = await analyse('incomplete-chain-aia');
    expectCap(analysis, 'INCOMPLETE_CHAIN', 'B');
    expect(capCodes(analysis)).toEqual(['INCOMPLETE_CHAIN']);
    expect(analysis.grade).toBe('B');
    expect(analysis.report.certificate).toMatchObject({
      trusted: true,
      problem: { code: 'INCOMPLETE_CHAIN' },
    });
    expect(analysis.report.certificate?.problem?.message).toContain(
      `fetched from http://${AIA_HOST}/intermediate.crt`,
    );
  });

  it.each([
    ['names no caIssuers', 'incomplete-chain', undefined],
    ['names a caIssuers that is gone', 'incomplete-chain-aia-gone', /answered HTTP 404/],
  ])('an incomplete chain whose leaf %s reaches no root: T, and B ignoring trust', async (_, label, note) => {
    const analysis = await analyse(label);
    expectCap(analysis, 'INCOMPLETE_CHAIN', 'B');
    expect(analysis.grading?.gradeIgnoringTrust).toBe('B');
    expect(capCodes(analysis)).toEqual(['INCOMPLETE_CHAIN', 'CERT_UNTRUSTED']);
    expect(analysis.grade).toBe('T');
    if (note !== undefined) expect(analysis.report.notes.join('\n')).toMatch(note);
  });
});

describe('trust and name: T and M', { timeout: 60_000 }, () => {
  it.each([
    ['untrusted', 'CERT_UNTRUSTED'],
    ['expired', 'CERT_EXPIRED'],
    ['self-signed', 'CERT_SELF_SIGNED'],
  ])('guide: "certificate not trusted (T)": %s', async (label, code) => {
    const analysis = await analyse(label);
    expectCap(analysis, code, 'T');
    expect(capCodes(analysis)).toEqual([code]);
    expect(analysis.grade).toBe('T');
    // T replaces the grade; the configuration's own grade is kept
    expect(analysis.grading?.gradeIgnoringTrust).toBe('A');
  });

  it('guide: "certificate name mismatch (M)"', async () => {
    const analysis = await analyse('mismatch');
    expectCap(analysis, 'CERT_NAME_MISMATCH', 'M');
    expect(capCodes(analysis)).toEqual(['CERT_NAME_MISMATCH']);
    expect(analysis.grade).toBe('M');
    expect(analysis.grading?.gradeIgnoringTrust).toBe('A');
  });
});

describe('warnings: A-', { timeout: 60_000 }, () => {
  it('guide 2014: "no TLS_FALLBACK_SCSV (A-)", here beside TLS 1.1 (B)', async () => {
    const analysis = await analyse('no-fallback-scsv');
    expectCap(analysis, 'NO_FALLBACK_SCSV', 'A-');
    expect(capCodes(analysis)).toEqual(['TLS10_TLS11', 'NO_FALLBACK_SCSV']);
    expect(analysis.grade).toBe('B');
  });
});
