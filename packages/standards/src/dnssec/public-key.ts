import type { Diagnostic, Span } from '../core/diagnostic.ts';
import { isPointOnCurve } from '../core/ec-point.ts';

/** Key size and findings for a public-key field. */
export interface PublicKeyCheck {
  /** See `DnskeyParsed.keySize`. */
  keySize: number | null;
  diagnostics: Diagnostic[];
}

/** An RSA public key split per RFC 3110 §2. */
export interface RsaPublicKey {
  exponent: Uint8Array;
  modulus: Uint8Array;
  /** The exponent length was written as 0 plus two octets. */
  longLengthForm: boolean;
}

export type RsaPublicKeyResult =
  | { ok: true; key: RsaPublicKey }
  | {
      ok: false;
      code: 'DNSKEY_RSA_TRUNCATED' | 'DNSKEY_RSA_MODULUS_MISSING' | 'DNSKEY_RSA_EXPONENT_INVALID';
      message: string;
    };

/**
 * Splits an RSA public-key field (RFC 3110 §2): the exponent length in one octet, or a zero
 * octet and two octets when it is longer than 255; then the exponent; then the modulus.
 */
export function parseRsaPublicKey(key: Uint8Array): RsaPublicKeyResult {
  const first = key[0];
  if (first === undefined) {
    return { ok: false, code: 'DNSKEY_RSA_TRUNCATED', message: 'The RSA public key is empty' };
  }
  let header = 1;
  let exponentLength = first;
  if (first === 0) {
    const high = key[1];
    const low = key[2];
    if (high === undefined || low === undefined) {
      return {
        ok: false,
        code: 'DNSKEY_RSA_TRUNCATED',
        message: `The RSA key starts with 0, announcing a two-octet exponent length, but has only ${key.length} octet(s)`,
      };
    }
    exponentLength = (high << 8) | low;
    header = 3;
    if (exponentLength === 0) {
      return { ok: false, code: 'DNSKEY_RSA_EXPONENT_INVALID', message: 'The RSA exponent length is 0' };
    }
  }
  if (header + exponentLength > key.length) {
    return {
      ok: false,
      code: 'DNSKEY_RSA_TRUNCATED',
      message: `The RSA exponent is declared as ${exponentLength} octet(s) but only ${key.length - header} follow: the key is truncated`,
    };
  }
  if (header + exponentLength === key.length) {
    return {
      ok: false,
      code: 'DNSKEY_RSA_MODULUS_MISSING',
      message: 'The RSA key has an exponent but no modulus',
    };
  }
  return {
    ok: true,
    key: {
      exponent: key.subarray(header, header + exponentLength),
      modulus: key.subarray(header + exponentLength),
      longLengthForm: header === 3,
    },
  };
}

/** Number of significant bits of a big-endian unsigned integer. */
function bitLength(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length && bytes[i] === 0) i++;
  const top = bytes[i];
  if (top === undefined) return 0;
  return (bytes.length - i - 1) * 8 + (32 - Math.clz32(top));
}

const rsaAlgorithms = new Set([1, 5, 7, 8, 10]);

/** Structural checks of the public-key field for the algorithms whose format is known. */
export function checkPublicKey(algorithm: number, key: Uint8Array, span?: Span): PublicKeyCheck {
  const at = (d: Diagnostic): Diagnostic => (span ? { ...d, span } : d);
  if (rsaAlgorithms.has(algorithm)) return checkRsa(algorithm, key, at);
  if (algorithm === 13 || algorithm === 14) return checkEcdsa(algorithm, key, at);
  if (algorithm === 15 || algorithm === 16) {
    const octets = algorithm === 15 ? 32 : 57;
    const name = algorithm === 15 ? 'Ed25519' : 'Ed448';
    if (key.length === octets) return { keySize: octets * 8, diagnostics: [] };
    return { keySize: null, diagnostics: [wrongLength(at, name, octets, key.length, 'RFC 8080 §3')] };
  }
  if (algorithm === 3 || algorithm === 6) return checkDsa(key, at);
  if (algorithm === 12) {
    if (key.length === 64) return { keySize: 256, diagnostics: [] };
    return {
      keySize: null,
      diagnostics: [wrongLength(at, 'GOST R 34.10-2001', 64, key.length, 'RFC 5933 §2')],
    };
  }
  return { keySize: null, diagnostics: [] };
}

