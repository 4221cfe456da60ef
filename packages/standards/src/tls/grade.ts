// The grade of a server's TLS configuration, after Qualys SSL Labs' SSL Server Rating Guide
// (numerical score of protocol support, key exchange and cipher strength, then the caps its later
// revisions added), and the Mozilla Server Side TLS profile the server meets.
import { suiteByCode } from './lookup.ts';
import { mozillaGuidelines } from './mozilla-guidelines.ts';
import type { CipherSuite, MozillaProfile, ProtocolVersionName } from './suite.ts';

/** A protocol version as the grade sees it: the TLS versions and SSL 2.0 (RFC 6176). */
export type GradedProtocol = 'SSLv2' | ProtocolVersionName;

export type ServerKeyType = 'RSA' | 'ECDSA' | 'EdDSA' | 'DSA';

/** One certificate the server serves, as far as the grade needs it. */
export interface GradedCertificate {
  /** The certificate's public key. */
  readonly key: { readonly type: ServerKeyType; readonly bits: number };
  /** The chain leads to a trusted root. */
  readonly trusted: boolean;
  readonly expired: boolean;
  readonly selfSigned: boolean;
  /** The host name matches the certificate (RFC 6125). */
  readonly nameMatches: boolean;
  /** The server sends every intermediate certificate needed to reach the root. */
  readonly chainComplete: boolean;
  /** The leaf's signature algorithm in OpenSSL's names: `sha256WithRSAEncryption`, `ecdsa-with-SHA256`. */
  readonly signatureAlgorithm: string;
}

/** What a scan learnt about a server, as far as the grade needs it. */
export interface TlsGradeFacts {
  /** Every protocol version the server accepts. */
  readonly protocols: readonly GradedProtocol[];
  /** The suites the server accepts in each version, as code points (0xC02F). */
  readonly suites: Readonly<Partial<Record<ProtocolVersionName, readonly number[]>>>;
  /**
   * Every certificate the server serves (at least one): one per key type on a server with both
   * RSA and ECDSA certificates. The key exchange score reads the weakest key; the certificate caps
   * apply to each, as SSL Labs rates every certificate a client may get.
   */
  readonly certificates: readonly GradedCertificate[];
  /** The smallest finite-field DH prime the server used, in bits (DHE suites, ffdhe groups). */
  readonly dhBits?: number | undefined;
  /** The smallest elliptic-curve group the server used for ECDHE, in bits (X25519 = 255, P-256 = 256). */
  readonly ecdhBits?: number | undefined;
  readonly vulnerabilities: {
    /** CVE-2014-0160: the server answers a heartbeat with more than it was sent. */
    readonly heartbleed: boolean;
    /** CVE-2014-0224: the server accepts an early ChangeCipherSpec. */
    readonly ccsInjection: boolean;
    /** The server lacks secure renegotiation (RFC 5746) and allows renegotiation. */
    readonly insecureRenegotiation: boolean;
    /** TLS compression is on (CRIME, CVE-2012-4929). */
    readonly compression: boolean;
    /** The server honours TLS_FALLBACK_SCSV (RFC 7507). */
    readonly fallbackScsv: boolean;
  };
  /** The HSTS max-age in seconds the site sends over HTTPS (RFC 6797 §6.1.1); absent without HSTS. */
  readonly hstsMaxAge?: number | undefined;
  /**
   * Whether the HSTS header was read: `unread` when the site's HTTPS answer could not be fetched,
   * `not-applicable` for a STARTTLS service (HSTS is for HTTPS only, RFC 6797 §1). `read` when absent.
   */
  readonly hstsStatus?: HstsStatus | undefined;
}

export type HstsStatus = 'read' | 'unread' | 'not-applicable';

export type LetterGrade = 'A+' | 'A' | 'A-' | 'B' | 'C' | 'D' | 'E' | 'F';
/** T: the certificate is not trusted; M: its name does not match the host. */
export type TlsGradeLetter = LetterGrade | 'T' | 'M';

/** The spec's colour bands of a score (part 2 §9): at least 80 green, at least 60 yellow, else red. */
export type ScoreBand = 'green' | 'yellow' | 'red';

