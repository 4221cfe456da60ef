/** Hash functions of Web Crypto (FIPS 180-4), available in browsers and Node alike. */
export type DigestAlgorithm = 'SHA-1' | 'SHA-256' | 'SHA-384' | 'SHA-512';

/**
 * Web Crypto's `SubtleCrypto`, or `undefined` where the runtime withholds it: browsers expose
 * it only in secure contexts (HTTPS or localhost).
 */
export function subtleCrypto(): SubtleCrypto | undefined {
  const crypto = (globalThis as { crypto?: Crypto }).crypto;
  return crypto?.subtle;
}

/** Digest of `data`; rejects when Web Crypto is unavailable (see {@link subtleCrypto}). */
export async function digest(algorithm: DigestAlgorithm, data: Uint8Array): Promise<Uint8Array> {
  const subtle = subtleCrypto();
  if (!subtle) throw new Error('Web Crypto (crypto.subtle) is not available in this context');
  return new Uint8Array(await subtle.digest(algorithm, data.slice()));
}
