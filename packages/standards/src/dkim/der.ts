/**
 * The little DER (ITU-T X.690) a DKIM key record needs: SubjectPublicKeyInfo (RFC 5280 §4.1.2.7)
 * and RSAPublicKey (RFC 8017 §A.1.1). Pure, so that the browser and the server measure keys the
 * same way without a crypto library.
 */

const SEQUENCE = 0x30;
const INTEGER = 0x02;
const BIT_STRING = 0x03;
const OBJECT_IDENTIFIER = 0x06;

/** rsaEncryption (RFC 8017 §A.1). */
export const rsaEncryptionOid = '1.2.840.113549.1.1.1';
/** id-Ed25519 (RFC 8410 §3). */
export const ed25519Oid = '1.3.101.112';

interface Element {
  tag: number;
  /** Offset of the first content octet. */
  start: number;
  /** Offset just past the last content octet. */
  end: number;
}

type Read<T> = { ok: true; value: T } | { ok: false; error: string };

/** One element at `offset`, which must end at or before `limit`. Definite, minimal lengths only (DER). */
function readElement(bytes: Uint8Array, offset: number, limit: number): Read<Element> {
  const tag = bytes[offset];
  const first = bytes[offset + 1];
  if (tag === undefined || first === undefined || offset + 2 > limit) {
    return { ok: false, error: 'the DER structure is truncated' };
  }
  let length = first;
  let start = offset + 2;
  if (first === 0x80) return { ok: false, error: 'indefinite lengths are not DER' };
  if (first > 0x80) {
    const count = first & 0x7f;
    if (count > 4) return { ok: false, error: 'a DER length is implausibly large' };
    length = 0;
    for (let i = 0; i < count; i++) {
      const octet = bytes[start + i];
      if (octet === undefined) return { ok: false, error: 'the DER structure is truncated' };
      length = length * 256 + octet;
    }
    if (length < 0x80 || (count > 1 && bytes[start] === 0)) {
      return { ok: false, error: 'a DER length is not in its shortest form' };
    }
    start += count;
  }
  const end = start + length;
  if (end > limit) return { ok: false, error: 'the DER structure is truncated' };
  return { ok: true, value: { tag, start, end } };
}

function expect(bytes: Uint8Array, offset: number, limit: number, tag: number, what: string): Read<Element> {
  const element = readElement(bytes, offset, limit);
  if (!element.ok) return element;
  if (element.value.tag !== tag) return { ok: false, error: `expected ${what}` };
  return element;
}

function oidText(bytes: Uint8Array): string {
  const parts: number[] = [];
  let value = 0;
  for (const octet of bytes) {
    value = value * 128 + (octet & 0x7f);
    if ((octet & 0x80) === 0) {
      if (parts.length === 0) {
        const first = value < 80 ? Math.floor(value / 40) : 2;
        parts.push(first, value - first * 40);
      } else {
        parts.push(value);
      }
      value = 0;
    }
  }
  return parts.join('.');
}

/** Number of significant bits of a big-endian unsigned integer. */
export function bitLength(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length && bytes[i] === 0) i++;
  const top = bytes[i];
  if (top === undefined) return 0;
  return (bytes.length - i - 1) * 8 + (32 - Math.clz32(top));
}

export interface SubjectPublicKeyInfo {
  algorithm: string;
  /** The subjectPublicKey BIT STRING without its unused-bits octet. */
  publicKey: Uint8Array;
}

/** Reads a SubjectPublicKeyInfo that spans all of `bytes`. */
export function readSubjectPublicKeyInfo(bytes: Uint8Array): Read<SubjectPublicKeyInfo> {
  const outer = expect(bytes, 0, bytes.length, SEQUENCE, 'a SEQUENCE');
  if (!outer.ok) return outer;
  if (outer.value.end !== bytes.length) return { ok: false, error: 'extra bytes follow the key' };
  const algorithm = expect(bytes, outer.value.start, outer.value.end, SEQUENCE, 'an AlgorithmIdentifier');
  if (!algorithm.ok) return algorithm;
  const oid = expect(
    bytes,
    algorithm.value.start,
    algorithm.value.end,
    OBJECT_IDENTIFIER,
    'an algorithm OID',
  );
  if (!oid.ok) return oid;
  const key = expect(bytes, algorithm.value.end, outer.value.end, BIT_STRING, 'a BIT STRING');
  if (!key.ok) return key;
  if (key.value.end !== outer.value.end) return { ok: false, error: 'extra fields follow the public key' };
  if (key.value.start >= key.value.end || bytes[key.value.start] !== 0) {
    return { ok: false, error: 'the public key BIT STRING must have 0 unused bits' };
  }
  return {
    ok: true,
    value: {
      algorithm: oidText(bytes.subarray(oid.value.start, oid.value.end)),
      publicKey: bytes.subarray(key.value.start + 1, key.value.end),
    },
  };
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
