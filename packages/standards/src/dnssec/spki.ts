import type { SignatureScheme } from '../core/crypto.ts';
import { isPointOnCurve } from '../core/ec-point.ts';
import { parseRsaPublicKey } from './public-key.ts';

/**
 * DNSKEY public keys as SubjectPublicKeyInfo DER (RFC 5280 §4.1.2.7), the form both Web Crypto
 * and node:crypto import: DNSSEC stores bare key material, the crypto APIs want it wrapped.
 */

const SEQUENCE = 0x30;
const INTEGER = 0x02;
const BIT_STRING = 0x03;

/** rsaEncryption 1.2.840.113549.1.1.1 with NULL parameters (RFC 3279 §2.3.1). */
const rsaAlgorithmIdentifier = [0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00];
/** id-ecPublicKey 1.2.840.10045.2.1 (RFC 5480 §2.1.1). */
const ecPublicKeyOid = [0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];
/** secp256r1 1.2.840.10045.3.1.7 and secp384r1 1.3.132.0.34 (RFC 5480 §2.1.1.1). */
const curveOids = {
  'P-256': [0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07],
  'P-384': [0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22],
} as const;
/** id-Ed25519 1.3.101.112 and id-Ed448 1.3.101.113, without parameters (RFC 8410 §3). */
const edOids = { Ed25519: [0x06, 0x03, 0x2b, 0x65, 0x70], Ed448: [0x06, 0x03, 0x2b, 0x65, 0x71] } as const;

function derLength(length: number): number[] {
  if (length < 0x80) return [length];
  const octets: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) octets.unshift(rest & 0xff);
  return [0x80 | octets.length, ...octets];
}

function tlv(tag: number, content: ArrayLike<number>): number[] {
  return [tag, ...derLength(content.length), ...Array.from(content)];
}

/** A non-negative INTEGER: leading zeros dropped, one zero added when the top bit is set. */
function derUnsigned(bytes: Uint8Array): number[] {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const value = Array.from(bytes.subarray(start));
  return tlv(INTEGER, (value[0] ?? 0) & 0x80 ? [0, ...value] : value);
}

function spki(algorithmIdentifier: number[], publicKey: ArrayLike<number>): Uint8Array {
  const bitString = tlv(BIT_STRING, [0, ...Array.from(publicKey)]);
  return Uint8Array.from(tlv(SEQUENCE, [...tlv(SEQUENCE, algorithmIdentifier), ...bitString]));
}

/** How a DNSSEC algorithm's signatures are checked: the scheme and the signature length, where fixed. */
export interface DnssecVerifier {
  scheme: SignatureScheme;
  /** Octets of a well-formed signature; `null` for RSA, whose length follows the modulus. */
  signatureLength: number | null;
}

const verifiers: Record<number, DnssecVerifier> = {
  5: { scheme: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-1' }, signatureLength: null },
  7: { scheme: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-1' }, signatureLength: null },
  8: { scheme: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, signatureLength: null },
  10: { scheme: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-512' }, signatureLength: null },
  13: { scheme: { name: 'ECDSA', curve: 'P-256', hash: 'SHA-256' }, signatureLength: 64 },
  14: { scheme: { name: 'ECDSA', curve: 'P-384', hash: 'SHA-384' }, signatureLength: 96 },
  15: { scheme: { name: 'Ed25519' }, signatureLength: 64 },
  16: { scheme: { name: 'Ed448' }, signatureLength: 114 },
};

/** The verifier of algorithms 5, 7, 8, 10 (RFC 3110, RFC 5702), 13, 14 (RFC 6605), 15, 16 (RFC 8080). */
export function dnssecVerifier(algorithm: number): DnssecVerifier | undefined {
  return Object.hasOwn(verifiers, algorithm) ? verifiers[algorithm] : undefined;
}

/**
 * The SubjectPublicKeyInfo of a DNSKEY public-key field, or `undefined` when the field is not a
 * key of that algorithm: RSA is exponent and modulus (RFC 3110 §2), ECDSA the point x | y
 * (RFC 6605 §4), EdDSA the raw public key (RFC 8080 §3).
 */
export function dnskeySpki(algorithm: number, key: Uint8Array): Uint8Array | undefined {
  const verifier = dnssecVerifier(algorithm);
  if (!verifier) return undefined;
  const { scheme } = verifier;
  switch (scheme.name) {
    case 'RSASSA-PKCS1-v1_5': {
      const parsed = parseRsaPublicKey(key);
      if (!parsed.ok) return undefined;
      const rsaPublicKey = tlv(SEQUENCE, [
        ...derUnsigned(parsed.key.modulus),
        ...derUnsigned(parsed.key.exponent),
      ]);
      return spki(rsaAlgorithmIdentifier, rsaPublicKey);
    }
    case 'ECDSA':
      if (!isPointOnCurve(scheme.curve, key)) return undefined;
      return spki([...ecPublicKeyOid, ...curveOids[scheme.curve]], [0x04, ...key]);
    case 'Ed25519':
    case 'Ed448':
      if (key.length !== (scheme.name === 'Ed25519' ? 32 : 57)) return undefined;
      return spki([...edOids[scheme.name]], key);
  }
}