/** One rule of the rating guide that limited the grade, and the fact that triggered it. */
export interface GradeCap {
  readonly code: string;
  /** The best grade the rule allows; T and M replace the grade (the grade without them is kept). */
  readonly grade: 'F' | 'C' | 'B' | 'A-' | 'T' | 'M';
  readonly reason: string;
  /** What the scan saw. */
  readonly evidence: string;
  readonly fix: string;
  /** RFC section or CVE. */
  readonly reference: string;
}

export interface CategoryScore {
  readonly score: number;
  /** How the score came about: the guide's row that applied. */
  readonly basis: string;
}

export interface MozillaProfileCheck {
  readonly profile: MozillaProfile;
  readonly meets: boolean;
  /** What stops the server from meeting the profile; empty when it does. */
  readonly blockers: readonly string[];
}

export interface TlsGrade {
  readonly grade: TlsGradeLetter;
  /** The grade the configuration earns when the certificate's trust and name are left aside. */
  readonly gradeIgnoringTrust: LetterGrade;
  /** 0-100: 30 % protocol support, 30 % key exchange, 40 % cipher strength, rounded down. */
  readonly score: number;
  readonly scoreBand: ScoreBand;
  readonly categories: {
    readonly protocol: CategoryScore;
    readonly keyExchange: CategoryScore;
    readonly cipherStrength: CategoryScore;
  };
  /** Every rule that limited the grade, strictest first. */
  readonly caps: readonly GradeCap[];
  /** What A+ still needs; empty when the grade is A+. */
  readonly missingForAPlus: readonly string[];
  /** The strictest Mozilla profile the server meets, or null. */
  readonly mozillaProfile: MozillaProfile | null;
  readonly mozilla: readonly MozillaProfileCheck[];
  /** Accepted code points the suite database does not know (left out of the scores). */
  readonly unknownSuites: readonly number[];
}

/** HSTS max-age SSL Labs wants for A+: at least 180 days. */
export const A_PLUS_HSTS_MIN_AGE = 15_552_000;

const protocolOrder: readonly GradedProtocol[] = [
  'SSLv2',
  'SSLv3',
  'TLSv1.0',
  'TLSv1.1',
  'TLSv1.2',
  'TLSv1.3',
];

/** The guide's protocol support scores (TLS 1.3 scores as TLS 1.2, the guide's best). */
const protocolScores: Record<GradedProtocol, number> = {
  SSLv2: 0,
  SSLv3: 80,
  'TLSv1.0': 90,
  'TLSv1.1': 95,
  'TLSv1.2': 100,
  'TLSv1.3': 100,
};

const protocolLabels: Record<GradedProtocol, string> = {
  SSLv2: 'SSL 2.0',
  SSLv3: 'SSL 3.0',
  'TLSv1.0': 'TLS 1.0',
  'TLSv1.1': 'TLS 1.1',
  'TLSv1.2': 'TLS 1.2',
  'TLSv1.3': 'TLS 1.3',
};

export function protocolLabel(protocol: GradedProtocol): string {
  return protocolLabels[protocol];
}

/** The grade the guide gives a numerical score: A ≥ 80, B ≥ 65, C ≥ 50, D ≥ 35, E ≥ 20, else F. */
export function gradeOfScore(score: number): 'A' | 'B' | 'C' | 'D' | 'E' | 'F' {
  if (score >= 80) return 'A';
  if (score >= 65) return 'B';
  if (score >= 50) return 'C';
  if (score >= 35) return 'D';
  if (score >= 20) return 'E';
  return 'F';
}

export function scoreBandOf(score: number): ScoreBand {
  if (score >= 80) return 'green';
  if (score >= 60) return 'yellow';
  return 'red';
}

/**
 * The RSA modulus size of equal strength (NIST SP 800-57 Part 1 Rev. 5, Table 2), so that
 * elliptic-curve keys and groups are scored on the guide's RSA/DH scale.
 */
export function rsaEquivalentBits(type: 'RSA' | 'DSA' | 'DH' | 'EC', bits: number): number {
  if (type !== 'EC') return bits;
  if (bits >= 512) return 15360;
  if (bits >= 384) return 7680;
  if (bits >= 250) return 3072; // P-256, X25519 (255) and Ed25519 give 128-bit security
  if (bits >= 224) return 2048;
  if (bits >= 160) return 1024;
  return 512;
}

