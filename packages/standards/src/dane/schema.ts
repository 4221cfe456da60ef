import { z } from 'zod';
import { diagnosticSchema, validationResultSchema } from '../core/schema.ts';
import { securityStatusSchema } from '../dnssec/schema.ts';
import { domainField } from '../core/domain-field.ts';
import { tlsaDefaults, tlsaProtocols } from './fields.ts';

/** A TLSA line with full-certificate data of a large RSA certificate stays far below this. */
export const tlsaRecordMaxLength = 16_384;
/** Ten PEM certificates of 4096-bit keys with many names fit easily. */
export const pemChainMaxLength = 65_536;

const portMessage = 'Port must be a whole number from 1 to 65535';
const servicePort = z
  .number({ error: portMessage })
  .int(portMessage)
  .min(1, portMessage)
  .max(65_535, portMessage);
const port = servicePort
  .default(tlsaDefaults.port)
  .describe('TCP, UDP or SCTP port of the service; 25 (SMTP) by default');

const chain = (required: boolean) => {
  const text = z
    .string()
    .max(pemChainMaxLength, `Certificate chain is too long: at most ${pemChainMaxLength} characters`);
  return (required ? text.trim().min(1, 'Certificate chain is required') : text).describe(
    'PEM certificates (-----BEGIN CERTIFICATE-----), the server certificate first',
  );
};

const fieldValue = (name: string, max: number, fallback: number) =>
  z
    .number({ error: `${name} must be a whole number from 0 to ${max}` })
    .int(`${name} must be a whole number from 0 to ${max}`)
    .min(0, `${name} must be a whole number from 0 to ${max}`)
    .max(max, `${name} must be a whole number from 0 to ${max}`)
    .default(fallback);

/** Body of `POST /v1/dane/validate`. */
export const daneValidateBody = z
  .object({
    record: z
      .string()
      .trim()
      .min(1, 'TLSA record is required')
      .max(tlsaRecordMaxLength, `TLSA record is too long: at most ${tlsaRecordMaxLength} characters`)
      .describe('A TLSA record: bare "3 1 1 <hex>" or a zone-file line with its owner name'),
    chain: chain(false).optional(),
  })
  .strict();
export type DaneValidateBody = z.infer<typeof daneValidateBody>;

/** Body of `POST /v1/dane/generate`. */
export const daneGenerateBody = z
  .object({
    chain: chain(true),
    host: domainField().describe('The server name clients connect to, e.g. mail.example.com'),
    port,
    protocol: z
      .enum(tlsaProtocols, { error: 'Protocol must be tcp, udp or sctp' })
      .default('tcp')
      .describe('Transport of the service (RFC 6698 §3)'),
    usage: fieldValue('Usage', 3, tlsaDefaults.usage).describe(
      'Certificate usage 0-3; 3 (DANE-EE) by default',
    ),
    selector: fieldValue('Selector', 1, tlsaDefaults.selector).describe(
      '0 certificate, 1 SubjectPublicKeyInfo (default)',
    ),
    matchingType: fieldValue('Matching type', 2, tlsaDefaults.matchingType).describe(
      '0 full, 1 SHA-256 (default), 2 SHA-512',
    ),
    anchor: z
      .number({ error: 'The CA must be a position in the chain' })
      .int('The CA must be a position in the chain')
      .min(1, 'The CA must be a certificate above the server certificate (position 1 or more)')
      .optional()
      .describe('Position in the chain (0 = server certificate) of the CA for usages 0 and 2; 1 by default'),
  })
  .strict();
export type DaneGenerateBody = z.input<typeof daneGenerateBody>;

/** The STARTTLS dialogues the certificate fetch can run before TLS (as the TLS tester does). */
export const daneStarttlsProtocols = ['smtp', 'imap', 'pop3', 'ftp', 'xmpp', 'ldap', 'postgres'] as const;

/** Body of `POST /v1/dane/certificate`. */
export const daneCertificateBody = z
  .object({
    host: domainField().describe('Server name to connect to'),
    port,
    starttls: z
      .enum([...daneStarttlsProtocols, 'none'], {
        error: 'STARTTLS must be smtp, imap, pop3, ftp, xmpp, ldap, postgres or none',
      })
      .optional()
      .describe('Upgrade a plain session first; smtp by default on ports 25 and 587, none elsewhere'),
  })
  .strict();
export type DaneCertificateBody = z.input<typeof daneCertificateBody>;

export const tlsaOwnerSchema = z.object({
  name: z.string().describe('Lower-case absolute owner name'),
  port: z.number().int().nullable(),
  protocol: z.enum(tlsaProtocols).nullable(),
  host: z.string().nullable(),
});

