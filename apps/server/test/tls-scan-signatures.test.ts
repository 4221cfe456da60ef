// TLS 1.3 signature schemes: the scanner offers each scheme alone and reads ServerHello (the
// server can sign its CertificateVerify with it) or a handshake_failure alert (it cannot). The
// expected lists follow from the key type and OpenSSL 3's rules (RFC 8446 §4.2.3: RSA keys sign
// with RSASSA-PSS only, and an ECDSA scheme names its curve); `openssl s_client -sigalgs`, one
// scheme at a time, is the peer.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LabTlsServer, hasProgram, startNodeTlsServer } from '@rfckit/testlab';
import { signatureSchemes } from '@rfckit/standards';
import { scanTls } from '../src/tls/scan.ts';
import { LAB_TLS_HOST, type TlsLab, createTlsLab } from './helpers/tls-lab.ts';

const run = promisify(execFile);
let lab: TlsLab;
beforeAll(async () => {
  lab = await createTlsLab();
});

afterAll(async () => {
  await lab.close();
});

/** The schemes `openssl s_client -tls1_3 -sigalgs NAME` completes a handshake with. */
async function acceptedByOpensslClient(port: number): Promise<string[]> {
  const accepted: string[] = [];
  for (const name of Object.keys(signatureSchemes)) {
    const client = run(
      'openssl',
      [
        's_client',
        '-brief',
        '-tls1_3',
        '-sigalgs',
        name,
        '-servername',
        LAB_TLS_HOST,
        '-connect',
        `127.0.0.1:${port}`,
      ],
      { timeout: 20_000 },
    );
    client.child.stdin?.end();
    // -brief says so once the handshake is done; its exit code also counts how the close went
    const output = await client.then(
      ({ stdout, stderr }) => stdout + stderr,
      (error: { stdout?: string; stderr?: string }) => (error.stdout ?? '') + (error.stderr ?? ''),
    );
    if (output.includes('CONNECTION ESTABLISHED')) accepted.push(name);
  }
  return accepted;
}

describe.each([
  {
    keyType: 'rsa-2048' as const,
    expected: ['rsa_pss_rsae_sha256', 'rsa_pss_rsae_sha384', 'rsa_pss_rsae_sha512'],
  },
  { keyType: 'ec-p256' as const, expected: ['ecdsa_secp256r1_sha256'] },
])('a TLS 1.2 + 1.3 Node server with a $keyType certificate', ({ keyType, expected }) => {
  let server: LabTlsServer;

  beforeAll(async () => {
    server = await lab.started(
      startNodeTlsServer({
        certificate: await lab.issue({ keyType }),
        minVersion: 'TLSv1.2',
      }),
    );
  });

  it('reports the schemes its key signs TLS 1.3 handshakes with', async () => {
    const report = await scanTls(
      lab.session(server.port),
      { host: LAB_TLS_HOST, port: 443 },
      { timeoutMs: 10_000 },
    );
    expect(report.tls13SignatureAlgorithms).toEqual(expected);
    // TLS 1.2's ServerKeyExchange list is a separate answer: it may add PKCS #1 v1.5 (RSA) schemes
    expect(report.signatureAlgorithms).toEqual(expect.arrayContaining(expected.slice(0, 1)));
  }, 60_000);

  it.skipIf(!hasProgram('openssl'))(
    'agrees with openssl s_client offering one scheme at a time',
    async () => {
      expect(await acceptedByOpensslClient(server.port)).toEqual(expected);
    },
    120_000,
  );
});

describe('a TLS 1.2-only server', () => {
  it('has no TLS 1.3 signature schemes to report', async () => {
    const server = await lab.started(
      startNodeTlsServer({
        certificate: await lab.issue({ keyType: 'rsa-2048' }),
        maxVersion: 'TLSv1.2',
      }),
    );
    const report = await scanTls(
      lab.session(server.port),
      { host: LAB_TLS_HOST, port: 443 },
      { timeoutMs: 10_000 },
    );
    expect(report.tls13SignatureAlgorithms).toBeUndefined();
    expect(report.signatureAlgorithms).toContain('rsa_pss_rsae_sha256');
  }, 60_000);
});