/** The guide's key exchange score of a key or DH parameter size (RSA-equivalent bits). */
export function keyExchangeScore(bits: number): number {
  if (bits < 512) return 20;
  if (bits < 1024) return 40;
  if (bits < 2048) return 80;
  if (bits < 4096) return 90;
  return 100;
}

/** The guide's cipher strength score of a bulk cipher key size. */
export function cipherStrengthScore(bits: number): number {
  if (bits === 0) return 0;
  if (bits < 128) return 20;
  if (bits < 256) return 80;
  return 100;
}

const letterOrder: readonly LetterGrade[] = ['A+', 'A', 'A-', 'B', 'C', 'D', 'E', 'F'];
const worse = (a: LetterGrade, b: LetterGrade) => (letterOrder.indexOf(a) >= letterOrder.indexOf(b) ? a : b);

// 64-bit block ciphers (SWEET32): DES, 3DES, IDEA, RC2 and GOST 28147-89 / Magma
const sixtyFourBitBlock = /^(3DES|DES|IDEA|RC2|MAGMA|28147)\b/;
const isRc4 = (suite: CipherSuite) => suite.cipher.startsWith('RC4');
const isAnonymous = (suite: CipherSuite) =>
  suite.authentication === 'anon' || suite.authentication === 'NULL';

interface Accepted {
  readonly version: ProtocolVersionName;
  readonly suite: CipherSuite;
}

function acceptedSuites(facts: TlsGradeFacts): { accepted: Accepted[]; unknown: number[] } {
  const accepted: Accepted[] = [];
  const unknown = new Set<number>();
  for (const [version, codes] of Object.entries(facts.suites) as [ProtocolVersionName, readonly number[]][]) {
    for (const code of codes) {
      const suite = suiteByCode(code);
      if (suite) accepted.push({ version, suite });
      else unknown.add(code);
    }
  }
  return { accepted, unknown: [...unknown].sort((a, b) => a - b) };
}

const namesOf = (entries: readonly Accepted[]) =>
  [...new Set(entries.map(({ suite }) => suite.iana))].join(', ');

function protocolCategory(protocols: readonly GradedProtocol[]): CategoryScore {
  const sorted = protocolOrder.filter((protocol) => protocols.includes(protocol));
  const best = sorted.at(-1);
  const worst = sorted[0];
  if (best === undefined || worst === undefined) return { score: 0, basis: 'No protocol version accepted' };
  const score = (protocolScores[best] + protocolScores[worst]) / 2;
  return {
    score,
    basis: `Best ${protocolLabels[best]} (${protocolScores[best]}) and worst ${protocolLabels[worst]} (${protocolScores[worst]}) averaged`,
  };
}

function keyExchangeCategory(facts: TlsGradeFacts, accepted: readonly Accepted[]): CategoryScore {
  if (accepted.some(({ suite }) => isAnonymous(suite)))
    return { score: 0, basis: 'Anonymous key exchange accepted (0)' };
  const sizes = keySizes(facts);
  const weakest = sizes.reduce((min, size) => (size.equivalent < min.equivalent ? size : min));
  if (accepted.some(({ suite }) => suite.export) && weakest.equivalent >= 1024)
    return { score: 40, basis: 'Export key exchange accepted, limited to 512 bits (40)' };
  const score = keyExchangeScore(weakest.equivalent);
  return { score, basis: `Weakest key exchange: ${weakest.label} (${score})` };
}

interface KeySize {
  readonly label: string;
  readonly equivalent: number;
}

