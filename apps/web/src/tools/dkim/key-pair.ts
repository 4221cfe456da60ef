/** Key pairs the generator can make in the browser with Web Crypto. */
export const keyPairKinds = [
  { value: 'rsa-2048', label: 'RSA 2048 bits', algorithm: 'rsa' },
  { value: 'rsa-3072', label: 'RSA 3072 bits', algorithm: 'rsa' },
  { value: 'rsa-4096', label: 'RSA 4096 bits', algorithm: 'rsa' },
  { value: 'ed25519', label: 'Ed25519', algorithm: 'ed25519' },
] as const;

export type KeyPairKind = (typeof keyPairKinds)[number]['value'];

export interface GeneratedKeyPair {
  kind: KeyPairKind;
  /** What goes into p=: SubjectPublicKeyInfo for RSA, the 32 raw bytes for Ed25519 (RFC 8463 §4.2). */
  publicKey: string;
  /** PKCS #8 private key in PEM (RFC 7468 §10), for the signer's configuration. */
  privateKeyPem: string;
}

function base64(bytes: ArrayBuffer): string {
  let binary = '';
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function pem(label: string, der: ArrayBuffer): string {
  const lines = base64(der).match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/**
 * Generates a signing key pair in this browser. The private key is exported once, as PEM, for
 * the user to download; nothing here sends it anywhere.
 */
export async function generateKeyPair(kind: KeyPairKind): Promise<GeneratedKeyPair> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error('Web Crypto is unavailable here: browsers offer it only over HTTPS');
  if (kind === 'ed25519') {
    const pair = (await subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
    return {
      kind,
      publicKey: base64(await subtle.exportKey('raw', pair.publicKey)),
      privateKeyPem: pem('PRIVATE KEY', await subtle.exportKey('pkcs8', pair.privateKey)),
    };
  }
  const bits = Number(kind.slice(4));
  const pair = await subtle.generateKey(
    {
      name: 'RSASSA-PKCS1-v1_5',
      modulusLength: bits,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: 'SHA-256',
    },
    true,
    ['sign', 'verify'],
  );
  return {
    kind,
    publicKey: base64(await subtle.exportKey('spki', pair.publicKey)),
    privateKeyPem: pem('PRIVATE KEY', await subtle.exportKey('pkcs8', pair.privateKey)),
  };
}
