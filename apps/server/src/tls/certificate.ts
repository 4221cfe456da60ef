// The certificate part of a scan: from Node's handshake (chain verified against the trust
// store), or, when Node cannot talk to the server at all, from a probe's Certificate message.
import { X509Certificate } from 'node:crypto';
import {
  type CertificateScan,
  type CertificateSummary,
  type ServerKeyType,
  type VersionScan,
  certificateKeyType,
  suiteByCode,
} from '@rfckit/standards';
import { certificateInfo, type HandshakeRestriction, type TlsReport } from '../net/http.ts';

// 1.3.6.1.4.1.11129.2.4.2, the embedded SCT list extension (RFC 6962 §3.3)
const SCT_LIST_OID = Uint8Array.from([
  0x06, 0x0a, 0x2b, 0x06, 0x01, 0x04, 0x01, 0xd6, 0x79, 0x02, 0x04, 0x02,
]);

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** Reads a DER length at `offset`: [value, bytes taken], or undefined. */
function derLength(bytes: Uint8Array, offset: number): [number, number] | undefined {
  const first = bytes[offset];
  if (first === undefined) return undefined;
  if (first < 0x80) return [first, 1];
  const count = first & 0x7f;
  if (count === 0 || count > 3) return undefined;
  let value = 0;
  for (let i = 1; i <= count; i++) {
    const byte = bytes[offset + i];
    if (byte === undefined) return undefined;
    value = value * 256 + byte;
  }
  return [value, 1 + count];
}

/**
 * The number of SCTs embedded in a certificate: the extension's OCTET STRING wraps another
 * OCTET STRING holding SignedCertificateTimestampList, `opaque SerializedSCT<1..2^16-1>` entries
 * in a 2-byte-length list (RFC 6962 §3.3).
 */
export function sctCount(der: Uint8Array): number {
  let at = indexOf(der, SCT_LIST_OID);
  if (at < 0) return 0;
  at += SCT_LIST_OID.length;
  if (der[at] === 0x01) at += 3; // critical BOOLEAN
  for (let wrapper = 0; wrapper < 2; wrapper++) {
    if (der[at] !== 0x04) return 0;
    const length = derLength(der, at + 1);
    if (length === undefined) return 0;
    at += 1 + length[1];
  }
  const listLength = ((der[at] ?? 0) << 8) | (der[at + 1] ?? 0);
  let offset = at + 2;
  const end = offset + listLength;
  let count = 0;
  while (offset + 2 <= end && offset + 2 <= der.length) {
    const entry = ((der[offset] ?? 0) << 8) | (der[offset + 1] ?? 0);
    if (entry === 0) break;
    offset += 2 + entry;
    count++;
  }
  return count;
}

export function summarise(der: Uint8Array): CertificateSummary {
  const info = certificateInfo(Buffer.from(der));
  const { publicKey } = info;
  const signatureAlgorithm = new X509Certificate(der).signatureAlgorithm;
  return {
    subject: info.subject,
    issuer: info.issuer,
    subjectAltNames: info.subjectAltNames,
    validFrom: info.validFrom,
    validTo: info.validTo,
    serialNumber: info.serialNumber,
    fingerprint256: info.fingerprint256,
    selfSigned: info.selfSigned,
    ...(publicKey.type === undefined ? {} : { keyType: publicKey.type }),
    ...(publicKey.bits === undefined ? {} : { keyBits: publicKey.bits }),
    ...(publicKey.curve === undefined ? {} : { curve: publicKey.curve }),
    ...(signatureAlgorithm === undefined ? {} : { signatureAlgorithm }),
    sctCount: sctCount(der),
    pem: info.pem,
  };
}

function validity(
  chain: readonly CertificateSummary[],
  now: Date,
): { expired: boolean; notYetValid: boolean } {
  const leaf = chain[0];
  return {
    expired: leaf !== undefined && new Date(leaf.validTo) < now,
    notYetValid: leaf !== undefined && new Date(leaf.validFrom) > now,
  };
}

