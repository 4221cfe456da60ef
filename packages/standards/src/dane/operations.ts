import { defineOperations } from '../core/operation.ts';
import {
  daneCertificateBody,
  daneCertificateResultSchema,
  daneCheckBody,
  daneCheckResultSchema,
  daneGenerateBody,
  daneGenerationSchema,
  daneValidateBody,
  daneValidationResultSchema,
} from './schema.ts';

/** The DANE/TLSA tool's operations (docs/architecture.md §3). */
export const daneOperations = defineOperations('dane', {
  validate: {
    path: '/validate',
    body: daneValidateBody,
    result: daneValidationResultSchema,
    summary: 'Validate a TLSA record, optionally against a certificate chain',
    description:
      'Parses a TLSA record (RFC 6698 §2.2), checks its fields, owner name and data length, gives the advice of ' +
      'RFC 7671 and, on port 25, RFC 7672 §3.1; with a PEM chain, says which certificate the record matches.',
    rateLimit: 'default',
    runsIn: 'both',
  },
  generate: {
    path: '/generate',
    body: daneGenerateBody,
    result: daneGenerationSchema,
    summary: 'Generate TLSA records from a certificate chain',
    description:
      'Builds the TLSA records of every usage, selector and matching type from a PEM chain (usages 1 and 3 from ' +
      'the server certificate, 0 and 2 from the chosen CA), with the owner name _port._protocol.host, zone-file ' +
      'lines for the chosen parameters (3 1 1 by default) and rollover advice (RFC 7671 §8).',
    rateLimit: 'generation',
    runsIn: 'both',
  },
  certificate: {
    path: '/certificate',
    body: daneCertificateBody,
    result: daneCertificateResultSchema,
    summary: 'Fetch the certificate chain a server presents',
    description:
      'Connects to host:port (STARTTLS for SMTP on ports 25 and 587 unless told otherwise), completes a TLS ' +
      'handshake and answers the chain the server sent, as PEM, with subjects, issuers and expiry.',
    rateLimit: 'default',
    runsIn: 'server',
  },
  check: {
    path: '/check',
    body: daneCheckBody,
    result: daneCheckResultSchema,
    summary: 'Check a live service against its TLSA records',
    description:
      'For SMTP, looks up the domain’s MX hosts (or the domain itself without MX, RFC 5321 §5.1); for other ' +
      'protocols, the host. For each server: its address and TLSA records (at _port._tcp.host, the CNAME-expanded ' +
      'name first, RFC 7672 §2.2.2) with their DNSSEC status validated from the root, the chain it presents over ' +
      'TLS (STARTTLS where the protocol has it), and the verdict of RFC 7671 §5 and RFC 7672: pass, fail (senders ' +
      'must not deliver) or not applicable, with reasons, fixes and rollover readiness (RFC 7671 §8).',
    rateLimit: 'default',
    runsIn: 'server',
  },
});
