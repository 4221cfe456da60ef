// The cipher validator: a suite named in any scheme (IANA, OpenSSL, GnuTLS) or by its code point,
// with its properties from the database and advice for each weakness it carries.
import { protocolLabel } from './grade.ts';
import { findSuite } from './lookup.ts';
import type { CipherSuite, ProtocolVersionName, SecurityLevel } from './suite.ts';

export interface SuiteAdvice {
  readonly weakness: string;
  readonly severity: 0 | 1 | 2;
  readonly advice: string;
  readonly reference: string;
}

export interface CipherValidation {
  /** The IANA name of the suite, or the text as entered when it is unknown. */
  readonly cipher: string;
  readonly known: boolean;
  readonly level: SecurityLevel | 'UNKNOWN';
  /** HIGH level: no weakness beyond informational ones. */
  readonly isSecure: boolean;
  /** INSECURE level: a suite to remove at once. */
  readonly isInsecure: boolean;
  readonly supportsPFS: boolean;
  /** The protocol versions it can be used in, e.g. `TLS 1.2` or `SSL 3.0 – TLS 1.2`; `UNKNOWN` for an unknown suite. */
  readonly tlsVersion: string;
  readonly recommendations: readonly string[];
  /** Each weakness with what to do about it. */
  readonly advice: readonly SuiteAdvice[];
  readonly suite: CipherSuite | null;
}

/** `TLS 1.2`, or the range `SSL 3.0 – TLS 1.2`. */
export function versionRange(versions: readonly ProtocolVersionName[]): string {
  const first = versions[0];
  const last = versions.at(-1);
  if (first === undefined || last === undefined) return 'none';
  return first === last ? protocolLabel(first) : `${protocolLabel(first)} – ${protocolLabel(last)}`;
}

/** What to do about each weakness ciphersuite.info names (its 00_vulnerabilities.yaml). */
const weaknessAdvice: Record<string, { advice: string; reference: string }> = {
  'Anonymous key exchange': {
    advice:
      'Remove it: without authentication anyone in the path can impersonate the server (OpenSSL: !aNULL).',
    reference: 'RFC 9325 §4.1',
  },
  'NULL Authentication': {
    advice: 'Remove it: the server is not authenticated.',
    reference: 'RFC 9325 §4.1',
  },
  'NULL Encryption': {
    advice: 'Remove it: traffic is sent in clear text (OpenSSL: !eNULL).',
    reference: 'RFC 9325 §4.1',
  },
  'NULL Integrity': {
    advice: 'Remove it: records are not protected against tampering.',
    reference: 'RFC 9325 §4.1',
  },
  'Export-grade cipher suite': {
    advice: 'Remove it: 40/56-bit keys and 512-bit key exchange are broken in hours (FREAK, Logjam).',
    reference: 'RFC 9325 §4.1; CVE-2015-0204',
  },
  'Data Encryption Standard': {
    advice: 'Remove it: a 56-bit DES key is found by brute force.',
    reference: 'RFC 9325 §4.1; RFC 5469',
  },
  'Rivest Cipher 2': {
    advice: 'Remove it: RC2 is obsolete and only used in export suites.',
    reference: 'RFC 9325 §4.1',
  },
  'Rivest Cipher 4': {
    advice: 'Remove it: TLS must not use RC4 (OpenSSL: !RC4).',
    reference: 'RFC 7465 §2',
  },
  'Message Digest 5': {
    advice: 'Remove it: MD5 is broken; use a suite with SHA-256 or an AEAD cipher.',
    reference: 'RFC 6151; RFC 9325 §4.1',
  },
  GOST: {
    advice: 'Use only where Russian national standards require it; it has had little public analysis.',
    reference: 'RFC 9189',
  },
  'ShangMi 3 Hash': {
    advice: 'Use only where Chinese national standards require it.',
    reference: 'RFC 8998',
  },
  'ShangMi 4 Encryption': {
    advice: 'Use only where Chinese national standards require it.',
    reference: 'RFC 8998',
  },
  'Triple-DES': {
    advice:
      'Phase it out: its 64-bit blocks leak plaintext in long sessions (SWEET32); keep it for TLS 1.0 clients at most.',
    reference: 'RFC 9325 §4.1; CVE-2016-2183',
  },
  'Cipher Block Chaining': {
    advice:
      'Prefer an AEAD suite (AES-GCM, ChaCha20-Poly1305): CBC with MAC-then-encrypt invites padding-oracle attacks (Lucky 13).',
    reference: 'RFC 9325 §4.2; RFC 7457 §2.8',
  },
  'Secure Hash Algorithm 1': {
    advice: 'Prefer a suite with SHA-256 or an AEAD cipher; SHA-1 HMAC is still unbroken but deprecated.',
    reference: 'RFC 9325 §4.2',
  },
  'Non-ephemeral Key Exchange': {
    advice:
      'Prefer ECDHE: with static key exchange a stolen server key decrypts every recorded session (no forward secrecy).',
    reference: 'RFC 9325 §4.1',
  },
  'DHEat Attack': {
    advice:
      'Prefer ECDHE: finite-field DHE lets clients make the server do costly exponentiations (DHEat); if kept, use ffdhe2048 or larger.',
    reference: 'RFC 7919; CVE-2002-20001',
  },
  'Raccoon Attack': {
    advice:
      'Informational: a timing side channel in (non-ephemeral) DH; prefer ECDHE and never reuse DH secrets.',
    reference: 'CVE-2020-1968',
  },
  'RSA Authentication': {
    advice: 'Informational: RSA certificates are fine; ECDSA keys are smaller and faster.',
    reference: 'RFC 8446 §4.2.3',
  },
};