function wrongLength(
  at: (d: Diagnostic) => Diagnostic,
  name: string,
  expected: number,
  found: number,
  rfc: string,
  fix = 'Paste the public key exactly as your signer exported it; it may have been cut or joined with another value.',
): Diagnostic {
  return at({
    severity: 'error',
    code: 'DNSKEY_KEY_LENGTH',
    message: `${name} public key must be ${expected} octets; this one has ${found}`,
    requirement: 'MUST',
    rfc,
    fix,
  });
}

function checkEcdsa(algorithm: 13 | 14, key: Uint8Array, at: (d: Diagnostic) => Diagnostic): PublicKeyCheck {
  const curve = algorithm === 13 ? 'P-256' : 'P-384';
  const octets = algorithm === 13 ? 64 : 96;
  if (key.length !== octets) {
    const prefixed = key.length === octets + 1 && key[0] === 0x04;
    const fix = prefixed
      ? 'Drop the leading 0x04 octet: DNSKEY stores the point as x | y without the uncompressed-point prefix.'
      : undefined;
    const d = wrongLength(at, `ECDSA ${curve} (x | y)`, octets, key.length, 'RFC 6605 §4', fix);
    return { keySize: null, diagnostics: [d] };
  }
  const keySize = algorithm === 13 ? 256 : 384;
  if (!isPointOnCurve(curve, key)) {
    const d = at({
      severity: 'error',
      code: 'DNSKEY_ECDSA_POINT_INVALID',
      message: `The public key is not a point on curve ${curve}, so no signature can verify with it`,
      requirement: 'MUST',
      rfc: 'RFC 6605 §4',
      fix: 'Export the public key again from the signer; the value was probably altered when copied.',
    });
    return { keySize, diagnostics: [d] };
  }
  return { keySize, diagnostics: [] };
}

function checkDsa(key: Uint8Array, at: (d: Diagnostic) => Diagnostic): PublicKeyCheck {
  // RFC 2536 §2: T, Q (20 octets), then P, G and Y of 64 + 8T octets each; T is at most 8.
  const t = key[0];
  if (t === undefined || t > 8) {
    const d = at({
      severity: 'error',
      code: 'DNSKEY_KEY_LENGTH',
      message: `DSA key parameter T must be 0 to 8; found ${t ?? 'nothing'}`,
      requirement: 'MUST',
      rfc: 'RFC 2536 §2',
      fix: 'Paste the public key exactly as your signer exported it.',
    });
    return { keySize: null, diagnostics: [d] };
  }
  const expected = 1 + 20 + 3 * (64 + 8 * t);
  if (key.length !== expected) {
    return {
      keySize: null,
      diagnostics: [wrongLength(at, `DSA (T=${t})`, expected, key.length, 'RFC 2536 §2')],
    };
  }
  return { keySize: 512 + 64 * t, diagnostics: [] };
}

