import { defineOperations } from '../core/operation.ts';
import {
  smtpTlsGenerateBody,
  smtpTlsGenerationSchema,
  smtpTlsInfoBody,
  smtpTlsInfoSchema,
  smtpTlsValidateBody,
  smtpTlsValidationSchema,
} from './schema.ts';

/** The SMTP TLS server identity tool's operations (docs/architecture.md §3), at the spec's paths too. */
export const smtpTlsOperations = defineOperations('smtp-tls', {
  info: {
    path: '/info',
    method: 'GET',
    aliases: ['/smtp-tls-enforce/info'],
    body: smtpTlsInfoBody,
    result: smtpTlsInfoSchema,
    summary: 'What the SMTP TLS identity check covers, and its limits',
    description:
      'The rules this server applies (RFC 7817 §3 with RFC 6125 §6), the mail services with their ports, TLS mode ' +
      'and SRV names (RFC 6186, RFC 8314, RFC 5804), and the limits of a check: identifiers read, PEM size, time ' +
      'allowed for a live handshake.',
    rateLimit: 'default',
    runsIn: 'server',
  },
  generate: {
    path: '/generate',
    aliases: ['/smtp-tls-enforce/generate'],
    body: smtpTlsGenerateBody,
    result: smtpTlsGenerationSchema,
    summary: 'The certificate names and DNS records a mail service needs',
    description:
      'For a mail server name, the users’ email domain and a service (submission, IMAP, POP3, ManageSieve): the ' +
      'DNS-IDs and SRV-IDs the certificate needs for RFC 7817 clients, an OpenSSL request configuration with them, ' +
      'the SRV records (RFC 6186, RFC 8314 §5.1), the MX record for relay on port 25 and the TLSA owner name.',
    rateLimit: 'generation',
    runsIn: 'both',
  },
  validate: {
    path: '/validate',
    aliases: ['/smtp-tls-enforce/validate'],
    body: smtpTlsValidateBody,
    result: smtpTlsValidationSchema,
    summary: 'Check a mail server certificate against the RFC 7817 identity rules',
    description:
      'Takes the certificate as its identifiers (certificateInfo), as PEM, or fetched live from the server with ' +
      'STARTTLS where the service uses it (587, 143, 110, 4190) or implicit TLS (465, 993, 995). Applies RFC 7817 §3 ' +
      'and RFC 6125 §6: DNS-ID against the server hostname (exact or a left-most wildcard label, IDNs as A-labels), ' +
      'SRV-ID against _service.emailDomain with SRV discovery, CN-ID only without either. Answers status, ' +
      'validationSummary, issues and warnings with the RFC section and fix.',
    rateLimit: 'default',
    runsIn: 'both',
  },
});
