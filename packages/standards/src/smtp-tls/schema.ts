import { z } from 'zod';
import { domainMaxLength, domainNameProblem } from '../core/domain-field.ts';
import { domainToAscii } from '../core/punycode.ts';
import { diagnosticSchema } from '../core/schema.ts';
import { smtpTlsServiceTypes } from './services.ts';

/** A PEM certificate, or a leaf with its chain, of large RSA keys and many names. */
export const smtpTlsPemMaxLength = 65_536;
/** Names read of each kind: real mail certificates carry a handful, shared hosting a few hundred. */
export const smtpTlsMaxIdentifiers = 500;
/** A presented name as long as a DNS name in text, with room for a wildcard or service label. */
export const smtpTlsIdentifierMaxLength = 300;

export const serverHostnameRequiredMessage = 'Server hostname is required';
export const emailDomainRequiredMessage = 'Email domain is required';

/**
 * A host or domain name field that takes Unicode (U-labels) too: trimmed, converted to A-labels
 * (RFC 5891 §4.4) and checked as a domain name on that form.
 */
function mailNameField(requiredMessage: string) {
  return z
    .string({ error: requiredMessage })
    .trim()
    .min(1, requiredMessage)
    .max(domainMaxLength, `At most ${domainMaxLength} characters`)
    .superRefine((value, context) => {
      if (value === '') return;
      const ascii = domainToAscii(value);
      const problem = ascii.ok ? domainNameProblem(ascii.name) : ascii.error;
      if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
    });
}

const portMessage = 'Port must be a whole number from 1 to 65535';
const portField = z
  .number({ error: portMessage })
  .int(portMessage)
  .min(1, portMessage)
  .max(65_535, portMessage);

const serviceTypeField = z
  .enum(smtpTlsServiceTypes, { error: `Service type must be one of ${smtpTlsServiceTypes.join(', ')}` })
  .default('smtp')
  .describe('smtp (submission, 587 or 465), imap (143), imaps (993), pop3 (110), pop3s (995), sieve (4190)');

const identifier = z
  .string()
  .max(smtpTlsIdentifierMaxLength, `An identifier is at most ${smtpTlsIdentifierMaxLength} characters`);

/** The spec's certificateInfo: the identifiers a certificate presents. */
export const smtpTlsCertificateInfoSchema = z
  .object({
    dnsIds: z
      .array(identifier)
      .max(smtpTlsMaxIdentifiers, `At most ${smtpTlsMaxIdentifiers} DNS-IDs`)
      .default([])
      .describe('subjectAltName dNSName entries, e.g. mail.example.com or *.example.com'),
    srvIds: z
      .array(identifier)
      .max(smtpTlsMaxIdentifiers, `At most ${smtpTlsMaxIdentifiers} SRV-IDs`)
      .default([])
      .describe('subjectAltName SRVName entries (RFC 4985), e.g. _imaps.example.com'),
    commonName: identifier.nullable().default(null).describe('The subject CN, or null'),
  })
  .strict();
export type SmtpTlsCertificateInfo = z.infer<typeof smtpTlsCertificateInfoSchema>;

/** Body of `POST /v1/smtp-tls-enforce/generate` (spec part 2 §3). */
export const smtpTlsGenerateBody = z
  .object({
    serverHostname: mailNameField(serverHostnameRequiredMessage).describe(
      'The mail server name clients connect to, e.g. mail.example.com',
    ),
    emailDomain: mailNameField(emailDomainRequiredMessage).describe(
      'The domain of the users’ addresses, e.g. example.com',
    ),
    serviceType: serviceTypeField,
    port: portField.optional().describe('Default: the service’s port'),
    enableSNI: z.boolean().default(true).describe('Clients send the server name (RFC 6066 §3)'),
    enableWildcard: z
      .boolean()
      .default(false)
      .describe('Add a wildcard DNS-ID for the server’s parent domain'),
    includeSRV: z
      .boolean()
      .default(true)
      .describe('Publish SRV records (RFC 6186) and put SRV-IDs (RFC 4985) in the certificate'),
  })
  .strict();
export type SmtpTlsGenerateBody = z.infer<typeof smtpTlsGenerateBody>;

export const smtpTlsSourceMessage =
  'Give the certificate one way: certificateInfo, pem, or live (fetch it from the server)';

/** Body of `POST /v1/smtp-tls-enforce/validate`: the settings and exactly one certificate source. */
export const smtpTlsValidateBody = z
  .object({
    serverHostname: mailNameField(serverHostnameRequiredMessage).describe(
      'The host name the client connects to: its reference identifier (RFC 7817 §3)',
    ),
    emailDomain: mailNameField(emailDomainRequiredMessage).describe(
      'The domain of the user’s address: the reference identifier of SRV-IDs (RFC 7817 §3)',
    ),
    serviceType: serviceTypeField,
    port: portField.optional().describe('Default: the service’s port; 25 is MTA relay, outside RFC 7817'),
    includeSRV: z
      .boolean()
      .default(false)
      .describe('The client found the server through SRV records (RFC 6186): SRV-IDs are checked'),
    certificateInfo: smtpTlsCertificateInfoSchema.optional(),
    pem: z
      .string()
      .max(smtpTlsPemMaxLength, `Certificate is too long: at most ${smtpTlsPemMaxLength} characters`)
      .optional()
      .describe('The server certificate as PEM (-----BEGIN CERTIFICATE-----), its chain may follow'),
    live: z
      .object({
        host: mailNameField(serverHostnameRequiredMessage).optional().describe('Default: serverHostname'),
        port: portField.optional().describe('Default: the port of the settings'),
      })
      .strict()
      .optional()
      .describe('Fetch the certificate from the server, with STARTTLS where the service uses it'),
  })
  .strict()
  .superRefine((body, context) => {
    const sources = [body.certificateInfo, body.pem, body.live].filter((source) => source !== undefined);
    if (sources.length !== 1) context.addIssue({ code: 'custom', message: smtpTlsSourceMessage });
  });
