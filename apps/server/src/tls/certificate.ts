// The certificate part of a scan: from Node's handshake (chain verified against the trust
// store), or, when Node cannot talk to the server at all, from a probe's Certificate message.
import { X509Certificate } from 'node:crypto';
import type { CertificateScan, CertificateSummary } from '@rfckit/standards';
import { certificateInfo, type TlsReport } from '../net/http.ts';

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

/**
 * From a probe's Certificate message, when Node could not finish a handshake (SSL 3.0-only or
 * export-only servers): the chain is shown and the name checked, but trust cannot be judged.
 */
export function certificateFromProbe(
  certificates: readonly Uint8Array[],
  host: string,
  now = new Date(),
): CertificateScan {
  const chain = certificates.map((der) => summarise(der));
  const leaf = certificates[0] === undefined ? undefined : new X509Certificate(certificates[0]);
  const nameMatches =
    leaf !== undefined &&
    (leaf.checkHost(host, { subject: 'default' }) !== undefined || leaf.checkIP(host) !== undefined);
  return {
    chain,
    trusted: false,
    nameMatches,
    ...validity(chain, now),
    problem: {
      code: 'NOT_VERIFIED',
      message: 'the chain could not be verified: no modern TLS handshake with the server succeeded',
    },
    source: 'probe',
  };
}
