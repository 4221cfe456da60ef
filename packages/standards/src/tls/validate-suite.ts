// The cipher validator: a suite named in any scheme (IANA, OpenSSL, GnuTLS) or by its code point,
// with its properties from the database and advice for each weakness it carries.
import { TLS_EMPTY_RENEGOTIATION_INFO_SCSV, TLS_FALLBACK_SCSV, ssl2CipherKinds } from './constants.ts';
import { protocolLabel } from './grade.ts';
import { findSuite, formatSuiteHex, parseSsl2KindHex, parseSuiteHex } from './lookup.ts';
import type { CipherSuite, ProtocolVersionName, SecurityLevel } from './suite.ts';

export interface SuiteAdvice {
  readonly weakness: string;
  readonly severity: 0 | 1 | 2;
  readonly advice: string;
  readonly reference: string;
}

/**
 * What the text names: a cipher suite of the IANA registry, a signalling value the registry lists
 * beside them (an SCSV, never chosen by a server), an SSL 2.0 CIPHER-KIND, or nothing known.
 */
export type CipherValueKind = 'suite' | 'signalling' | 'ssl2' | 'unknown';

export interface CipherValidation {
  /** The IANA name of the suite or signalling value, the SSL 2.0 kind's name, or the text as entered when it is unknown. */
  readonly cipher: string;
  readonly known: boolean;
  readonly kind: CipherValueKind;
  /** N/A for a signalling value: it selects no cipher, so it has no security level. */
  readonly level: SecurityLevel | 'N/A' | 'UNKNOWN';
  /** The code point as IANA prints it (`0xC0,0x2F`), three bytes for an SSL 2.0 kind; null when unknown. */
  readonly code: string | null;
  /** What a signalling value or SSL 2.0 kind is, in a sentence; null for a cipher suite. */
  readonly description: string | null;
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

interface SignallingValue {
  readonly name: string;
  readonly code: number;
  readonly description: string;
  readonly recommendation: string;
}

// listed in the IANA cipher suite registry, but only ever sent by clients (RFC 5746 §3.3, RFC 7507 §2)
const signallingValues: readonly SignallingValue[] = [
  {
    name: 'TLS_EMPTY_RENEGOTIATION_INFO_SCSV',
    code: TLS_EMPTY_RENEGOTIATION_INFO_SCSV,
    description:
      'A signalling value, not a cipher suite: a client lists it in its ClientHello, in place of an empty renegotiation_info extension, to say it supports secure renegotiation (RFC 5746 §3.3). It selects no key exchange or cipher, and a server never chooses it.',
    recommendation:
      'Nothing to put in a cipher list: TLS libraries send and read it on their own. What matters is that the server supports secure renegotiation (RFC 5746); the Tester checks that.',
  },
  {
    name: 'TLS_FALLBACK_SCSV',
    code: TLS_FALLBACK_SCSV,
    description:
      'A signalling value, not a cipher suite: a client lists it in its ClientHello when it retries with a lower protocol version than it supports, and a server that supports a higher version then refuses with the inappropriate_fallback alert, which stops downgrade attacks such as POODLE (RFC 7507 §3). It selects no key exchange or cipher, and a server never chooses it.',
    recommendation:
      'Nothing to put in a cipher list: TLS libraries send and read it on their own. What matters is that the server honours it (RFC 7507 §3); the Tester checks that.',
  },
];

function signallingValue(text: string): SignallingValue | undefined {
  const name = text.trim().toUpperCase();
  const code = parseSuiteHex(text);
  return signallingValues.find((value) => value.name === name || value.code === code);
}

type Ssl2KindName = keyof typeof ssl2CipherKinds;

function ssl2Kind(text: string): { name: Ssl2KindName; code: number } | undefined {
  const name = text.trim().toUpperCase();
  const code = parseSsl2KindHex(text);
  const found = Object.entries(ssl2CipherKinds).find(([kind, value]) => kind === name || value === code);
  return found ? { name: found[0] as Ssl2KindName, code: found[1] } : undefined;
}

/** `0x01,0x00,0x80`: a three-byte SSL 2.0 CIPHER-KIND as its bytes. */
function formatSsl2KindHex(code: number): string {
  return [code >> 16, (code >> 8) & 0xff, code & 0xff]
    .map((byte) => `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`)
    .join(',');
}

const ssl2Recommendations = [
  'Disable SSL 2.0 on every server that shares this certificate: TLS clients and servers must never negotiate it (RFC 6176 §3), and a server that still accepts it exposes its RSA key to DROWN (CVE-2016-0800).',
  'In OpenSSL-based servers, SSL 2.0 is gone since OpenSSL 1.1.0; elsewhere turn it off in the protocol list (e.g. nginx ssl_protocols TLSv1.2 TLSv1.3).',
];

function describeSsl2Kind(name: Ssl2KindName): string {
  const export40 = name.includes('EXPORT40');
  return `An SSL 2.0 cipher kind (draft-ietf-tls-ssl-version2 Appendix C), not a TLS cipher suite: it is offered only in SSL 2.0 handshakes, with RSA key exchange${export40 ? ' and only 40 secret key bits (export grade)' : ''} and an MD5 MAC. SSL 2.0 itself is broken, so every kind is insecure (RFC 6176).`;
}

/**
 * Validates a suite named by IANA, OpenSSL or GnuTLS name, or by hex (`0xC0,0x2F`, `{0xC0,0x2F}`,
 * `c02f`); recognises the two signalling values of the registry and SSL 2.0 cipher kinds.
 */
export function validateCipherSuite(text: string): CipherValidation {
  const signal = signallingValue(text);
  if (signal) {
    return {
      cipher: signal.name,
      known: true,
      kind: 'signalling',
      level: 'N/A',
      code: formatSuiteHex(signal.code),
      description: signal.description,
      isSecure: false,
      isInsecure: false,
      supportsPFS: false,
      tlsVersion: 'N/A',
      recommendations: [signal.recommendation],
      advice: [],
      suite: null,
    };
  }
  const kind = ssl2Kind(text);
  if (kind) {
    return {
      cipher: kind.name,
      known: true,
      kind: 'ssl2',
      level: 'INSECURE',
      code: formatSsl2KindHex(kind.code),
      description: describeSsl2Kind(kind.name),
      isSecure: false,
      isInsecure: true,
      supportsPFS: false,
      tlsVersion: 'SSL 2.0',
      recommendations: ssl2Recommendations,
      advice: [],
      suite: null,
    };
  }
  const suite = findSuite(text);
  if (!suite) {
    return {
      cipher: text.trim(),
      known: false,
      kind: 'unknown',
      level: 'UNKNOWN',
      code: null,
      description: null,
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
    kind: 'suite',
    level: suite.security,
    code: suite.hex,
    description: null,
    isSecure: suite.security === 'HIGH',
    isInsecure: suite.security === 'INSECURE',
    supportsPFS: suite.pfs,
    tlsVersion: versionRange(suite.versions),
    recommendations: recommendationsOf(suite, advice),
    advice,
    suite,
  };
}
