import { decodeBase64 } from '../core/base64.ts';
import { ed25519Oid, readRsaPublicKey, readSubjectPublicKeyInfo, rsaEncryptionOid } from './der.ts';

/** How the p= bytes were laid out. */
export type DkimKeyEncoding = 'spki' | 'pkcs1' | 'raw';

export type DkimKeyRead =
  | { ok: true; keyType: 'rsa'; bits: number; exponent: number; encoding: 'spki' | 'pkcs1'; bytes: number }
  | { ok: true; keyType: 'ed25519'; bits: 256; encoding: 'raw'; bytes: 32 }
  | {
      ok: false;
      code: string;
      message: string;
      fix?: string;
      /** Set when the bytes are a key of the other supported type. */
      looksLike?: 'rsa' | 'ed25519';
      /** The raw Ed25519 key, when an Ed25519 key was wrapped in SubjectPublicKeyInfo. */
      rawEd25519?: Uint8Array;
    };

/** Base64 of `bytes` (RFC 4648 §4), for keys: small enough for `btoa`. */
export function encodeBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The bytes of base64 text that may be PEM-armoured (`-----BEGIN PUBLIC KEY-----`). */
export function publicKeyBytes(text: string): { ok: true; bytes: Uint8Array } | { ok: false; error: string } {
  const body = text.replace(/-----(BEGIN|END) [A-Z0-9 ]+-----/g, '');
  const decoded = decodeBase64(body);
  return decoded.ok ? { ok: true, bytes: decoded.bytes } : { ok: false, error: decoded.error };
}

/**
 * Reads a public key as the key type says it must be published: for `rsa` a DER
 * SubjectPublicKeyInfo (what `openssl rsa -pubout` writes; a bare PKCS#1 RSAPublicKey is also
 * read, as many verifiers do), for `ed25519` the 32 raw bytes of RFC 8032 (RFC 8463 §4.2).
 */
export function readDkimPublicKey(keyType: 'rsa' | 'ed25519', bytes: Uint8Array): DkimKeyRead {
  const spki = readSubjectPublicKeyInfo(bytes);
  if (keyType === 'ed25519') {
    if (bytes.length === 32) return { ok: true, keyType: 'ed25519', bits: 256, encoding: 'raw', bytes: 32 };
    if (spki.ok && spki.value.algorithm === ed25519Oid && spki.value.publicKey.length === 32) {
      return {
        ok: false,
        code: 'DKIM_ED25519_SPKI',
        message:
          'The Ed25519 key is wrapped in a SubjectPublicKeyInfo structure; k=ed25519 records carry only the 32-byte raw key',
        fix: `Publish p=${encodeBase64(spki.value.publicKey)} (the same key without its DER wrapper).`,
        rawEd25519: spki.value.publicKey,
      };
    }
    const rsa = spki.ok && spki.value.algorithm === rsaEncryptionOid;
    return {
      ok: false,
      code: 'DKIM_ED25519_LENGTH',
      message: `An Ed25519 public key is 32 bytes; p= decodes to ${bytes.length} bytes`,
      fix: rsa ? 'This is an RSA key: write k=rsa.' : 'Publish the base64 of the 32-byte Ed25519 public key.',
      ...(rsa ? { looksLike: 'rsa' as const } : {}),
    };
  }
  if (spki.ok) {
    if (spki.value.algorithm === ed25519Oid) {
      return {
        ok: false,
        code: 'DKIM_KEY_TYPE_MISMATCH',
        message: 'p= holds an Ed25519 key, but the key type is rsa (k= absent means rsa)',
        fix: `Write k=ed25519 and publish the raw key p=${encodeBase64(spki.value.publicKey)}.`,
        looksLike: 'ed25519',
        rawEd25519: spki.value.publicKey,
      };
    }
    if (spki.value.algorithm !== rsaEncryptionOid) {
      return {
        ok: false,
        code: 'DKIM_KEY_NOT_RSA',
        message: `p= holds a key of algorithm ${spki.value.algorithm}, not an RSA key (rsaEncryption, ${rsaEncryptionOid})`,
        fix: 'Publish the RSA public key, or the key type matching this key.',
      };
    }
    const rsa = readRsaPublicKey(spki.value.publicKey);
    if (!rsa.ok) {
      return {
        ok: false,
        code: 'DKIM_RSA_KEY_INVALID',
        message: `The RSA public key cannot be read: ${rsa.error}`,
        fix: "Publish the base64 of the DER public key, e.g. the body of 'openssl rsa -pubout' without the BEGIN/END lines.",
      };
    }
    return {
      ok: true,
      keyType: 'rsa',
      bits: rsa.value.modulusBits,
      exponent: rsa.value.exponent,
      encoding: 'spki',
      bytes: bytes.length,
    };
  }
  const pkcs1 = readRsaPublicKey(bytes);
  if (pkcs1.ok) {
    return {
      ok: true,
      keyType: 'rsa',
      bits: pkcs1.value.modulusBits,
      exponent: pkcs1.value.exponent,
      encoding: 'pkcs1',
      bytes: bytes.length,
    };
  }
  if (bytes.length === 32) {
    return {
      ok: false,
      code: 'DKIM_KEY_TYPE_MISMATCH',
      message: 'p= is 32 bytes, the size of an Ed25519 key, but the key type is rsa (k= absent means rsa)',
      fix: 'If this is an Ed25519 key, write k=ed25519.',
      looksLike: 'ed25519',
    };
  }
  return {
    ok: false,
    code: 'DKIM_RSA_KEY_INVALID',
    message: `p= does not decode to an RSA public key: ${spki.error}`,
    fix: "Publish the base64 of the DER public key, e.g. the body of 'openssl rsa -pubout' without the BEGIN/END lines.",
  };
}
