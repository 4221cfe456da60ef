import type { EcCurve } from './crypto.ts';
import { toHex } from './hex.ts';

/** The NIST prime curves y² = x³ − 3x + b over GF(p) (FIPS 186-5, SEC 2 §2.4). */
const curves: Record<EcCurve, { p: bigint; b: bigint; size: number }> = {
  'P-256': {
    p: 2n ** 256n - 2n ** 224n + 2n ** 192n + 2n ** 96n - 1n,
    b: 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn,
    size: 32,
  },
  'P-384': {
    p: 2n ** 384n - 2n ** 128n - 2n ** 96n + 2n ** 32n - 1n,
    b: 0xb3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aefn,
    size: 48,
  },
};

/**
 * Whether `xy` (x | y, each coordinate at full length, no 0x04 prefix) is a point on `curve`:
 * the public-key check of SEC 1 §3.2.2.1 that importing the key makes, as plain arithmetic, so
 * it costs a few multiplications instead of a key import and runs without Web Crypto.
 */
export function isPointOnCurve(curve: EcCurve, xy: Uint8Array): boolean {
  const { p, b, size } = curves[curve];
  if (xy.length !== 2 * size) return false;
  const x = BigInt(`0x${toHex(xy.subarray(0, size))}`);
  const y = BigInt(`0x${toHex(xy.subarray(size))}`);
  // coordinates are field elements; (0, 0), the usual stand-in for infinity, fails the equation (b ≠ 0)
  if (x >= p || y >= p) return false;
  return (y * y - x * x * x + 3n * x - b) % p === 0n;
}
