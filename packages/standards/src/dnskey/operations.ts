import { defineOperations } from '../core/operation.ts';
import { dnskeyValidateBody, dnskeyValidationResultSchema } from './schema.ts';

/** The DNSKEY tool's operations (docs/architecture.md, "The operation contract"). */
export const dnskeyOperations = defineOperations('dnskey', {
  validate: {
    path: '/validate',
    body: dnskeyValidateBody,
    result: dnskeyValidationResultSchema,
    summary: 'Validate a DNSKEY record',
    description:
      'Parses a DNSKEY record (presentation format, RFC 4034 §2.2) and checks flags, protocol, algorithm ' +
      '(RFC 8624 recommendations) and the public key, and computes the key tag and the DS digests.',
    rateLimit: 'default',
    runsIn: 'both',
  },
});