/** From Node's handshake: the verification result is Node's (OpenSSL's chain building, RFC 6125 names). */
export function certificateFromHandshake(report: TlsReport, now = new Date()): CertificateScan {
  const chain = report.certificates.map((certificate) => summarise(new X509Certificate(certificate.pem).raw));
  // OpenSSL checks validity dates only once the chain reached a trust anchor, and Node matches the
  // name after that: an expired or misnamed certificate is still trusted, and graded on that fact
  const problem = report.verificationError?.problem;
  const trusted = report.verified || problem === 'wrong-name' || problem === 'expired';
  return {
    chain,
    trusted,
    nameMatches: report.hostnameMatches,
    ...validity(chain, now),
    ...(report.verificationError === undefined
      ? {}
      : { problem: { code: report.verificationError.code, message: report.verificationError.message } }),
    source: 'handshake',
  };
}

/** A chain's standing against the trust anchors, with OpenSSL's verify code when it fails. */
export interface ChainVerification {
  trusted: boolean;
  problem?: { code: string; message: string };
}

/** Chains longer than this are not walked further (OpenSSL's default verify depth is 100; real ones are 2-4). */
const MAX_CHAIN_DEPTH = 10;

const issuedBy = (subject: X509Certificate, issuer: X509Certificate) =>
  subject.checkIssued(issuer) && subject.verify(issuer.publicKey);

/** The path's standing, and the certificate whose issuer was not found when that is why it failed. */
interface PathResult extends ChainVerification {
  missingIssuerOf?: X509Certificate;
}

function buildPath(sent: readonly X509Certificate[], anchors: readonly X509Certificate[]): PathResult {
  const isAnchor = (certificate: X509Certificate) =>
    anchors.some((anchor) => anchor.fingerprint256 === certificate.fingerprint256);
  let current = sent[0];
  if (current === undefined)
    return { trusted: false, problem: { code: 'NO_CERTIFICATE', message: 'no certificate was sent' } };
  for (let depth = 0; depth < MAX_CHAIN_DEPTH; depth++) {
    const subject: X509Certificate = current;
    if (isAnchor(subject) || anchors.some((anchor) => issuedBy(subject, anchor))) return { trusted: true };
    // OpenSSL's self-signed test: own name and signature, key usage aside
    if (subject.subject === subject.issuer && subject.verify(subject.publicKey))
      return {
        trusted: false,
        problem:
          depth === 0
            ? { code: 'DEPTH_ZERO_SELF_SIGNED_CERT', message: 'self-signed certificate' }
            : { code: 'SELF_SIGNED_CERT_IN_CHAIN', message: 'self-signed certificate in certificate chain' },
      };
    const issuer = sent.find((candidate) => candidate !== subject && issuedBy(subject, candidate));
    // only a CA may sign certificates (RFC 5280 §4.2.1.9), whatever its key usage says; a TLS
    // client's OpenSSL, checking the chain for a server, names it a wrong purpose
    if (issuer !== undefined && !issuer.ca)
      return {
        trusted: false,
        problem: { code: 'INVALID_PURPOSE', message: 'unsupported certificate purpose' },
      };
    if (issuer === undefined)
      return {
        trusted: false,
        missingIssuerOf: subject,
        problem:
          depth === 0
            ? { code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', message: 'unable to verify the first certificate' }
            : {
                code: 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
                message: 'unable to get local issuer certificate',
              },
      };
    current = issuer;
  }
  return {
    trusted: false,
    problem: { code: 'CERT_CHAIN_TOO_LONG', message: `certificate chain longer than ${MAX_CHAIN_DEPTH}` },
  };
}

/**
 * Builds the path from the leaf through the certificates the server sent to a trust anchor, as
 * a TLS client does (RFC 5280 §6, names and signatures; validity dates are judged apart), for a
 * chain read from a probe when Node's own handshake could not be completed. Failures carry the
 * verify codes OpenSSL gives for the same chain, so the grade reads both sources alike.
 */
export function verifyChain(
  certificates: readonly Uint8Array[],
  anchorsPem: readonly string[],
): ChainVerification {
  const { trusted, problem } = buildPath(
    certificates.map((der) => new X509Certificate(der)),
    anchorsPem.map((pem) => new X509Certificate(pem)),
  );
  return problem === undefined ? { trusted } : { trusted, problem };
}

/** Verify codes that mean the path stopped at a certificate whose issuer was not at hand. */
export const MISSING_ISSUER_CODES: ReadonlySet<string> = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
]);

