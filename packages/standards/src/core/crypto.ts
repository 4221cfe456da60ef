/** Hash functions of FIPS 180-4 that the standards use. */
export type DigestAlgorithm = 'SHA-1' | 'SHA-256' | 'SHA-384' | 'SHA-512';

export type EcCurve = 'P-256' | 'P-384';

/**
 * The cryptography a validator needs, passed in like DNS access is (docs/architecture.md §1): the browser
 * uses Web Crypto, the server may pass Node's synchronous primitives, which avoid a thread-pool
 * round trip per hash.
 */
export interface CryptoProvider {
  digest(algorithm: DigestAlgorithm, data: Uint8Array): Uint8Array | Promise<Uint8Array>;
  /**
   * Verifies `signature` (ECDSA as r||s, RFC 6605 §4) over `data` with a SubjectPublicKeyInfo DER key.
   * Absent where the runtime cannot verify; throws {@link UnsupportedSchemeError} for a scheme the
   * runtime lacks, so that "cannot check" stays apart from "does not verify".
   */
  verify?(
    scheme: SignatureScheme,
    spki: Uint8Array,
    signature: Uint8Array,
    data: Uint8Array,
  ): boolean | Promise<boolean>;
}

/** The signature schemes DNSSEC algorithms 5, 7, 8, 10, 13, 14, 15 and 16 use. */
export type SignatureScheme =
  | { name: 'RSASSA-PKCS1-v1_5'; hash: 'SHA-1' | 'SHA-256' | 'SHA-512' }
  | { name: 'ECDSA'; curve: 'P-256' | 'P-384'; hash: 'SHA-256' | 'SHA-384' }
  | { name: 'Ed25519' }
  | { name: 'Ed448' };

/** Thrown by {@link CryptoProvider.verify} when the runtime has no implementation of the scheme. */
export class UnsupportedSchemeError extends Error {
  readonly scheme: SignatureScheme['name'];
  constructor(scheme: SignatureScheme['name']) {
    super(`${scheme} signatures cannot be verified in this runtime`);
    this.scheme = scheme;
    this.name = 'UnsupportedSchemeError';
  }
}

function webCryptoImportParams(
  scheme: SignatureScheme,
): RsaHashedImportParams | EcKeyImportParams | Algorithm {
  switch (scheme.name) {
    case 'RSASSA-PKCS1-v1_5':
      return { name: scheme.name, hash: scheme.hash };
    case 'ECDSA':
      return { name: scheme.name, namedCurve: scheme.curve };
    default:
      return { name: scheme.name };
  }
}

async function webCryptoVerify(
  subtle: SubtleCrypto,
  scheme: SignatureScheme,
  spki: Uint8Array,
  signature: Uint8Array,
  data: Uint8Array,
): Promise<boolean> {
  let key: CryptoKey;
  try {
    key = await subtle.importKey('spki', spki.slice(), webCryptoImportParams(scheme), false, ['verify']);
  } catch (error) {
    const name = (error as { name?: unknown }).name;
    if (name === 'NotSupportedError') throw new UnsupportedSchemeError(scheme.name);
    // a key the runtime rejects (not on the curve, wrong length) verifies nothing
    if (name === 'DataError') return false;
    throw error;
  }
  // Web Crypto's ECDSA signature is r||s already (IEEE P1363), as DNSSEC writes it
  const params = scheme.name === 'ECDSA' ? { name: 'ECDSA', hash: scheme.hash } : { name: scheme.name };
  return subtle.verify(params, key, signature.slice(), data.slice());
}

/**
 * Web Crypto as a {@link CryptoProvider}, or `undefined` where the runtime withholds it:
 * browsers expose it only in secure contexts (HTTPS or localhost).
 */
export function webCryptoProvider(): CryptoProvider | undefined {
  const subtle = (globalThis as { crypto?: Crypto }).crypto?.subtle;
  if (!subtle) return undefined;
  return {
    async digest(algorithm, data) {
      return new Uint8Array(await subtle.digest(algorithm, data.slice()));
    },
    verify(scheme, spki, signature, data) {
      return webCryptoVerify(subtle, scheme, spki, signature, data);
    },
  };
}