export type SmtpTlsValidateBody = z.infer<typeof smtpTlsValidateBody>;

export const smtpTlsStatusSchema = z
  .enum(['success', 'warning', 'error'])
  .describe('success: Validation Passed; warning: Passed with Warnings; error: Failed');

const identifierCheckSchema = z.object({
  presented: z.string(),
  normalized: z.string().describe('Lower-case A-label form compared'),
  unicode: z.string().nullable().describe('The Unicode form of an internationalised name'),
  matches: z.boolean(),
  problem: z.string().nullable().describe('Why it can never match, if so'),
});
export type SmtpTlsIdentifierCheck = z.infer<typeof identifierCheckSchema>;

export const smtpTlsCertificateDetailsSchema = z.object({
  subject: z.string(),
  issuer: z.string(),
  notBefore: z.string().nullable(),
  notAfter: z.string().nullable(),
  dnsIds: z.array(z.string()),
  srvIds: z.array(z.string()),
  commonName: z.string().nullable(),
  uriIds: z.array(z.string()).describe('URI-IDs, which RFC 7817 §3 forbids clients to use'),
  ipAddresses: z.array(z.string()),
});
export type SmtpTlsCertificateDetails = z.infer<typeof smtpTlsCertificateDetailsSchema>;

export const smtpTlsValidationSchema = z.object({
  status: smtpTlsStatusSchema,
  validationSummary: z.object({
    dnsIdCompliant: z.boolean().describe('A DNS-ID matches the server hostname (RFC 6125 §6.4)'),
    srvIdCompliant: z
      .boolean()
      .describe('With SRV discovery, an SRV-ID matches _service.emailDomain (RFC 7817 §3); true without'),
    cnIdCompliant: z
      .boolean()
      .describe(
        'The subject CN raises no identity problem: it is absent, it is ignored because the certificate has DNS-IDs or SRV-IDs (RFC 6125 §6.4.4: a client then MUST NOT look at the CN), or, as the only identifier, it names the server hostname',
      ),
    rfc7817Compliant: z.boolean().describe('A client following RFC 7817 §3 accepts the certificate'),
  }),
  issues: z.array(diagnosticSchema),
  warnings: z.array(diagnosticSchema),
  matchedBy: z.enum(['dns-id', 'srv-id', 'cn-id']).nullable(),
  referenceIdentifiers: z.object({
    dnsId: z.string(),
    dnsIdUnicode: z.string().nullable(),
    srvIds: z.array(z.string()),
  }),
  presented: z.object({
    dnsIds: z.array(identifierCheckSchema),
    srvIds: z.array(identifierCheckSchema),
    commonName: identifierCheckSchema.extend({ used: z.boolean() }).nullable(),
  }),
  scope: z.object({
    serviceType: z.enum(smtpTlsServiceTypes),
    port: z.number().int(),
    tls: z.enum(['starttls', 'implicit']),
    coveredByRfc7817: z.boolean().describe('False for MTA relay on port 25: MTA-STS or DANE apply'),
  }),
  source: z.enum(['certificateInfo', 'pem', 'live']),
  certificate: smtpTlsCertificateDetailsSchema.nullable(),
  live: z.object({ host: z.string(), port: z.number().int(), starttls: z.string().nullable() }).nullable(),
});
export type SmtpTlsValidation = z.infer<typeof smtpTlsValidationSchema>;

export const smtpTlsDnsRecordSchema = z.object({
  type: z.enum(['SRV', 'MX', 'TLSA']),
  name: z.string(),
  value: z.string().nullable().describe('Record data; null where it comes from the certificate (TLSA)'),
  zoneLine: z.string().nullable(),
  purpose: z.string(),
  rfc: z.string(),
});

export const smtpTlsGenerationSchema = z.object({
  status: smtpTlsStatusSchema,
  message: z.string(),
  serverHostname: z.string(),
  emailDomain: z.string(),
  serviceType: z.enum(smtpTlsServiceTypes),
  port: z.number().int(),
  tls: z.enum(['starttls', 'implicit']),
  sni: z.string().nullable().describe('The server_name clients send (RFC 6066 §3), or null'),
  certificate: z.object({
    commonName: z.string(),
    dnsIds: z.array(z.string()),
    srvIds: z.array(z.string()),
    opensslConfig: z.string().describe('An OpenSSL request configuration with these names'),
    opensslCommand: z.string(),
  }),
  dnsRecords: z.array(smtpTlsDnsRecordSchema),
  notes: z.array(diagnosticSchema),
});
export type SmtpTlsGeneration = z.infer<typeof smtpTlsGenerationSchema>;

export const smtpTlsInfoBody = z.object({}).strict();

export const smtpTlsInfoSchema = z.object({
  checks: z.array(z.object({ name: z.string(), rfc: z.string(), description: z.string() })),
  services: z.array(
    z.object({
      serviceType: z.enum(smtpTlsServiceTypes),
      label: z.string(),
      port: z.number().int(),
      tls: z.enum(['starttls', 'implicit']),
      srvService: z.string().nullable(),
    }),
  ),
  limits: z.array(z.object({ name: z.string(), value: z.string() })),
});
export type SmtpTlsInfo = z.infer<typeof smtpTlsInfoSchema>;
