/**
 * The little DER (ITU-T X.690) a DKIM key record needs: SubjectPublicKeyInfo (RFC 5280 §4.1.2.7)
 * and RSAPublicKey (RFC 8017 §A.1.1). Pure, so that the browser and the server measure keys the
 * same way without a crypto library.
 */

import {
  DER_INTEGER as INTEGER,
  DER_SEQUENCE as SEQUENCE,
  type DerElement as Element,
  type DerRead as Read,
  expectDerElement as expect,
} from '../core/der.ts';

export { readSubjectPublicKeyInfo, type SubjectPublicKeyInfo } from '../core/der.ts';

/** rsaEncryption (RFC 8017 §A.1). */
export const rsaEncryptionOid = '1.2.840.113549.1.1.1';
/** id-Ed25519 (RFC 8410 §3). */
export const ed25519Oid = '1.3.101.112';

/** Number of significant bits of a big-endian unsigned integer. */
export function bitLength(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length && bytes[i] === 0) i++;
  const top = bytes[i];
  if (top === undefined) return 0;
  return (bytes.length - i - 1) * 8 + (32 - Math.clz32(top));
}

export interface RsaPublicKey {
  modulusBits: number;
  /** The public exponent, when it fits a double exactly (it always does in practice: 65537). */
  exponent: number;
}

function positiveInteger(bytes: Uint8Array, element: Element): Read<Uint8Array> {
  const content = bytes.subarray(element.start, element.end);
  const first = content[0];
  if (first === undefined) return { ok: false, error: 'an INTEGER is empty' };
  if (first & 0x80) return { ok: false, error: 'an RSA key INTEGER is negative' };
  if (first === 0 && content.length > 1 && ((content[1] ?? 0) & 0x80) === 0) {
    return { ok: false, error: 'an INTEGER is not in its shortest form' };
  }
  return { ok: true, value: content };
}

/** Reads an RSAPublicKey (SEQUENCE { modulus INTEGER, publicExponent INTEGER }) spanning all of `bytes`. */
export function readRsaPublicKey(bytes: Uint8Array): Read<RsaPublicKey> {
  const outer = expect(bytes, 0, bytes.length, SEQUENCE, 'an RSAPublicKey SEQUENCE');
  if (!outer.ok) return outer;
  if (outer.value.end !== bytes.length) return { ok: false, error: 'extra bytes follow the RSA key' };
  const modulus = expect(bytes, outer.value.start, outer.value.end, INTEGER, 'the modulus INTEGER');
  if (!modulus.ok) return modulus;
  const exponent = expect(bytes, modulus.value.end, outer.value.end, INTEGER, 'the exponent INTEGER');
  if (!exponent.ok) return exponent;
  if (exponent.value.end !== outer.value.end) return { ok: false, error: 'extra fields follow the exponent' };
  const n = positiveInteger(bytes, modulus.value);
  if (!n.ok) return n;
  const e = positiveInteger(bytes, exponent.value);
  if (!e.ok) return e;
  let exponentValue = 0;
  for (const octet of e.value) exponentValue = exponentValue * 256 + octet;
  return { ok: true, value: { modulusBits: bitLength(n.value), exponent: exponentValue } };
}