function keySizes(facts: TlsGradeFacts): KeySize[] {
  const sizes: KeySize[] = facts.certificates.map(({ key: { type, bits } }) => {
    const keyKind = type === 'ECDSA' || type === 'EdDSA' ? 'EC' : type;
    return {
      label: `${type} ${bits}-bit server key${keyKind === 'EC' ? ` (≈ RSA ${rsaEquivalentBits('EC', bits)})` : ''}`,
      equivalent: rsaEquivalentBits(keyKind, bits),
    };
  });
  if (facts.dhBits !== undefined)
    sizes.push({ label: `${facts.dhBits}-bit DH group`, equivalent: facts.dhBits });
  if (facts.ecdhBits !== undefined)
    sizes.push({
      label: `${facts.ecdhBits}-bit ECDH group (≈ RSA ${rsaEquivalentBits('EC', facts.ecdhBits)})`,
      equivalent: rsaEquivalentBits('EC', facts.ecdhBits),
    });
  return sizes;
}

function cipherCategory(accepted: readonly Accepted[]): CategoryScore {
  if (accepted.length === 0) return { score: 0, basis: 'No cipher suite accepted' };
  const bits = accepted.map(({ suite }) => suite.keyBits);
  const strongest = Math.max(...bits);
  const weakest = Math.min(...bits);
  const score = (cipherStrengthScore(strongest) + cipherStrengthScore(weakest)) / 2;
  return {
    score,
    basis: `Strongest ${strongest}-bit (${cipherStrengthScore(strongest)}) and weakest ${weakest}-bit (${cipherStrengthScore(weakest)}) averaged`,
  };
}