function checkRsa(algorithm: number, key: Uint8Array, at: (d: Diagnostic) => Diagnostic): PublicKeyCheck {
  const parsed = parseRsaPublicKey(key);
  if (!parsed.ok) {
    const d = at({
      severity: 'error',
      code: parsed.code,
      message: parsed.message,
      requirement: 'MUST',
      rfc: 'RFC 3110 §2',
      fix: 'Paste the whole public key as your signer exported it; RSA keys are the exponent length, the exponent, then the modulus.',
    });
    return { keySize: null, diagnostics: [d] };
  }
  const { exponent, modulus, longLengthForm } = parsed.key;
  const diagnostics: Diagnostic[] = [];
  const bits = bitLength(modulus);

  if (longLengthForm && exponent.length <= 255) {
    diagnostics.push(
      at({
        severity: 'warning',
        code: 'DNSKEY_RSA_EXPONENT_LENGTH_FORM',
        message: `The exponent length (${exponent.length}) uses the three-octet form, which RFC 3110 reserves for exponents longer than 255 octets`,
        rfc: 'RFC 3110 §2',
        fix: 'Re-export the key with a standard signer; it writes short exponent lengths in one octet.',
      }),
    );
  }
  if (exponent[0] === 0 || modulus[0] === 0) {
    diagnostics.push(
      at({
        severity: 'error',
        code: 'DNSKEY_RSA_LEADING_ZERO',
        message: `The RSA ${exponent[0] === 0 ? 'exponent' : 'modulus'} starts with a zero octet; leading zero octets are prohibited`,
        requirement: 'MUST NOT',
        rfc: 'RFC 3110 §2',
        fix: 'Re-export the key: the exponent and modulus are written without leading zero octets.',
      }),
    );
  }
  const lastExponentOctet = exponent[exponent.length - 1] ?? 0;
  if ((lastExponentOctet & 1) === 0 || bitLength(exponent) <= 1) {
    diagnostics.push(
      at({
        severity: 'error',
        code: 'DNSKEY_RSA_EXPONENT_INVALID',
        message:
          'The RSA public exponent must be an odd number of at least 3; this key cannot verify signatures',
        requirement: 'MUST',
        rfc: 'RFC 8017 §3.1',
        fix: 'Generate a new key; standard signers use the exponent 65537.',
      }),
    );
  }
  if (bitLength(exponent) > 4096) {
    diagnostics.push(
      at({
        severity: 'error',
        code: 'DNSKEY_RSA_EXPONENT_TOO_LARGE',
        message: `The RSA exponent has ${bitLength(exponent)} bits; for interoperability it is limited to 4096 bits`,
        requirement: 'MUST NOT',
        rfc: 'RFC 3110 §2',
        fix: 'Generate a new key with the exponent 65537.',
      }),
    );
  }
  if (((modulus[modulus.length - 1] ?? 0) & 1) === 0) {
    diagnostics.push(
      at({
        severity: 'error',
        code: 'DNSKEY_RSA_MODULUS_EVEN',
        message: 'The RSA modulus is even, so it is not a product of two odd primes: the key is corrupt',
        requirement: 'MUST',
        rfc: 'RFC 8017 §3.1',
        fix: 'Export the public key again from the signer; the value was probably altered when copied.',
      }),
    );
  }
  diagnostics.push(...rsaSizeDiagnostics(algorithm, bits).map(at));
  return { keySize: bits, diagnostics };
}

function rsaSizeDiagnostics(algorithm: number, bits: number): Diagnostic[] {
  const rfc = algorithm === 8 ? 'RFC 5702 §2.1' : algorithm === 10 ? 'RFC 5702 §2.2' : 'RFC 3110 §2';
  if (bits > 4096) {
    return [
      {
        severity: 'error',
        code: 'DNSKEY_RSA_KEY_TOO_LARGE',
        message: `${bits}-bit RSA modulus: DNSSEC limits RSA keys to 4096 bits for interoperability`,
        requirement: 'MUST NOT',
        rfc,
        fix: 'Generate a 2048-, 3072- or 4096-bit key, or switch to ECDSAP256SHA256 (13).',
      },
    ];
  }
  const floor = algorithm === 10 ? 1024 : algorithm === 8 ? 512 : null;
  if (floor !== null && bits < floor) {
    return [
      {
        severity: 'error',
        code: 'DNSKEY_RSA_KEY_TOO_SMALL',
        message: `${bits}-bit RSA modulus: ${algorithm === 10 ? 'RSA/SHA-512' : 'RSA/SHA-256'} keys must be at least ${floor} bits`,
        requirement: 'MUST NOT',
        rfc,
        fix: 'Generate a 2048-bit (or larger) key, or switch to ECDSAP256SHA256 (13).',
      },
    ];
  }
  if (bits < 1024) {
    return [
      {
        severity: 'error',
        code: 'DNSKEY_RSA_KEY_TOO_SMALL',
        message:
          `${bits}-bit RSA modulus: moduli under 1024 bits are factored with public tools (768 bits fell in 2009), ` +
          'so anyone could forge signatures; rfckit treats them as errors even where an RFC floor of 512 bits allows them',
        rfc: 'NIST SP 800-131A Rev. 2 §3',
        fix: 'Generate a 2048-bit (or larger) key, or switch to ECDSAP256SHA256 (13), then roll the key.',
      },
    ];
  }
  if (bits < 2048) {
    return [
      {
        severity: 'warning',
        code: 'DNSKEY_RSA_KEY_WEAK',
        message:
          `${bits}-bit RSA modulus gives under 112 bits of security: NIST SP 800-131A Rev. 2 has disallowed RSA keys ` +
          'shorter than 2048 bits for new signatures since 2014 (DNSSEC itself allows them)',
        rfc: 'NIST SP 800-131A Rev. 2 §3',
        fix: 'Roll to a 2048-bit (or larger) RSA key, or to ECDSAP256SHA256 (13).',
      },
    ];
  }
  return [];
}