/** The caIssuers address of a certificate's Authority Information Access (RFC 5280 §4.2.2.1). */
export function caIssuersUrl(certificate: X509Certificate): string | undefined {
  return /CA Issuers - URI:(\S+)/.exec(certificate.infoAccess ?? '')?.[1];
}

/** A certificate fetched by URL, or why there is none, in plain words. */
export type IssuerFetcher = (url: string) => Promise<{ certificate: Uint8Array } | { failure: string }>;

/** Issuers fetched for one chain at most: real chains have one or two intermediates. */
const MAX_ISSUER_FETCHES = 3;

/**
 * Completes a chain the server sent without its intermediates, as SSL Labs and browsers do: each
 * missing issuer is fetched from the caIssuers address of the certificate it issued. A chain that
 * then reaches a trust anchor is trusted but incomplete (INCOMPLETE_CHAIN): clients that do not
 * fetch (most non-browser TLS stacks) still fail it, since the server must send every certificate
 * but the root (RFC 8446 §4.4.2, RFC 5246 §7.4.2).
 */
export async function completeChain(
  scan: CertificateScan,
  anchorsPem: readonly string[],
  fetchIssuer: IssuerFetcher,
): Promise<{ scan: CertificateScan; notes: string[] }> {
  const notes: string[] = [];
  if (scan.trusted || !MISSING_ISSUER_CODES.has(scan.problem?.code ?? '')) return { scan, notes };
  const anchors = anchorsPem.map((pem) => new X509Certificate(pem));
  const certificates = scan.chain.map((summary) => new X509Certificate(summary.pem));
  const fetched: { subject: string; url: string }[] = [];
  for (let round = 0; round < MAX_ISSUER_FETCHES; round++) {
    const path = buildPath(certificates, anchors);
    if (path.trusted) {
      const missing = fetched.map((issuer) => `${issuer.subject} (fetched from ${issuer.url})`).join(', ');
      return {
        scan: {
          ...scan,
          trusted: true,
          problem: {
            code: 'INCOMPLETE_CHAIN',
            message: `the server does not send its intermediate certificate ${missing}: clients that do not fetch it cannot build the chain`,
          },
        },
        notes,
      };
    }
    const url = path.missingIssuerOf === undefined ? undefined : caIssuersUrl(path.missingIssuerOf);
    if (url === undefined) break;
    const answer = await fetchIssuer(url);
    if ('failure' in answer) {
      notes.push(`Fetching the missing intermediate certificate: ${answer.failure}`);
      break;
    }
    const issuer = new X509Certificate(answer.certificate);
    if (certificates.some((known) => known.fingerprint256 === issuer.fingerprint256)) break;
    certificates.push(issuer);
    fetched.push({ subject: issuer.subject.replaceAll('\n', ', '), url });
  }
  return { scan, notes };
}

/** A certificate from a caIssuers answer: DER (RFC 5280 §4.2.2.1) or PEM, as CAs serve them. */
export function issuerCertificateOf(body: Uint8Array): Uint8Array | undefined {
  try {
    const text = Buffer.from(body.subarray(0, 64)).toString('latin1');
    const certificate = text.includes('-----BEGIN CERTIFICATE-----')
      ? new X509Certificate(Buffer.from(body).toString('latin1'))
      : new X509Certificate(body);
    return new Uint8Array(certificate.raw);
  } catch {
    return undefined;
  }
}

/**
 * From a probe's Certificate message, when Node could not finish a handshake (SSL 3.0-only or
 * export-only servers, or a server that stops after its hello): the chain is verified here
 * against the same trust anchors, and the name checked per RFC 6125.
 */
export function certificateFromProbe(
  certificates: readonly Uint8Array[],
  host: string,
  anchorsPem: readonly string[],
  now = new Date(),
): CertificateScan {
  const chain = certificates.map((der) => summarise(der));
  const leaf = certificates[0] === undefined ? undefined : new X509Certificate(certificates[0]);
  const nameMatches =
    leaf !== undefined &&
    (leaf.checkHost(host, { subject: 'default' }) !== undefined || leaf.checkIP(host) !== undefined);
  const verification = verifyChain(certificates, anchorsPem);
  return {
    chain,
    trusted: verification.trusted,
    nameMatches,
    ...validity(chain, now),
    ...(verification.problem === undefined ? {} : { problem: verification.problem }),
    source: 'probe',
  };
}