/** The rules of the rating guide's revisions (2009-2020) that apply, strictest first. */
function capsOf(facts: TlsGradeFacts, accepted: readonly Accepted[]): GradeCap[] {
  const caps: GradeCap[] = [];
  const has = (protocol: GradedProtocol) => facts.protocols.includes(protocol);
  const best = protocolOrder.filter(has).at(-1);
  const cap = (entry: GradeCap) => caps.push(entry);
  const where = (test: (suite: CipherSuite) => boolean, versions?: readonly ProtocolVersionName[]) =>
    accepted.filter(
      ({ suite, version }) => test(suite) && (versions === undefined || versions.includes(version)),
    );

  // F
  if (has('SSLv2'))
    cap({
      code: 'SSLV2',
      grade: 'F',
      reason: 'SSL 2.0 is prohibited and lets attackers decrypt TLS sessions that share the key (DROWN)',
      evidence: 'The server accepts SSL 2.0',
      fix: 'Turn SSL 2.0 off (nginx: ssl_protocols TLSv1.2 TLSv1.3; Apache: SSLProtocol -all +TLSv1.2 +TLSv1.3)',
      reference: 'RFC 6176 §3; CVE-2016-0800',
    });
  if (best === 'SSLv3')
    cap({
      code: 'SSLV3_BEST',
      grade: 'F',
      reason: 'SSL 3.0 is the best protocol the server offers; SSL 3.0 is broken (POODLE)',
      evidence: 'No TLS version is accepted, SSL 3.0 is',
      fix: 'Enable TLS 1.2 and TLS 1.3 and turn SSL 3.0 off',
      reference: 'RFC 7568 §3; CVE-2014-3566',
    });
  for (const size of keySizes(facts).filter(({ equivalent }) => equivalent < 1024))
    cap({
      code: 'KEY_UNDER_1024',
      grade: 'F',
      reason: 'A key or DH group under 1024 bits can be broken (Logjam, factoring)',
      evidence: size.label,
      fix: 'Use an RSA key of 2048 bits or more (or ECDSA P-256) and DH groups of 2048 bits or more (RFC 7919 ffdhe2048)',
      reference: 'RFC 9325 §4.1; CVE-2015-4000',
    });
  for (const certificate of facts.certificates.filter(({ signatureAlgorithm }) =>
    /md5/i.test(signatureAlgorithm),
  ))
    cap({
      code: 'MD5_SIGNATURE',
      grade: 'F',
      reason: 'MD5 certificate signatures can be forged with chosen-prefix collisions',
      evidence: `${certificateName(facts, certificate)} signed with ${certificate.signatureAlgorithm}`,
      fix: 'Reissue the certificate with a SHA-256 signature',
      reference: 'RFC 6151 §2',
    });
  const exported = where((suite) => suite.export);
  if (exported.length > 0)
    cap({
      code: 'EXPORT_SUITES',
      grade: 'F',
      reason: 'Export suites use 40/56-bit keys and 512-bit key exchange (FREAK, Logjam)',
      evidence: namesOf(exported),
      fix: 'Remove the export suites (OpenSSL cipher string: add !EXPORT, or use Mozilla’s list)',
      reference: 'RFC 9325 §4.1; CVE-2015-0204',
    });
  const short = where((suite) => !suite.export && suite.keyBits < 112);
  if (short.length > 0)
    cap({
      code: 'WEAK_CIPHER',
      grade: 'F',
      reason: 'Suites with less than 112-bit encryption (DES, NULL) can be broken or do not encrypt at all',
      evidence: namesOf(short),
      fix: 'Remove NULL, DES and other suites under 112 bits (OpenSSL: !eNULL:!DES:!LOW)',
      reference: 'RFC 9325 §4.1',
    });
  const anonymous = where(isAnonymous);
  if (anonymous.length > 0)
    cap({
      code: 'ANONYMOUS_SUITES',
      grade: 'F',
      reason: 'Anonymous suites authenticate no server: anyone in the path can impersonate it',
      evidence: namesOf(anonymous),
      fix: 'Remove anonymous suites (OpenSSL: !aNULL)',
      reference: 'RFC 9325 §4.1',
    });
  if (facts.vulnerabilities.heartbleed)
    cap({
      code: 'HEARTBLEED',
      grade: 'F',
      reason: 'The server leaks memory (keys, passwords) through heartbeat answers',
      evidence: 'A heartbeat with an overlong payload length was answered',
      fix: 'Upgrade OpenSSL (1.0.1g or later), then replace the private key and revoke the certificate',
      reference: 'CVE-2014-0160; RFC 6520 §4',
    });
  if (facts.vulnerabilities.ccsInjection)
    cap({
      code: 'CCS_INJECTION',
      grade: 'F',
      reason:
        'An early ChangeCipherSpec makes the server switch to keys a man in the middle can compute, so the session can be read and altered',
      evidence: 'The server accepted ChangeCipherSpec before the key exchange',
      fix: 'Upgrade OpenSSL (0.9.8za, 1.0.0m, 1.0.1h or later)',
      reference: 'CVE-2014-0224; RFC 5246 §7.1',
    });
  if (facts.vulnerabilities.insecureRenegotiation)
    cap({
      code: 'INSECURE_RENEGOTIATION',
      grade: 'F',
      reason: 'Renegotiation without RFC 5746 lets an attacker prefix the client’s request with their own',
      evidence: 'The server renegotiates without the renegotiation_info extension',
      fix: 'Upgrade the TLS library so it supports secure renegotiation, or disable renegotiation',
      reference: 'RFC 5746 §1; CVE-2009-3555',
    });

  // C
  if (best !== undefined && !has('TLSv1.2') && !has('TLSv1.3'))
    cap({
      code: 'NO_TLS12',
      grade: 'C',
      reason: 'Without TLS 1.2 no AEAD suite and no SHA-2 handshake hash can be used',
      evidence: `Best protocol: ${protocolLabels[best]}`,
      fix: 'Enable TLS 1.2 and TLS 1.3',
      reference: 'RFC 9325 §3.1.1',
    });
  const modern: readonly ProtocolVersionName[] = ['TLSv1.1', 'TLSv1.2'];
  const sweet32 = where((suite) => sixtyFourBitBlock.test(suite.cipher), modern);
  if (sweet32.length > 0)
    cap({
      code: 'BLOCK64_MODERN',
      grade: 'C',
      reason: '64-bit block ciphers leak plaintext after about 32 GB in one session (SWEET32)',
      evidence: `With TLS 1.1+: ${namesOf(sweet32)}`,
      fix: 'Remove 3DES and other 64-bit block ciphers (OpenSSL: !3DES), at least for TLS 1.1 and newer',
      reference: 'RFC 9325 §4.1; CVE-2016-2183',
    });
  const rc4Modern = where(isRc4, modern);
  if (rc4Modern.length > 0)
    cap({
      code: 'RC4_MODERN',
      grade: 'C',
      reason: 'RC4 is prohibited; with TLS 1.1+ there is no BEAST excuse for it',
      evidence: `With TLS 1.1+: ${namesOf(rc4Modern)}`,
      fix: 'Remove every RC4 suite (OpenSSL: !RC4)',
      reference: 'RFC 7465 §2',
    });
  if (facts.vulnerabilities.compression)
    cap({
      code: 'COMPRESSION',
      grade: 'C',
      reason: 'TLS compression reveals secrets such as cookies through the compressed size (CRIME)',
      evidence: 'The server accepted DEFLATE compression',
      fix: 'Turn TLS compression off (OpenSSL: SSL_OP_NO_COMPRESSION; upgrade the server)',
      reference: 'RFC 9325 §3.3; CVE-2012-4929',
    });

  // B
  if (has('SSLv3') && best !== 'SSLv3')
    cap({
      code: 'SSLV3',
      grade: 'B',
      reason: 'SSL 3.0 is prohibited and broken (POODLE); downgraded clients can be forced onto it',
      evidence: 'The server accepts SSL 3.0 besides newer versions',
      fix: 'Turn SSL 3.0 off',
      reference: 'RFC 7568 §3',
    });
  const legacy = (['TLSv1.0', 'TLSv1.1'] as const).filter(has);
  if (legacy.length > 0)
    cap({
      code: 'TLS10_TLS11',
      grade: 'B',
      reason: 'TLS 1.0 and 1.1 are deprecated: SHA-1 handshake hashes and no AEAD suites',
      evidence: `The server accepts ${legacy.map((protocol) => protocolLabels[protocol]).join(' and ')}`,
      fix: 'Accept TLS 1.2 and TLS 1.3 only',
      reference: 'RFC 8996 §5',
    });
  for (const size of keySizes(facts).filter(({ equivalent }) => equivalent >= 1024 && equivalent < 2048))
    cap({
      code: 'KEY_UNDER_2048',
      grade: 'B',
      reason: 'Keys and DH groups under 2048 bits are below today’s minimum strength (112 bits)',
      evidence: size.label,
      fix: 'Use an RSA key of 2048 bits or more (or ECDSA P-256) and DH groups of 2048 bits or more',
      reference: 'RFC 9325 §4.1',
    });
  const rc4 = where(isRc4);
  if (rc4.length > 0 && rc4Modern.length === 0)
    cap({
      code: 'RC4',
      grade: 'B',
      reason: 'RC4 is prohibited: its biases let attackers recover plaintext',
      evidence: namesOf(rc4),
      fix: 'Remove every RC4 suite (OpenSSL: !RC4)',
      reference: 'RFC 7465 §2',
    });
  if (accepted.length > 0 && !accepted.some(({ suite }) => suite.pfs))
    cap({
      code: 'NO_FORWARD_SECRECY',
      grade: 'B',
      reason: 'Without forward secrecy, a stolen server key decrypts every recorded session',
      evidence: 'No accepted suite uses ephemeral (EC)DH',
      fix: 'Offer ECDHE suites first (Mozilla intermediate list)',
      reference: 'RFC 9325 §4.1',
    });
  if (accepted.length > 0 && !accepted.some(({ suite }) => suite.aead))
    cap({
      code: 'NO_AEAD',
      grade: 'B',
      reason:
        'Without AEAD suites every connection uses CBC with MAC-then-encrypt (Lucky 13, padding oracles)',
      evidence: 'No accepted suite uses GCM, CCM or ChaCha20-Poly1305',
      fix: 'Enable TLS 1.2 AEAD suites (ECDHE with AES-GCM or ChaCha20-Poly1305) and TLS 1.3',
      reference: 'RFC 9325 §4.2',
    });
  for (const certificate of facts.certificates.filter(({ chainComplete }) => !chainComplete))
    cap({
      code: 'INCOMPLETE_CHAIN',
      grade: 'B',
      reason: 'Clients that do not fetch missing intermediates fail to verify the server',
      evidence: `The server does not send every intermediate certificate of the ${certificateName(facts, certificate, false)}`,
      fix: 'Serve the full chain (leaf, then intermediates): nginx ssl_certificate fullchain.pem',
      reference: 'RFC 8446 §4.4.2; RFC 5246 §7.4.2',
    });

  // A-
  // a server with one version has nothing to fall back to
  if (facts.protocols.length > 1 && !facts.vulnerabilities.fallbackScsv)
    cap({
      code: 'NO_FALLBACK_SCSV',
      grade: 'A-',
      reason:
        'Without TLS_FALLBACK_SCSV a man in the middle can push clients that retry onto an older version',
      evidence: 'The server accepted a downgraded hello carrying TLS_FALLBACK_SCSV',
      fix: 'Upgrade the TLS library (OpenSSL 1.0.1j or later supports RFC 7507), or accept one version only',
      reference: 'RFC 7507 §3',
    });

  // T, M: any certificate a client may get
  for (const certificate of facts.certificates) {
    const name = certificateName(facts, certificate, false);
    const trust: [boolean, string, string][] = [
      [
        !certificate.trusted && !certificate.selfSigned,
        'UNTRUSTED',
        `The chain of the ${name} does not lead to a trusted root`,
      ],
      [certificate.expired, 'EXPIRED', `The ${name} has expired`],
      [certificate.selfSigned, 'SELF_SIGNED', `The ${name} is self-signed`],
    ];
    for (const [applies, code, evidence] of trust)
      if (applies)
        cap({
          code: `CERT_${code}`,
          grade: 'T',
          reason: 'Browsers reject the certificate, so no configuration grade protects visitors',
          evidence,
          fix: 'Install a certificate from a public CA (e.g. ACME / Let’s Encrypt) and renew it before it expires',
          reference: 'RFC 5280 §6',
        });
    if (!certificate.nameMatches)
      cap({
        code: 'CERT_NAME_MISMATCH',
        grade: 'M',
        reason: 'The certificate is not valid for this host name',
        evidence: `No subjectAltName of the ${name} matches the host`,
        fix: 'Get a certificate whose subjectAltName lists this host name',
        reference: 'RFC 6125 §6',
      });
  }
  return caps;
}