export const tlsaParsedSchema = z.object({
  owner: tlsaOwnerSchema.nullable().describe('Null when the record was pasted without its owner name'),
  ttl: z.number().int().nonnegative().nullable(),
  usage: z.number().int().min(0).max(255),
  selector: z.number().int().min(0).max(255),
  matchingType: z.number().int().min(0).max(255),
  parameters: z.string().describe('RFC 7218 acronyms, e.g. DANE-EE SPKI SHA2-256'),
  data: z.string().describe('Certificate association data, lower-case hex'),
  dataOctets: z.number().int().nonnegative(),
  record: z.string().describe('The record in one normal line'),
});
export type TlsaParsed = z.infer<typeof tlsaParsedSchema>;

export const certificateViewSchema = z.object({
  index: z.number().int().nonnegative().describe('Position in the chain, 0 = the server certificate'),
  subject: z.string(),
  issuer: z.string(),
  notBefore: z.string().nullable(),
  notAfter: z.string().nullable(),
  selfIssued: z.boolean(),
});

export const tlsaChainResultSchema = z.object({
  certificates: z.array(certificateViewSchema),
  matching: z.array(z.number().int()).describe('Positions whose data equals the record’s'),
  matched: z
    .number()
    .int()
    .nullable()
    .describe('The position the record matches as its usage reads it (RFC 7671 §5), or null'),
});
export type TlsaChainResult = z.infer<typeof tlsaChainResultSchema>;

/** The `data` of `POST /v1/dane/validate`. */
export const daneValidationResultSchema = validationResultSchema(tlsaParsedSchema).extend({
  recordValid: z
    .boolean()
    .describe(
      'The record itself has no error; `valid` is false also when it matches no certificate of the pasted chain',
    ),
  chain: tlsaChainResultSchema.exactOptional().describe('Present when a chain was pasted and could be read'),
});
export type TlsaValidationResultData = z.infer<typeof daneValidationResultSchema>;

export const tlsaGeneratedSchema = z.object({
  usage: z.number().int(),
  selector: z.number().int(),
  matchingType: z.number().int(),
  parameters: z.string(),
  certificateIndex: z.number().int().describe('The chain position the record was made from'),
  data: z.string().describe('Lower-case hex'),
  record: z.string().describe('Zone-file line: owner IN TLSA usage selector matching-type data'),
  recommended: z.boolean().describe('3 1 1, the form RFC 7671 §5.1 recommends'),
  selected: z.boolean().describe('The parameters asked for'),
  unusable: z
    .string()
    .nullable()
    .describe(
      'Why clients of this service ignore the record (usages 0 and 1 on port 25, RFC 7672 §3.1.3), or null',
    ),
});
export type TlsaGenerated = z.infer<typeof tlsaGeneratedSchema>;

/** The `data` of `POST /v1/dane/generate`. */
export const daneGenerationSchema = z.object({
  owner: z.string(),
  certificates: z.array(certificateViewSchema),
  anchor: z.number().int().nullable().describe('Chain position of the CA used for usages 0 and 2'),
  records: z.array(tlsaGeneratedSchema),
  selected: tlsaGeneratedSchema,
  zoneFile: z.string(),
  rollover: z.array(z.string()),
  note: z.string().exactOptional(),
  warning: z
    .string()
    .exactOptional()
    .describe(
      'Present when the chosen record is unusable for the service, with the record to publish instead',
    ),
});
export type TlsaGeneration = z.infer<typeof daneGenerationSchema>;

/** The `data` of `POST /v1/dane/certificate`: the chain a server presents. */
export const daneCertificateResultSchema = z.object({
  host: z.string(),
  port: z.number().int(),
  starttls: z.string().nullable(),
  certificates: z.array(certificateViewSchema.extend({ pem: z.string() })),
  pem: z.string().describe('The whole chain as PEM, leaf first, for the generator'),
  trusted: z.boolean().describe('The chain verifies to a trust anchor (needed for usages 0 and 1 only)'),
  nameMatches: z.boolean(),
});
export type DaneCertificateResult = z.infer<typeof daneCertificateResultSchema>;

/**
 * Services the live check can reach: SMTP between MX hosts (RFC 7672: the name is a mail domain,
 * its MX hosts are checked), HTTPS and other TLS services at `_port._tcp.host` (RFC 6698 §3).
 */
export const daneCheckProtocols = [
  'smtp',
  'https',
  'imap',
  'pop3',
  'xmpp',
  'ldap',
  'ftp',
  'postgres',
] as const;
export type DaneCheckProtocol = (typeof daneCheckProtocols)[number];

/** Body of `POST /v1/dane/check`. */
export const daneCheckBody = z
  .object({
    host: domainField().describe(
      'For SMTP the mail domain (its MX hosts are checked, RFC 7672 §2.2); else the server name',
    ),
    port: servicePort.optional().describe('25 for SMTP, 443 for HTTPS and the protocol’s own port otherwise'),
    protocol: z
      .enum(daneCheckProtocols, {
        error: `Protocol must be one of ${daneCheckProtocols.join(', ')}`,
      })
      .default('smtp')
      .describe(
        'How to reach TLS: STARTTLS for SMTP, IMAP, POP3, XMPP, LDAP, FTP and PostgreSQL on their plain ports',
      ),
  })
  .strict();
