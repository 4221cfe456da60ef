import { hash } from 'node:crypto';
import type { CryptoProvider, DigestAlgorithm } from '@rfckit/standards';

const hashNames: Record<DigestAlgorithm, string> = {
  'SHA-1': 'sha1',
  'SHA-256': 'sha256',
  'SHA-384': 'sha384',
  'SHA-512': 'sha512',
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
};
