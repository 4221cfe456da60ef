import { z } from 'zod';
import { domainField, hostField } from '../core/domain-field.ts';
import { diagnosticSchema } from '../core/schema.ts';

/** The ports the inspector speaks on: relay (25), submission (587, RFC 6409) and submissions (465, RFC 8314). */
export const smtpInspectorPorts = [25, 587, 465] as const;
export type SmtpInspectorPort = (typeof smtpInspectorPorts)[number];
export const smtpPortMessage = 'Port must be 25, 587 or 465';

/** Body of `POST /v1/smtp-session-inspector/mx`. */
export const smtpMxBody = z
  .object({ domain: domainField().describe('Mail domain whose MX hosts to list') })
  .strict();
export type SmtpMxBody = z.input<typeof smtpMxBody>;

/** Body of `POST /v1/smtp-session-inspector/inspect`. */
export const smtpInspectBody = z
  .object({
    host: hostField().describe('Mail server to talk to: an MX host name or an IP address'),
    port: z
      .number({ error: smtpPortMessage })
      .refine((value) => (smtpInspectorPorts as readonly number[]).includes(value), smtpPortMessage)
      .default(25)
      .describe('25 (STARTTLS, server to server), 587 (STARTTLS, submission) or 465 (implicit TLS)'),
    domain: domainField()
      .optional()
      .describe('The mail domain the host serves, shown with the result; not used to connect'),
  })
  .strict();
export type SmtpInspectBody = z.input<typeof smtpInspectBody>;

export const smtpMxHostSchema = z.object({
  preference: z.number().int(),
  host: z.string().describe('Lower-case, no trailing dot'),
  implicit: z.boolean().describe('No MX records: the domain itself is the mail host (RFC 5321 §5.1)'),
  addresses: z.array(z.string()).describe('A then AAAA'),
  cnameTarget: z.string().nullable().describe('The MX name is an alias of this name (RFC 2181 §10.3)'),
  problem: z.string().nullable(),
});

export const smtpMxResultSchema = z.object({
  domain: z.string(),
  nullMx: z.boolean().describe('A single "0 ." MX: the domain accepts no mail (RFC 7505)'),
  hosts: z.array(smtpMxHostSchema).describe('By preference, then name; at most 10'),
  dnsError: z.string().nullable(),
  omittedHosts: z.number().int().nonnegative().describe('MX hosts beyond the first 10, not looked at'),
  diagnostics: z.array(diagnosticSchema),
});
export type SmtpMxResult = z.infer<typeof smtpMxResultSchema>;

export const smtpStepKinds = ['connect', 'banner', 'ehlo', 'starttls', 'tls', 'ehlo-tls', 'quit'] as const;

export const smtpStepSchema = z.object({
  kind: z.enum(smtpStepKinds),
  sent: z.string().nullable().describe('The command line sent; null for connect, banner and tls'),
  reply: z.array(z.string()).describe('Reply lines as received, without CRLF'),
  code: z.number().int().nullable(),
  startedMs: z.number().nonnegative().describe('Milliseconds since the session started'),
  durationMs: z.number().nonnegative(),
  ok: z.boolean(),
  error: z.string().nullable(),
});
export type SmtpStepView = z.infer<typeof smtpStepSchema>;

export const smtpCertificateSchema = z.object({
  subject: z.string(),
  issuer: z.string(),
  notBefore: z.string(),
  notAfter: z.string(),
  dnsNames: z.array(z.string()),
  pem: z.string(),
});

export const smtpTlsSchema = z.object({
  version: z.string(),
  cipher: z.string(),
  servername: z.string().nullable(),
  chain: z.array(smtpCertificateSchema).describe('As the server sent it, leaf first'),
  trusted: z.boolean(),
  trustError: z.string().nullable(),
  nameMatches: z.boolean(),
  expired: z.boolean(),
});

export const smtpLimitsSchema = z.object({
  connectMs: z.number().int(),
  bannerMs: z.number().int(),
  replyMs: z.number().int(),
  handshakeMs: z.number().int(),
  sessionMs: z.number().int(),
});
export type SmtpLimits = z.infer<typeof smtpLimitsSchema>;

export const smtpSessionSchema = z.object({
  host: z.string(),
  port: z.number().int(),
  address: z.string().nullable(),
  mode: z.enum(['starttls', 'implicit']),
  steps: z.array(smtpStepSchema),
  extensions: z.array(z.string()).describe('EHLO keywords, upper-case, with parameters'),
  extensionsAfterTls: z.array(z.string()).nullable(),
  starttlsAdvertised: z.boolean(),
  tls: smtpTlsSchema.nullable(),
  completed: z.boolean(),
});
export type SmtpSessionView = z.infer<typeof smtpSessionSchema>;

export const smtpInspectResultSchema = smtpSessionSchema.extend({
  domain: z.string().nullable(),
  limits: smtpLimitsSchema.describe('The time limits the session ran under'),
  deviations: z.array(diagnosticSchema).describe('Departures from RFC 5321, 3207 and 8314, each with a fix'),
});
export type SmtpInspectResult = z.infer<typeof smtpInspectResultSchema>;
