import { z } from 'zod';
import { hostField } from '../core/domain-field.ts';
import { scannedVersionSchema, starttlsProtocolSchema, tlsScanReportSchema } from './scan-report.ts';
import { tlsConfigServers } from './server-config.ts';

/** Longest accepted suite name: the longest IANA name has 50 characters. */
export const cipherSuiteMaxLength = 100;

/** Body of `POST /v1/tls-cipher/validate`, shared by the server route and the web form. */
export const tlsCipherValidateBody = z
  .object({
    cipherSuite: z
      .string({
        error: (issue) =>
          issue.input === undefined ? 'Please enter a cipher suite to validate' : 'Cipher suite must be text',
      })
      .trim()
      .min(1, 'Please enter a cipher suite to validate')
      .max(cipherSuiteMaxLength, `Cipher suite is too long: at most ${cipherSuiteMaxLength} characters`)
      .describe('An IANA, OpenSSL or GnuTLS suite name, or its code point: 0xC0,0x2F, c02f, 0xC02F'),
  })
  .strict();

const profileSchema = z.enum(['modern', 'intermediate', 'old'], {
  error: 'Profile must be one of modern, intermediate or old',
});
const versionSchema = z.enum(['SSLv3', 'TLSv1.0', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3']);
const levelSchema = z.enum(['HIGH', 'MEDIUM', 'LOW', 'INSECURE']);

export const cipherSuiteSchema = z.object({
  code: z.number().int(),
  hex: z.string(),
  iana: z.string(),
  openssl: z.string().nullable(),
  gnutls: z.string().nullable(),
  keyExchange: z.string(),
  authentication: z.string(),
  cipher: z.string(),
  keyBits: z.number().int(),
  mac: z.string(),
  hash: z.string(),
  aead: z.boolean(),
  pfs: z.boolean(),
  export: z.boolean(),
  versions: z.array(versionSchema).readonly(),
  rating: z.enum(['recommended', 'secure', 'weak', 'insecure']),
  weaknesses: z
    .array(
      z.object({
        component: z.enum(['protocol', 'kex', 'auth', 'enc', 'hash']),
        name: z.string(),
        severity: z.union([z.literal(0), z.literal(1), z.literal(2)]),
      }),
    )
    .readonly(),
  security: levelSchema,
  ianaRecommended: z.boolean(),
  dtlsOk: z.boolean(),
  reference: z.string(),
  mozilla: z.array(profileSchema).readonly(),
});

export const cipherValidationSchema = z.object({
  cipher: z.string(),
  known: z.boolean(),
  kind: z.enum(['suite', 'signalling', 'ssl2', 'unknown']),
  level: z.enum(['HIGH', 'MEDIUM', 'LOW', 'INSECURE', 'N/A', 'UNKNOWN']),
  code: z.string().nullable(),
  description: z.string().nullable(),
  isSecure: z.boolean(),
  isInsecure: z.boolean(),
  supportsPFS: z.boolean(),
  tlsVersion: z.string(),
  recommendations: z.array(z.string()).readonly(),
  advice: z
    .array(
      z.object({
        weakness: z.string(),
        severity: z.union([z.literal(0), z.literal(1), z.literal(2)]),
        advice: z.string(),
        reference: z.string(),
      }),
    )
    .readonly(),
  suite: cipherSuiteSchema.nullable(),
});

/** Query of `GET /v1/tls-cipher/recommendations`. */
export const tlsRecommendationsQuery = z
  .object({
    profile: profileSchema.default('intermediate').describe('Mozilla profile: modern, intermediate or old'),
    server: z
      .enum(tlsConfigServers, {
        error: 'Server must be one of nginx, apache, haproxy, caddy, postfix or node',
      })
      .default('nginx')
      .describe('nginx, apache, haproxy, caddy, postfix or node'),
  })
  .strict();

export const tlsServerConfigSchema = z.object({
  profile: profileSchema,
  server: z.enum(tlsConfigServers),
  serverName: z.string(),
  guidelinesVersion: z.string(),
  fileName: z.string(),
  protocols: z.array(versionSchema).readonly(),
  ciphers: z.array(z.string()).readonly(),
  ciphersuites: z.array(z.string()).readonly(),
  curves: z.array(z.string()).readonly(),
  dhParams: z.string(),
  hsts: z.string().nullable(),
  ocspStapling: z.string(),
  serverPreferredOrder: z.boolean(),
  oldestClients: z.array(z.string()).readonly(),
  notes: z.array(z.string()).readonly(),
  config: z.string(),
});

/** The STARTTLS protocols in the words of the form's select. */
const starttlsWords = 'SMTP, IMAP, POP3, FTP, XMPP, LDAP or PostgreSQL (postgres)';

/** Body of `POST /v1/tls-cipher/analyse`, shared by the server route and the Tester form. */
export const tlsAnalyseBody = z
  .object({
    host: hostField().describe('Host name or IP address of the TLS server'),
    port: z
      .number({ error: 'Port must be a whole number from 1 to 65535' })
      .int('Port must be a whole number from 1 to 65535')
      .min(1, 'Port must be a whole number from 1 to 65535')
      .max(65_535, 'Port must be a whole number from 1 to 65535')
      .default(443)
      .describe('TCP port; 443 by default'),
    starttls: z
      .enum(starttlsProtocolSchema.options, {
        error: `STARTTLS must be one of ${starttlsWords}, in lower case, or left out for TLS from the first byte`,
      })
      .optional()
      .describe('Upgrade a plain-text session first: smtp, imap, pop3, ftp, xmpp, ldap or postgres'),
  })
  .strict();

const gradeCapSchema = z.object({
  code: z.string(),
  grade: z.enum(['F', 'C', 'B', 'A-', 'T', 'M']),
  reason: z.string(),
  evidence: z.string(),
  fix: z.string(),
  reference: z.string(),
});

const categoryScoreSchema = z.object({ score: z.number(), basis: z.string() });
const letterGradeSchema = z.enum(['A+', 'A', 'A-', 'B', 'C', 'D', 'E', 'F']);

/** The SSL Labs-style grade of a scanned server (`TlsGrade` of grade.ts). */
export const tlsGradeSchema = z.object({
  grade: z.union([letterGradeSchema, z.enum(['T', 'M'])]),
  gradeIgnoringTrust: letterGradeSchema,
  score: z.number().int(),
  scoreBand: z.enum(['green', 'yellow', 'red']),
  categories: z.object({
    protocol: categoryScoreSchema,
    keyExchange: categoryScoreSchema,
    cipherStrength: categoryScoreSchema,
  }),
  caps: z.array(gradeCapSchema).readonly(),
  missingForAPlus: z.array(z.string()).readonly(),
  mozillaProfile: profileSchema.nullable(),
  mozilla: z
    .array(z.object({ profile: profileSchema, meets: z.boolean(), blockers: z.array(z.string()).readonly() }))
    .readonly(),
  unknownSuites: z.array(z.number().int()).readonly(),
});

/** Whether HSTS was read for A+ (HTTPS on port 443 only) and what it said. */
export const hstsCheckSchema = z.object({
  checked: z.boolean(),
  maxAge: z.number().int().optional(),
  /** Why it was not read, or why browsers ignore it. */
  note: z.string().optional(),
});

/**
 * The `data` of `POST /v1/tls-cipher/analyse`: the spec's fields (versions with their suites,
 * vulnerabilities and recommendations as sentences, score, grade), the full scan report and the
 * grade's details. When the server could not be graded, `grading`, `score` and `grade` are null and
 * `ungradedReason` says why.
 */
export const tlsAnalysisSchema = z.object({
  supportedVersions: z.array(z.object({ version: scannedVersionSchema, ciphers: z.array(z.string()) })),
  vulnerabilities: z.array(z.string()),
  recommendations: z.array(z.string()),
  score: z.number().int().nullable(),
  grade: z.string().nullable(),
  report: tlsScanReportSchema,
  grading: tlsGradeSchema.nullable(),
  ungradedReason: z.string().optional(),
  hsts: hstsCheckSchema,
});
export type TlsAnalysis = z.infer<typeof tlsAnalysisSchema>;

/** A progress event of the analyse stream (`TlsScanProgress`). */
export const tlsScanProgressSchema = z.object({
  phase: z.enum(['versions', 'suites', 'preference', 'groups', 'features', 'certificate', 'done']),
  version: scannedVersionSchema.optional(),
  done: z.number().int(),
  total: z.number().int(),
});
