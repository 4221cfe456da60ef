// What a scan report says about a server, restated as the facts the grade reads: the accepted
// versions and suites, the server keys, the smallest DH and ECDH groups used, each certificate's
// standing and the vulnerability verdicts the scanner reached.
import {
  protocolLabel,
  type GradedCertificate,
  type GradedProtocol,
  type HstsStatus,
  type ServerKeyType,
  type TlsGradeFacts,
} from './grade.ts';
import type { CertificateScan, CertificateSummary, TlsScanReport, VulnerabilityId } from './scan-report.ts';
import type { ProtocolVersionName } from './suite.ts';

/** Field sizes of the elliptic-curve groups (RFC 8422 §5.1.1, RFC 7748, RFC 7027). */
const ecGroupBits: Readonly<Record<string, number>> = {
  sect163k1: 163,
  sect163r1: 163,
  sect163r2: 163,
  sect193r1: 193,
  sect193r2: 193,
  sect233k1: 233,
  sect233r1: 233,
  sect239k1: 239,
  sect283k1: 283,
  sect283r1: 283,
  sect409k1: 409,
  sect409r1: 409,
  sect571k1: 571,
  sect571r1: 571,
  secp160k1: 160,
  secp160r1: 160,
  secp160r2: 160,
  secp192k1: 192,
  secp192r1: 192,
  secp224k1: 224,
  secp224r1: 224,
  secp256k1: 256,
  secp256r1: 256,
  secp384r1: 384,
  secp521r1: 521,
  brainpoolP256r1: 256,
  brainpoolP384r1: 384,
  brainpoolP512r1: 512,
  brainpoolP256r1tls13: 256,
  brainpoolP384r1tls13: 384,
  brainpoolP512r1tls13: 512,
  x25519: 255,
  x448: 448,
  // hybrids: the classical half bounds the strength
  X25519MLKEM768: 255,
  SecP256r1MLKEM768: 256,
  SecP384r1MLKEM1024: 384,
};

/** Finite-field groups of RFC 7919 §A. */
const ffdheBits: Readonly<Record<string, number>> = {
  ffdhe2048: 2048,
  ffdhe3072: 3072,
  ffdhe4096: 4096,
  ffdhe6144: 6144,
  ffdhe8192: 8192,
};

/** Curve names as OpenSSL reports them for certificate keys, with their field sizes. */
const certificateCurveBits: Readonly<Record<string, number>> = {
  prime256v1: 256,
  secp256r1: 256,
  secp384r1: 384,
  secp521r1: 521,
  secp224r1: 224,
  prime192v1: 192,
  secp256k1: 256,
  brainpoolP256r1: 256,
  brainpoolP384r1: 384,
  brainpoolP512r1: 512,
};

/** Certificate verifier codes that mean the server left out an intermediate (OpenSSL's verify codes). */
const missingIssuerCodes = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  // the server sent some intermediates but not the one that leads to a root
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  // the scanner fetched the missing intermediates (caIssuers) and reached a trusted root
  'INCOMPLETE_CHAIN',
]);

const minOf = (values: readonly number[]) => (values.length === 0 ? undefined : Math.min(...values));

/** The type of a certificate's key as TLS names the authentication (RSA, ECDSA, EdDSA, DSA). */
export function certificateKeyType(leaf: Pick<CertificateSummary, 'keyType'>): ServerKeyType | undefined {
  switch (leaf.keyType) {
    case 'rsa':
    case 'rsa-pss':
      return 'RSA';
    case 'ec':
      return 'ECDSA';
    case 'ed25519':
    case 'ed448':
      return 'EdDSA';
    case 'dsa':
      return 'DSA';
    default:
      return undefined;
  }
}

/** `RSA certificate`, `ECDSA certificate`: which of a server's certificates this is. */
export function certificateLabel(certificate: CertificateScan): string {
  const leaf = certificate.chain[0];
  const type = leaf === undefined ? undefined : certificateKeyType(leaf);
  return type === undefined ? 'Certificate' : `${type} certificate`;
}

/** The key of a certificate as the grade types it, or undefined when its type is not one TLS servers use. */
export function serverKeyOf(leaf: CertificateSummary): GradedCertificate['key'] | undefined {
  const type = certificateKeyType(leaf);
  switch (type) {
    case undefined:
      return undefined;
    case 'ECDSA': {
      const bits = leaf.curve === undefined ? undefined : certificateCurveBits[leaf.curve];
      return bits === undefined ? undefined : { type, bits };
    }
    case 'EdDSA':
      return { type, bits: leaf.keyType === 'ed448' ? 448 : 255 };
    default:
      return leaf.keyBits === undefined ? undefined : { type, bits: leaf.keyBits };
  }
}

