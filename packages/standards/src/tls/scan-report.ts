// What a TLS scan of one server found (the scanner is apps/server/src/tls/): protocol versions
// and the suites each accepts, the server's preference, key exchange groups and DH sizes,
// extensions, the certificate chains (one per key type) and the vulnerability facts, each with its evidence.
import { z } from 'zod';

/** The versions a scan probes, oldest first (SSL 2.0 draft, RFC 6101, 2246, 4346, 5246, 8446). */
export const scannedVersions = ['SSLv2', 'SSLv3', 'TLSv1.0', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'] as const;
export const scannedVersionSchema = z.enum(scannedVersions);
export type ScannedVersion = z.infer<typeof scannedVersionSchema>;

export const starttlsProtocolSchema = z.enum([
  'smtp',
  'imap',
  'pop3',
  'sieve',
  'ftp',
  'xmpp',
  'ldap',
  'postgres',
]);
export type StarttlsProtocolName = z.infer<typeof starttlsProtocolSchema>;

/** One accepted suite: the code point and the names the database gives it (SSLv2 kinds have only a name). */
export const scannedSuiteSchema = z.object({
  /** Two-byte TLS code point, or the three-byte SSL 2.0 CIPHER-KIND. */
  code: z.number().int(),
  /** `0xC0,0x2F` (three bytes for SSL 2.0 kinds). */
  hex: z.string(),
  /** IANA name; for SSL 2.0 the draft's SSL_CK_ name; `UNKNOWN` for a code the database lacks. */
  name: z.string(),
  openssl: z.string().nullable(),
  /** The (EC)DH group or the DH prime size this server used with the suite, when it has an ephemeral key exchange. */
  keyExchange: z
    .object({
      group: z.string().optional(),
      dhBits: z.number().int().optional(),
      rsaExportBits: z.number().int().optional(),
    })
    .optional(),
});
export type ScannedSuite = z.infer<typeof scannedSuiteSchema>;

export const versionScanSchema = z.object({
  version: scannedVersionSchema,
  supported: z.boolean(),
  /** In the server's order when it enforces one, else in the order found. */
  suites: z.array(scannedSuiteSchema),
  /** `server`: it picks by its own order; `client`: by the client's; undefined with fewer than two suites. */
  preference: z.enum(['server', 'client']).optional(),
  /** Why the version counts as unsupported (the alert or behaviour seen), for the record. */
  refusal: z.string().optional(),
  /**
   * False when a probe of this version got no answer in time, even retried alone: with `supported`
   * false, whether the version is accepted is unknown; with `supported` true, more suites may be.
   * Absent when every probe was answered.
   */
  tested: z.boolean().optional(),
});
export type VersionScan = z.infer<typeof versionScanSchema>;

export const groupScanSchema = z.object({
  /** Named groups accepted for ECDHE/DHE in TLS 1.2 and below, in the server's order when it has one. */
  tls12: z.array(z.string()),
  /** Groups accepted in TLS 1.3 (RFC 8446 §4.2.7), learnt from HelloRetryRequest's selected_group. */
  tls13: z.array(z.string()),
  /** Sizes in bits of the finite-field DH primes seen in ServerKeyExchange (RFC 5246 §7.4.3). */
  dhPrimeBits: z.array(z.number().int()),
  /**
   * The lists whose probes got no answer in time (a server that stalled or stopped answering): the
   * groups listed there are those learnt so far, not all the server accepts.
   */
  unanswered: z.array(z.enum(['tls12', 'tls13'])).optional(),
});

export const certificateSummarySchema = z.object({
  subject: z.string(),
  issuer: z.string(),
  subjectAltNames: z.array(z.string()),
  validFrom: z.string(),
  validTo: z.string(),
  serialNumber: z.string(),
  fingerprint256: z.string(),
  selfSigned: z.boolean(),
  keyType: z.string().optional(),
  keyBits: z.number().int().optional(),
  curve: z.string().optional(),
  signatureAlgorithm: z.string().optional(),
  /** Signed certificate timestamps embedded in the certificate (RFC 6962 §3.3). */
  sctCount: z.number().int(),
  pem: z.string(),
});
export type CertificateSummary = z.infer<typeof certificateSummarySchema>;

export const certificateScanSchema = z.object({
  /** Leaf first, as the server sent them. */
  chain: z.array(certificateSummarySchema),
  /** The chain verified against the system trust store (plus the configured extra anchors). */
  trusted: z.boolean(),
  /** The leaf covers the host name (RFC 6125 §6). */
  nameMatches: z.boolean(),
  expired: z.boolean(),
  notYetValid: z.boolean(),
  /** Set when not trusted or the name does not match: the verifier's code and its words. */
  problem: z.object({ code: z.string(), message: z.string() }).optional(),
  /** Where the chain came from: Node's own handshake, or the raw Certificate message of a probe. */
  source: z.enum(['handshake', 'probe']),
});
export type CertificateScan = z.infer<typeof certificateScanSchema>;

/** yes / no, or not-applicable (e.g. renegotiation on a TLS 1.3-only server), or unknown (the probe failed). */
export const triStateSchema = z.enum(['yes', 'no', 'not-applicable', 'unknown']);
export type TriState = z.infer<typeof triStateSchema>;

export const featureScanSchema = z.object({
  /** The ALPN protocol chosen from `h2, http/1.1` (RFC 7301), or null when none. */
  alpn: z.string().nullable(),
  ocspStapling: triStateSchema,
  secureRenegotiation: triStateSchema,
  fallbackScsv: triStateSchema,
  compression: triStateSchema,
  sessionTickets: triStateSchema,
  heartbeat: triStateSchema,
  extendedMasterSecret: triStateSchema,
});
export type FeatureScan = z.infer<typeof featureScanSchema>;

export const vulnerabilityIds = [
  'sslv2-drown',
  'sslv3-poodle',
  'tls10-beast',
  'sweet32',
  'rc4',
  'freak',
  'logjam',
  'null-cipher',
  'anonymous',
  'crime',
  'heartbleed',
  'ccs-injection',
  'insecure-renegotiation',
  'no-fallback-scsv',
  'certificate',
] as const;
export const vulnerabilityIdSchema = z.enum(vulnerabilityIds);
export type VulnerabilityId = z.infer<typeof vulnerabilityIdSchema>;

export const vulnerabilitySchema = z.object({
  id: vulnerabilityIdSchema,
  title: z.string(),
  /** `vulnerable`; `ok` when the handshakes show it is not; `unknown` when a probe could not tell. */
  status: z.enum(['vulnerable', 'ok', 'unknown']),
  severity: z.enum(['critical', 'high', 'medium', 'low']),
  /** CVE identifiers and RFC sections. */
  references: z.array(z.string()),
  /** What the scan saw (the suites, the version, the answer). */
  evidence: z.string(),
  fix: z.string(),
});
export type Vulnerability = z.infer<typeof vulnerabilitySchema>;

export const tlsScanReportSchema = z.object({
  host: z.string(),
  port: z.number().int(),
  starttls: starttlsProtocolSchema.optional(),
  /** The address connected to. */
  address: z.string(),
  versions: z.array(versionScanSchema),
  groups: groupScanSchema,
  /**
   * Signature schemes a TLS 1.2 server signs (EC)DHE parameters with (RFC 5246 §7.4.1.4.1), in
   * the order found; absent when no TLS 1.2 suite with a signed key exchange is accepted, or no
   * answer showed a signature (a server that stalls before its ServerKeyExchange).
   */
  signatureAlgorithms: z.array(z.string()).optional(),
  /**
   * Signature schemes a TLS 1.3 server accepts for its CertificateVerify (RFC 8446 §4.2.3), each
   * offered alone; absent when TLS 1.3 is not served or no answer could tell.
   */
  tls13SignatureAlgorithms: z.array(z.string()).optional(),
  features: featureScanSchema,
  /** The certificate a client gets with a default handshake; the first of `certificates`. */
  certificate: certificateScanSchema.optional(),
  /**
   * Every certificate the server serves, one per key type (RSA and ECDSA on a dual-certificate
   * server; which one a client gets depends on the suites and signature algorithms it offers),
   * `certificate` first; empty when none could be read.
   */
  certificates: z.array(certificateScanSchema),
  vulnerabilities: z.array(vulnerabilitySchema),
  /** Problems met while scanning (timeouts, a failed certificate handshake): the scan went on without them. */
  notes: z.array(z.string()),
  /**
   * Something was not learnt: the scan stopped at its time budget, or probes got no answer in time
   * even retried one at a time (the notes say what); what was found is reported.
   */
  incomplete: z.boolean(),
  stats: z.object({ connections: z.number().int(), durationMs: z.number() }),
});
export type TlsScanReport = z.infer<typeof tlsScanReportSchema>;

/** A progress event for a live progress bar: the phase and how many probes of the plan are done. */
export interface TlsScanProgress {
  phase: 'versions' | 'suites' | 'preference' | 'groups' | 'features' | 'certificate' | 'done';
  version?: ScannedVersion;
  /** Probes finished and probes planned so far (the plan grows as suites are found). */
  done: number;
  total: number;
}
