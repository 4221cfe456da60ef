import { generateKeyPairSync } from 'node:crypto';
import {
  decodeBase64,
  dnskeySpki,
  isPointOnCurve,
  toHex,
  verifyRrset,
  webCryptoProvider,
  type EcCurve,
} from '@rfckit/standards';
import { dnskeyRecord, rrsigRecord, signatureVectors } from '@rfckit/standards/testing';
import { describe, expect, it } from 'vitest';
import { nodeCrypto } from './node-crypto.ts';

const abc = new TextEncoder().encode('abc');
// RFC 6605 §6.1 P-256 public key (x | y)
const p256 = 'GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==';

/** Whether Web Crypto imports `xy` as a public key of `curve`: the check the arithmetic must match. */
async function webCryptoAccepts(curve: EcCurve, xy: Uint8Array): Promise<boolean> {
  try {
    await crypto.subtle.importKey(
      'raw',
      new Uint8Array([0x04, ...xy]),
      { name: 'ECDSA', namedCurve: curve },
      false,
      ['verify'],
    );
    return true;
  } catch (error) {
    if ((error as { name?: unknown }).name === 'DataError') return false;
    throw error;
  }
}

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
});

describe('EC public-key check (isPointOnCurve)', () => {
  it('accepts a point on the curve and refuses one off it, as Web Crypto does', async () => {
    const good = keyBytes(p256);
    const bad = good.slice();
    bad[63] = bad[63]! ^ 0x01;
    expect(isPointOnCurve('P-256', good)).toBe(true);
    expect(await webCryptoAccepts('P-256', good)).toBe(true);
    expect(isPointOnCurve('P-256', bad)).toBe(false);
    expect(await webCryptoAccepts('P-256', bad)).toBe(false);
  });

  it.each([
    ['P-256', 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn],
    ['P-384', 2n ** 384n - 2n ** 128n - 2n ** 96n + 2n ** 32n - 1n],
  ] as const)('agrees with Web Crypto on %s points on and off the curve', async (curve: EcCurve, p) => {
    const size = curve === 'P-256' ? 32 : 48;
    const toBytes = (n: bigint): Uint8Array => Buffer.from(n.toString(16).padStart(size * 2, '0'), 'hex');
    const toBigInt = (bytes: Uint8Array): bigint => BigInt(`0x${toHex(bytes)}`);
    const cases: Uint8Array[] = [];
    for (let i = 0; i < 20; i++) {
      const jwk = generateKeyPairSync('ec', { namedCurve: curve }).publicKey.export({ format: 'jwk' });
      const xy = new Uint8Array([...Buffer.from(jwk.x!, 'base64url'), ...Buffer.from(jwk.y!, 'base64url')]);
      const x = toBigInt(xy.subarray(0, size));
      const y = toBigInt(xy.subarray(size));
      const flipped = xy.slice();
      flipped[i % xy.length] = flipped[i % xy.length]! ^ (1 << (i % 8));
      cases.push(
        xy, // on the curve
        flipped, // one bit off
        new Uint8Array([...toBytes(x), ...toBytes(p - y)]), // the negated point, also on the curve
        new Uint8Array(xy.length), // (0, 0)
      );
      // the same point with a coordinate written as c + p, where that still fits: must be refused
      if (y + p < 2n ** BigInt(size * 8)) cases.push(new Uint8Array([...toBytes(x), ...toBytes(y + p)]));
      if (x + p < 2n ** BigInt(size * 8)) cases.push(new Uint8Array([...toBytes(x + p), ...toBytes(y)]));
    }
    // a point with a small x, so that x + p still fits in the coordinate: (x + p, y) must be refused
    const b =
      curve === 'P-256'
        ? 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn
        : 0xb3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aefn;
    const modPow = (base: bigint, exponent: bigint): bigint => {
      let result = 1n;
      for (base %= p; exponent > 0n; exponent >>= 1n, base = (base * base) % p) {
        if (exponent & 1n) result = (result * base) % p;
      }
      return result;
    };
    for (let x = 1n, found = 0; found < 2; x++) {
      const rhs = (((x ** 3n - 3n * x + b) % p) + p) % p;
      const y = modPow(rhs, (p + 1n) / 4n); // p ≡ 3 (mod 4)
      if ((y * y) % p !== rhs) continue;
      found++;
      cases.push(
        new Uint8Array([...toBytes(x), ...toBytes(y)]),
        new Uint8Array([...toBytes(x + p), ...toBytes(y)]),
      );
    }
    let accepted = 0;
    for (const xy of cases) {
      const expected = await webCryptoAccepts(curve, xy);
      expect(isPointOnCurve(curve, xy), toHex(xy)).toBe(expected);
      if (expected) accepted++;
    }
    // both outcomes were exercised
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThan(cases.length);
  });
});

describe('node crypto provider: DNSSEC signatures', () => {
  it.each(signatureVectors)('$name verifies with node:crypto as with Web Crypto', async (vector) => {
    const owner = vector.rrset[0]?.name ?? '';
    const keys = [dnskeyRecord(vector.zone, vector.key)];
    const signatures = [rrsigRecord(owner, vector.rrsig)];
    const options = { zone: vector.zone, now: vector.now };
    const byNode = await verifyRrset(vector.rrset, signatures, keys, { ...options, crypto: nodeCrypto });
    expect(byNode.checks.map((c) => c.outcome)).toEqual(['valid']);
    const web = webCryptoProvider();
    if (!web) throw new Error('Node has Web Crypto');
    const byWeb = await verifyRrset(vector.rrset, signatures, keys, { ...options, crypto: web });
    expect(byWeb.checks.map((c) => c.outcome)).toEqual(['valid']);
  });

  it('rejects a signature over other data, and a key that is not a key', async () => {
    const [vector] = signatureVectors;
    if (!vector?.rrset[0]) throw new Error('vectors present');
    const key = dnskeyRecord(vector.zone, vector.key);
    const publicKey = decodeBase64(key.key);
    if (!publicKey.ok) throw new Error('vector key is base64');
    const spki = dnskeySpki(key.algorithm, publicKey.bytes);
    if (!spki) throw new Error('vector key converts');
    const signature = keyBytes(vector.rrsig.split(' ').at(-1) ?? '');
    const scheme = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const;
    expect(await nodeCrypto.verify?.(scheme, spki, signature, abc)).toBe(false);
    expect(await nodeCrypto.verify?.(scheme, spki.subarray(1), signature, abc)).toBe(false);
  });
});