/** The key type of a scanned certificate's leaf. */
export function keyTypeOf(certificate: CertificateScan): ServerKeyType | undefined {
  const leaf = certificate.chain[0];
  return leaf === undefined ? undefined : certificateKeyType(leaf);
}

/** The key type of a DER leaf certificate a server sent; undefined when it does not parse. */
export function keyTypeOfDer(der: Uint8Array): ServerKeyType | undefined {
  try {
    const keyType = new X509Certificate(der).publicKey.asymmetricKeyType;
    return keyType === undefined ? undefined : certificateKeyType({ keyType });
  } catch {
    return undefined;
  }
}

/** The certificate key a suite of TLS 1.2 and below is authenticated with (RFC 5246 §7.4.2, RFC 8422 §2). */
const suiteKeyTypes: Readonly<Record<string, ServerKeyType>> = { RSA: 'RSA', ECDSA: 'ECDSA', DSS: 'DSA' };

/** OpenSSL's cipher strings that offer only the suites authenticated with one key type. */
const legacyCipherStrings: Readonly<Record<ServerKeyType, string | undefined>> = {
  RSA: 'aRSA',
  ECDSA: 'aECDSA',
  DSA: 'aDSS',
  EdDSA: undefined,
};

/**
 * TLS 1.3 suites do not name the certificate's key: a client gets the certificate whose key can
 * sign with a scheme it offers (RFC 8446 §4.2.3, §4.4.2.2), so these ask for one key type.
 */
const tls13Sigalgs: Readonly<Record<ServerKeyType, string | undefined>> = {
  RSA: 'rsa_pss_rsae_sha256:rsa_pss_rsae_sha384:rsa_pss_rsae_sha512:rsa_pss_pss_sha256:rsa_pss_pss_sha384:rsa_pss_pss_sha512',
  ECDSA: 'ecdsa_secp256r1_sha256:ecdsa_secp384r1_sha384:ecdsa_secp521r1_sha512',
  EdDSA: 'ed25519:ed448',
  DSA: undefined,
};

function tls13SchemeKeyType(scheme: string): ServerKeyType | undefined {
  if (scheme.startsWith('ecdsa_')) return 'ECDSA';
  if (scheme.startsWith('rsa_')) return 'RSA';
  if (scheme === 'ed25519' || scheme === 'ed448') return 'EdDSA';
  return undefined;
}

/**
 * The key types of the certificates a server serves, as its accepted suites (TLS 1.2 and below)
 * and the TLS 1.3 signature schemes it accepts show, each with the handshake that asks for the
 * certificate of that type: a server with RSA and ECDSA certificates gives a client one or the
 * other by what the client offers, as testssl.sh and SSL Labs show both.
 */
export function certificateRequests(
  versions: readonly VersionScan[],
  tls13Schemes: readonly string[] | undefined,
): Map<ServerKeyType, HandshakeRestriction> {
  const requests = new Map<ServerKeyType, HandshakeRestriction>();
  for (const version of versions) {
    if (!version.supported || version.version === 'SSLv2' || version.version === 'TLSv1.3') continue;
    for (const suite of version.suites) {
      const type = suiteKeyTypes[suiteByCode(suite.code)?.authentication ?? ''];
      const ciphers = type === undefined ? undefined : legacyCipherStrings[type];
      if (type !== undefined && ciphers !== undefined && !requests.has(type))
        requests.set(type, { ciphers, maxVersion: 'TLSv1.2' });
    }
  }
  for (const scheme of tls13Schemes ?? []) {
    const type = tls13SchemeKeyType(scheme);
    const sigalgs = type === undefined ? undefined : tls13Sigalgs[type];
    if (type !== undefined && sigalgs !== undefined && !requests.has(type))
      requests.set(type, { sigalgs, minVersion: 'TLSv1.3' });
  }
  return requests;
}
