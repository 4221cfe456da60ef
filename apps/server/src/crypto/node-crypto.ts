import { createPublicKey, hash, verify, type KeyObject } from 'node:crypto';
import type { CryptoProvider, DigestAlgorithm, SignatureScheme } from '@rfckit/standards';

const hashNames: Record<DigestAlgorithm, string> = {
  'SHA-1': 'sha1',
  'SHA-256': 'sha256',
  'SHA-384': 'sha384',
  'SHA-512': 'sha512',
};

function publicKey(spki: Uint8Array): KeyObject | undefined {
  try {
    return createPublicKey({
      key: Buffer.from(spki.buffer, spki.byteOffset, spki.byteLength),
      format: 'der',
      type: 'spki',
    });
  } catch {
    // a key OpenSSL rejects (not on the curve, bad DER) verifies nothing
    return undefined;
  }
}

/**
 * Node's synchronous crypto for the standards validators: the same results as Web Crypto
 * without a thread-pool round trip per hash, which dominates a validation's cost.
 */
export const nodeCrypto: CryptoProvider = {
  digest(algorithm, data) {
    // one-shot: no Hash object per digest
    return hash(hashNames[algorithm], data, 'buffer');
  },
  verify(scheme: SignatureScheme, spki, signature, data) {
    const key = publicKey(spki);
    if (!key) return false;
    // EdDSA hashes internally, so Node takes no digest name for it
    const digest = scheme.name === 'Ed25519' || scheme.name === 'Ed448' ? null : hashNames[scheme.hash];
    // DNSSEC writes ECDSA signatures as r||s (RFC 6605 §4), not DER
    return verify(digest, data, { key, dsaEncoding: 'ieee-p1363' }, signature);
  },
};
