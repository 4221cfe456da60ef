import { decodeBase64, toHex, webCryptoProvider } from '@rfckit/standards';
import { describe, expect, it } from 'vitest';
import { nodeCrypto } from './node-crypto.ts';

const abc = new TextEncoder().encode('abc');
// RFC 6605 §6.1 P-256 public key (x | y)
const p256 = 'GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==';

function keyBytes(base64: string): Uint8Array {
  const decoded = decodeBase64(base64);
  if (!decoded.ok) throw new Error('test key is not base64');
  return decoded.bytes;
}

describe('node crypto provider', () => {
  it('hashes the FIPS 180-4 "abc" examples', () => {
    expect(toHex(nodeCrypto.digest('SHA-1', abc) as Uint8Array)).toBe(
      'a9993e364706816aba3e25717850c26c9cd0d89d',
    );
    expect(toHex(nodeCrypto.digest('SHA-256', abc) as Uint8Array)).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(toHex(nodeCrypto.digest('SHA-384', abc) as Uint8Array)).toBe(
      'cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7',
    );
  });

  it('agrees with Web Crypto on other input', async () => {
    const web = webCryptoProvider();
    expect(web).toBeDefined();
    const data = keyBytes(p256);
    for (const algorithm of ['SHA-1', 'SHA-256', 'SHA-384', 'SHA-512'] as const) {
      expect(toHex(nodeCrypto.digest(algorithm, data) as Uint8Array)).toBe(
        toHex(await web!.digest(algorithm, data)),
      );
    }
  });

  it('accepts a point on the curve and refuses one off it, as Web Crypto does', async () => {
    const web = webCryptoProvider()!;
    const good = keyBytes(p256);
    const bad = good.slice();
    bad[63] = bad[63]! ^ 0x01;
    expect(nodeCrypto.isEcPointOnCurve('P-256', good)).toBe(true);
    expect(await web.isEcPointOnCurve('P-256', good)).toBe(true);
    expect(nodeCrypto.isEcPointOnCurve('P-256', bad)).toBe(false);
    expect(await web.isEcPointOnCurve('P-256', bad)).toBe(false);
  });
});
