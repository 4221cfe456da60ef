import { ECDH, hash } from 'node:crypto';
import type { CryptoProvider, DigestAlgorithm, EcCurve } from '@rfckit/standards';

const hashNames: Record<DigestAlgorithm, string> = {
  'SHA-1': 'sha1',
  'SHA-256': 'sha256',
  'SHA-384': 'sha384',
  'SHA-512': 'sha512',
};

// OpenSSL's names for the curves
const curveNames: Record<EcCurve, string> = {
  'P-256': 'prime256v1',
  'P-384': 'secp384r1',
};

/**
 * Node's synchronous crypto for the standards validators: the same results as Web Crypto
 * without a thread-pool round trip per hash, which dominates a validation's cost.
 */
export const nodeCrypto: CryptoProvider = {
  digest(algorithm, data) {
    // one-shot: no Hash object per digest
    return hash(hashNames[algorithm], data, 'buffer');
  },
  isEcPointOnCurve(curve, xy) {
    // SEC 1 uncompressed point: 0x04 | x | y
    const point = new Uint8Array(1 + xy.length);
    point[0] = 0x04;
    point.set(xy, 1);
    try {
      // OpenSSL's EC_POINT_oct2point refuses coordinates >= p and points that are not on the
      // curve, as importing the key (JWK, SPKI or Web Crypto 'raw') does, without building a
      // KeyObject: about a fifth of the cost of createPublicKey per check
      ECDH.convertKey(point, curveNames[curve], undefined, undefined, 'uncompressed');
      return true;
    } catch {
      return false;
    }
  },
};
