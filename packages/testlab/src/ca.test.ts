import { X509Certificate } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestCa, type IssuedCertificate, type TestCa } from './ca.ts';

/** Completes a TLS handshake against a server using `certificate`, trusting only `ca`. */
async function handshake(
  certificate: IssuedCertificate,
  trusted: string,
  servername: string,
): Promise<{ authorized: boolean; error: string | undefined }> {
  const server = tls.createServer({ cert: certificate.chain, key: certificate.key }, (socket) =>
    socket.end(),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    return await new Promise((resolve, reject) => {
      const socket = tls.connect(
        { host: '127.0.0.1', port, servername, ca: [trusted], rejectUnauthorized: false },
        () => {
          const authorizationError = socket.authorizationError as unknown as Error | string | null;
          resolve({
            authorized: socket.authorized,
            error:
              authorizationError === null
                ? undefined
                : typeof authorizationError === 'string'
                  ? authorizationError
                  : ((authorizationError as NodeJS.ErrnoException).code ?? authorizationError.message),
          });
          socket.destroy();
        },
      );
      socket.on('error', reject);
    });
  } finally {
    server.close();
  }
}

// every test makes or uses RSA and EC keys: seconds on a busy machine, not the 5 s default
describe('createTestCa', { timeout: 60_000 }, () => {
  let ca: TestCa;
  beforeAll(async () => {
    ca = await createTestCa({ name: 'unit test CA' });
  }, 60_000);

  it('makes a self-signed CA certificate', () => {
    const root = new X509Certificate(ca.cert);
    expect(root.ca).toBe(true);
    expect(root.subject).toBe('CN=unit test CA');
    expect(root.checkIssued(root)).toBe(true);
    expect(ca.key).toMatch(/^-----BEGIN PRIVATE KEY-----/);
  });

  it('issues leaves for names and addresses that Node trusts through the CA', async () => {
    const leaf = await ca.issue({ names: ['www.example.test', '127.0.0.1'] });
    const cert = new X509Certificate(leaf.cert);
    expect(cert.subjectAltName).toBe('DNS:www.example.test, IP Address:127.0.0.1');
    expect(cert.checkIssued(new X509Certificate(ca.cert))).toBe(true);
    expect(cert.fingerprint256).toBe(leaf.fingerprint256);
    expect(cert.checkHost('www.example.test')).toBe('www.example.test');
    expect(await handshake(leaf, ca.cert, 'www.example.test')).toEqual({
      authorized: true,
      error: undefined,
    });
  });

  it('issues RSA leaves', async () => {
    const leaf = await ca.issue({ names: ['rsa.example.test'], keyType: 'rsa-2048' });
    expect(new X509Certificate(leaf.cert).publicKey.asymmetricKeyType).toBe('rsa');
    expect((await handshake(leaf, ca.cert, 'rsa.example.test')).authorized).toBe(true);
  });

  it('issues expired, wrongly named and self-signed leaves that fail verification for their own reason', async () => {
    const now = Date.now();
    const expired = await ca.issue({
      names: ['old.example.test'],
      notBefore: new Date(now - 10 * 86_400_000),
      notAfter: new Date(now - 86_400_000),
    });
    expect(new X509Certificate(expired.cert).validToDate.getTime()).toBeLessThan(now);
    expect(await handshake(expired, ca.cert, 'old.example.test')).toEqual({
      authorized: false,
      error: 'CERT_HAS_EXPIRED',
    });

    const other = await ca.issue({ names: ['other.example.test'] });
    expect(await handshake(other, ca.cert, 'www.example.test')).toEqual({
      authorized: false,
      error: 'ERR_TLS_CERT_ALTNAME_INVALID',
    });

    const selfSigned = await ca.issue({ names: ['self.example.test'], selfSigned: true });
    const cert = new X509Certificate(selfSigned.cert);
    expect(cert.issuer).toBe(cert.subject);
    expect(selfSigned.chain).toBe(selfSigned.cert);
    expect(await handshake(selfSigned, ca.cert, 'self.example.test')).toEqual({
      authorized: false,
      error: 'DEPTH_ZERO_SELF_SIGNED_CERT',
    });
  });

  it('does not trust leaves of another CA', async () => {
    const stranger = await createTestCa();
    const leaf = await stranger.issue({ names: ['www.example.test'] });
    const result = await handshake(leaf, ca.cert, 'www.example.test');
    expect(result.authorized).toBe(false);
  });
});