/** `certificate`, or `RSA certificate` when the server has several, so that evidence says which. */
function certificateName(facts: TlsGradeFacts, certificate: GradedCertificate, capital = true): string {
  const name = facts.certificates.length > 1 ? `${certificate.key.type} certificate` : 'certificate';
  return capital ? `${name[0]?.toUpperCase() ?? ''}${name.slice(1)}` : name;
}

const capRank: Record<GradeCap['grade'], number> = { F: 0, C: 1, B: 2, 'A-': 3, T: 4, M: 5 };

/** Grade a server the way SSL Labs' rating guide does. */
export function gradeTls(facts: TlsGradeFacts): TlsGrade {
  const { accepted, unknown } = acceptedSuites(facts);
  const protocol = protocolCategory(facts.protocols);
  const keyExchange = keyExchangeCategory(facts, accepted);
  const cipherStrength = cipherCategory(accepted);
  const raw = 0.3 * protocol.score + 0.3 * keyExchange.score + 0.4 * cipherStrength.score;
  // rounded down, so that a shown 80 is always an A and a shown 79 never is
  const score = Math.floor(raw + 1e-9);
  const caps = capsOf(facts, accepted).sort((a, b) => capRank[a.grade] - capRank[b.grade]);

  let letter: LetterGrade = gradeOfScore(score);
  for (const { grade } of caps) if (grade !== 'T' && grade !== 'M') letter = worse(letter, grade);

  const missingForAPlus: string[] = [];
  if (letter !== 'A') missingForAPlus.push(`Grade A without caps (now ${letter})`);
  // A+ is SSL Labs' mark for HTTPS with HSTS; a STARTTLS service has no HSTS to send (RFC 6797
  // §1), so A is its top grade, as testssl.sh rates it too
  const hstsStatus = facts.hstsStatus ?? 'read';
  if (hstsStatus === 'not-applicable')
    missingForAPlus.push(
      'A+ is for HTTPS sites with HSTS (RFC 6797): A is the top grade of a STARTTLS service',
    );
  else if (hstsStatus === 'unread')
    missingForAPlus.push('HSTS (Strict-Transport-Security) could not be read, so it cannot count');
  else if (hstsStatus === 'read' && facts.hstsMaxAge === undefined)
    missingForAPlus.push('HSTS (Strict-Transport-Security) is not sent');
  else if (hstsStatus === 'read' && facts.hstsMaxAge !== undefined && facts.hstsMaxAge < A_PLUS_HSTS_MIN_AGE)
    missingForAPlus.push(`HSTS max-age ${facts.hstsMaxAge} is under 180 days (${A_PLUS_HSTS_MIN_AGE})`);
  if (letter === 'A' && missingForAPlus.length === 0) letter = 'A+';

  const trustCap = caps.find(({ grade }) => grade === 'T') ?? caps.find(({ grade }) => grade === 'M');
  const mozilla = mozillaChecks(facts, accepted);
  return {
    grade: trustCap ? (trustCap.grade as 'T' | 'M') : letter,
    gradeIgnoringTrust: letter,
    score,
    scoreBand: scoreBandOf(score),
    categories: { protocol, keyExchange, cipherStrength },
    caps,
    missingForAPlus: letter === 'A+' ? [] : missingForAPlus,
    mozillaProfile: mozilla.find(({ meets }) => meets)?.profile ?? null,
    mozilla,
    unknownSuites: unknown,
  };
}