export type DaneCheckBody = z.input<typeof daneCheckBody>;

/** The outcome for one endpoint and for the whole check. */
export const daneVerdictSchema = z
  .enum(['pass', 'fail', 'not-applicable', 'indeterminate'])
  .describe(
    'pass: a usable TLSA record authenticates the server; fail: DANE is published but the server does not meet it ' +
      '(senders must not deliver); not-applicable: no DANE to meet (insecure zone, no or only unusable TLSA); ' +
      'indeterminate: DNS did not answer, so no verdict',
  );
export type DaneVerdict = z.infer<typeof daneVerdictSchema>;

export const daneCheckRecordSchema = z.object({
  record: z.string().describe('Presentation line as published'),
  usage: z.number().int(),
  selector: z.number().int(),
  matchingType: z.number().int(),
  parameters: z.string().describe('RFC 7218 acronyms, e.g. DANE-EE SPKI SHA2-256'),
  usable: z.boolean(),
  unusableReason: z.string().nullable(),
  /** The record authenticates the server: its data matches and its usage's checks pass. */
  matched: z.boolean(),
  certificate: z
    .number()
    .int()
    .nullable()
    .describe('Chain position (0 = server certificate) whose data the record matches, as its usage reads it'),
  /** A DANE-TA record given in full matched as the trust anchor above the chain the server sent (RFC 7671 §5.2.2). */
  anchorOutsideChain: z.boolean().exactOptional(),
  /** Why a record whose data matches still does not authenticate (a name, an expiry, PKIX). */
  problem: z.string().nullable(),
});
export type DaneCheckRecord = z.infer<typeof daneCheckRecordSchema>;

const lookupSchema = z.object({
  /** The name asked, and the name the answer sits at after CNAMEs. */
  name: z.string(),
  owner: z.string(),
  status: securityStatusSchema,
  records: z.array(z.string()),
  /** Why the answer is bogus or indeterminate, from the chain of trust. */
  failure: z.string().nullable(),
  /** What DNS answered: records, no such name (NXDOMAIN), no record of the type (NODATA), or nothing usable. */
  answer: z.enum(['ok', 'nxdomain', 'nodata', 'failed']),
  /** For NXDOMAIN and NODATA: the NSEC/NSEC3 proof and whether it holds (null in an unsigned zone). */
  denial: z
    .object({ method: z.enum(['NSEC', 'NSEC3']), proven: z.boolean(), message: z.string() })
    .nullable(),
});

export const daneEndpointSchema = z.object({
  host: z.string().describe('The server name: an MX host for SMTP, else the host asked'),
  port: z.number().int(),
  addresses: lookupSchema.describe('A and AAAA of the host, with their DNSSEC status'),
  tlsa: lookupSchema
    .extend({
      found: z.enum(['records', 'none', 'failed']),
      /** TLSA owner names asked, in order (RFC 7672 §2.2.2: the CNAME-expanded name first). */
      tried: z.array(z.string()),
    })
    .nullable()
    .describe('Not looked up (null) when the host has no address records: there is nothing to connect to'),
  records: z.array(daneCheckRecordSchema),
  tls: z.object({
    status: z.enum(['ok', 'failed', 'not-attempted']),
    starttls: z.string().nullable(),
    /** Code and plain words when the connection or handshake failed. */
    code: z.string().nullable(),
    message: z.string().nullable(),
    certificates: z.array(certificateViewSchema.extend({ names: z.array(z.string()) })),
    /** The chain verifies to a public trust anchor (only usages 0 and 1 need it). */
    pkixTrusted: z.boolean().nullable(),
  }),
  /** Names the certificate must carry for usages 0, 1 and 2 (RFC 7672 §3.2.2, RFC 7671 §5.2.2). */
  referenceNames: z.array(z.string()),
  verdict: daneVerdictSchema,
  reasons: z.array(diagnosticSchema),
  rollover: z
    .object({ ready: z.boolean(), message: z.string(), rfc: z.string(), fix: z.string().nullable() })
    .nullable()
    .describe('Whether a certificate or key change can happen without an outage (RFC 7671 §8)'),
});
export type DaneEndpoint = z.infer<typeof daneEndpointSchema>;

/** The `data` of `POST /v1/dane/check`. */
export const daneCheckResultSchema = z.object({
  host: z.string(),
  port: z.number().int(),
  protocol: z.enum(daneCheckProtocols),
  verdict: daneVerdictSchema,
  summary: z.string(),
  reasons: z.array(diagnosticSchema),
  mx: lookupSchema
    .extend({
      hosts: z.array(z.object({ preference: z.number().int(), host: z.string() })),
      implicit: z.boolean().describe('No MX: the domain itself is the mail host (RFC 5321 §5.1)'),
    })
    .nullable()
    .describe('SMTP only'),
  endpoints: z.array(daneEndpointSchema),
  checkedAt: z.string(),
});
export type DaneCheckResult = z.infer<typeof daneCheckResultSchema>;
