/** Test fixtures: fresh key pairs from Web Crypto, exported as the base64 a key record carries. */

function base64(bytes: ArrayBuffer): string {
  let binary = '';
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** SubjectPublicKeyInfo of a new RSA key of `bits` bits, in base64. */
export async function rsaSpki(bits: number): Promise<string> {
  const pair = await crypto.subtle.generateKey(
    {
      name: 'RSASSA-PKCS1-v1_5',
      modulusLength: bits,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: 'SHA-256',
    },
    true,
    ['sign', 'verify'],
  );
  return base64(await crypto.subtle.exportKey('spki', pair.publicKey));
}

/** A new Ed25519 key: its 32 raw bytes and its SubjectPublicKeyInfo, in base64. */
export async function ed25519Key(): Promise<{ raw: string; spki: string }> {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  return {
    raw: base64(await crypto.subtle.exportKey('raw', pair.publicKey)),
    spki: base64(await crypto.subtle.exportKey('spki', pair.publicKey)),
  };
}
