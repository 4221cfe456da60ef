import { defineOperations } from '../core/operation.ts';
import {
  daneCertificateBody,
  daneCertificateResultSchema,
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
});