/** Which of Mozilla's profiles the server meets, and what stops it from meeting each. */
function mozillaChecks(facts: TlsGradeFacts, accepted: readonly Accepted[]): MozillaProfileCheck[] {
  return mozillaGuidelines.map((profile) => {
    const blockers: string[] = [];
    const name = profile.name;
    const extra = facts.protocols.filter(
      (protocol) => protocol === 'SSLv2' || !profile.tlsVersions.includes(protocol),
    );
    if (extra.length > 0)
      blockers.push(
        `Accepts ${extra.map((protocol) => protocolLabels[protocol]).join(', ')}; ${name} allows ${profile.tlsVersions.map((version) => protocolLabels[version]).join(', ')} only`,
      );
    if (!profile.tlsVersions.some((version) => facts.protocols.includes(version)))
      blockers.push(`None of ${name}'s versions is accepted`);
    const outside = new Set<string>();
    for (const { suite, version } of accepted) {
      const allowed = version === 'TLSv1.3' ? profile.tls13Ciphersuites : profile.ciphersIana;
      if (!allowed.includes(suite.iana)) outside.add(suite.openssl ?? suite.iana);
    }
    if (outside.size > 0) blockers.push(`Suites outside the ${name} list: ${[...outside].join(', ')}`);
    // a server with certificates of several types meets the profile with one it asks for; the
    // profile's key size and signature rules apply to that one (to all when none fits)
    const fitting = facts.certificates.filter(({ key }) =>
      profile.certificateTypes.includes(key.type.toLowerCase()),
    );
    if (fitting.length === 0)
      blockers.push(
        `${[...new Set(facts.certificates.map(({ key }) => key.type))].join(' and ')} certificate; ${name} asks for ${profile.certificateTypes.join(' or ').toUpperCase()}`,
      );
    const judged = fitting.length > 0 ? fitting : facts.certificates;
    for (const { key } of judged)
      if (key.type === 'RSA' && profile.rsaKeySize !== null && key.bits < profile.rsaKeySize)
        blockers.push(`RSA key of ${key.bits} bits; ${name} asks for ${profile.rsaKeySize}`);
    for (const { signatureAlgorithm } of judged)
      if (!profile.certificateSignatures.includes(signatureAlgorithm))
        blockers.push(
          `Certificate signature ${signatureAlgorithm}; ${name} accepts ${profile.certificateSignatures.join(', ')}`,
        );
    if (facts.dhBits !== undefined && profile.dhParamSize !== null && facts.dhBits < profile.dhParamSize)
      blockers.push(`DH group of ${facts.dhBits} bits; ${name} asks for ${profile.dhParamSize}`);
    if (
      facts.ecdhBits !== undefined &&
      profile.ecdhParamSize !== null &&
      rsaEquivalentBits('EC', facts.ecdhBits) < rsaEquivalentBits('EC', profile.ecdhParamSize)
    )
      blockers.push(`ECDH group of ${facts.ecdhBits} bits; ${name} asks for ${profile.ecdhParamSize}`);
    return { profile: name, meets: blockers.length === 0, blockers };
  });
}