export type GradeFactsResult =
  { readonly ok: true; readonly facts: TlsGradeFacts } | { readonly ok: false; readonly reason: string };

function gradedCertificate(certificate: CertificateScan): GradedCertificate | { reason: string } {
  const leaf = certificate.chain[0];
  if (leaf === undefined)
    return { reason: 'The server sent no certificate we could read, so its key cannot be graded' };
  const key = serverKeyOf(leaf);
  if (key === undefined)
    return {
      reason: `The certificate's key (${leaf.keyType ?? 'unknown type'}${leaf.curve === undefined ? '' : ` ${leaf.curve}`}) is not one the grade can size`,
    };
  return {
    key,
    // a chain read from a raw probe is verified by the scanner against the same anchors
    trusted: certificate.trusted,
    expired: certificate.expired,
    selfSigned: leaf.selfSigned,
    nameMatches: certificate.nameMatches,
    chainComplete: !missingIssuerCodes.has(certificate.problem?.code ?? ''),
    signatureAlgorithm: leaf.signatureAlgorithm ?? '',
  };
}

/**
 * The grade's facts from a scan, over every certificate the server serves. The grade rests on
 * the server's certificate keys, so a scan that got no certificate (an anonymous-only server, a
 * failed certificate handshake) cannot be graded; nor can one with a protocol version left
 * untested, which could hold what caps the grade: the reason says so. `hstsMaxAge` is the max-age
 * of the HSTS header the site sends, when known; `hstsStatus` whether it was read at all.
 */
export function gradeFactsOf(
  report: TlsScanReport,
  hstsMaxAge?: number,
  hstsStatus?: HstsStatus,
): GradeFactsResult {
  if (report.certificates.length === 0)
    return { ok: false, reason: 'The server sent no certificate we could read, so its key cannot be graded' };
  const certificates: GradedCertificate[] = [];
  for (const certificate of report.certificates) {
    const graded = gradedCertificate(certificate);
    if ('reason' in graded) return { ok: false, reason: graded.reason };
    certificates.push(graded);
  }

  const untested = report.versions.filter((version) => version.tested === false);
  if (untested.length > 0)
    return {
      ok: false,
      reason: `${untested.map((version) => protocolLabel(version.version)).join(', ')} could not be tested (the scan notes say why), and the grade rests on every protocol version and suite`,
    };

  const supported = report.versions.filter((version) => version.supported);
  const protocols: GradedProtocol[] = supported.map((version) => version.version);
  const suites: Partial<Record<ProtocolVersionName, number[]>> = {};
  for (const version of supported)
    if (version.version !== 'SSLv2') suites[version.version] = version.suites.map((suite) => suite.code);

  const groupNames = [
    ...report.groups.tls12,
    ...report.groups.tls13,
    ...supported.flatMap((version) => version.suites.map((suite) => suite.keyExchange?.group ?? '')),
  ];
  const dhBits = minOf([
    ...report.groups.dhPrimeBits,
    ...groupNames.flatMap((name) => (ffdheBits[name] === undefined ? [] : [ffdheBits[name]])),
    ...supported.flatMap((version) => version.suites.flatMap((suite) => suite.keyExchange?.dhBits ?? [])),
  ]);
  const ecdhBits = minOf(
    groupNames.flatMap((name) => (ecGroupBits[name] === undefined ? [] : [ecGroupBits[name]])),
  );

  const vulnerable = (id: VulnerabilityId) =>
    report.vulnerabilities.some((finding) => finding.id === id && finding.status === 'vulnerable');
  return {
    ok: true,
    facts: {
      protocols,
      suites,
      certificates,
      dhBits,
      ecdhBits,
      vulnerabilities: {
        heartbleed: vulnerable('heartbleed'),
        ccsInjection: vulnerable('ccs-injection'),
        insecureRenegotiation: vulnerable('insecure-renegotiation'),
        compression: vulnerable('crime'),
        fallbackScsv: !vulnerable('no-fallback-scsv'),
      },
      hstsMaxAge,
      hstsStatus,
    },
  };
}