function recommendationsOf(suite: CipherSuite, advice: readonly SuiteAdvice[]): string[] {
  const recommendations: string[] = [];
  if (suite.security === 'INSECURE') recommendations.push('Disable this cipher suite: it is insecure.');
  else if (suite.security === 'LOW')
    recommendations.push(
      'Disable this cipher suite unless old clients still need it; prefer an ECDHE AEAD suite.',
    );
  else if (suite.security === 'MEDIUM')
    recommendations.push('Acceptable for compatibility; list ECDHE AEAD suites and TLS 1.3 before it.');
  else recommendations.push('A strong suite: keep it.');
  if (suite.versions.length > 0 && !suite.versions.includes('TLSv1.3') && !suite.versions.includes('TLSv1.2'))
    recommendations.push('Only usable before TLS 1.2: enable TLS 1.2 and TLS 1.3 (RFC 8996).');
  if (suite.mozilla.length > 0)
    recommendations.push(
      `Listed in Mozilla’s ${suite.mozilla.join(', ')} profile${suite.mozilla.length > 1 ? 's' : ''}.`,
    );
  if (suite.ianaRecommended)
    recommendations.push('Marked Recommended in the IANA TLS registry (RFC 8447 §8).');
  for (const item of advice) if (item.severity > 0) recommendations.push(item.advice);
  return recommendations;
}

/** Validates a suite named by IANA, OpenSSL or GnuTLS name, or by hex (`0xC0,0x2F`, `c02f`). */
export function validateCipherSuite(text: string): CipherValidation {
  const suite = findSuite(text);
  if (!suite) {
    return {
      cipher: text.trim(),
      known: false,
      level: 'UNKNOWN',
      isSecure: false,
      isInsecure: false,
      supportsPFS: false,
      tlsVersion: 'UNKNOWN',
      recommendations: [
        'Not an IANA-registered TLS cipher suite: check the spelling, or give its two-byte code (e.g. 0xC0,0x2F).',
      ],
      advice: [],
      suite: null,
    };
  }
  const advice = suite.weaknesses.map(({ name, severity }) => ({
    weakness: name,
    severity,
    ...(weaknessAdvice[name] ?? { advice: name, reference: '' }),
  }));
  return {
    cipher: suite.iana,
    known: true,
    level: suite.security,
    isSecure: suite.security === 'HIGH',
    isInsecure: suite.security === 'INSECURE',
    supportsPFS: suite.pfs,
    tlsVersion: versionRange(suite.versions),
    recommendations: recommendationsOf(suite, advice),
    advice,
    suite,
  };
}
