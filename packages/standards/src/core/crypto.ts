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
  };
}
