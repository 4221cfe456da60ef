import { defineOperations } from '../core/operation.ts';
import {
  dmarcGenerateBody,
  dmarcGenerateResultSchema,
  dmarcValidateBody,
  dmarcValidationResultSchema,
} from './schema.ts';

/** The DMARC tool's operations (RFC 9989, with RFC 7489 readings). */
export const dmarcOperations = defineOperations('dmarc', {
  generate: {
    path: '/generate',
    body: dmarcGenerateBody,
    result: dmarcGenerateResultSchema,
    summary: 'Generate a DMARC record',
    description:
      'Writes the TXT value by the generator rules: v=DMARC1 and p always; sp only when not none; aspf and ' +
      'adkim only when not r; pct only when not 100; rua and ruf as mailto: lists without blanks; ri, rf and ' +
      'fo only when not their defaults (86400, afrf, 0); np, t=y and psd when given. `name` is _dmarc.{domain}. ' +
      '`diagnostics` carry guidance and mark pct, ri and rf as removed in RFC 9989.',
    rateLimit: 'generation',
    runsIn: 'both',
  },
  validate: {
    path: '/validate',
    body: dmarcValidateBody,
    result: dmarcValidationResultSchema,
    summary: 'Validate a DMARC record or a domain',
    description:
      'With `record`: checks the record against RFC 9989 (and notes RFC 7489 readings). With `domain`: ' +
      'discovers the policy by the RFC 9989 DNS tree walk (at most 8 queries), shows what RFC 7489 receivers ' +
      'find with the Public Suffix List, checks the record found and its external report destinations ' +
      '(<domain>._report._dmarc.<host>). With both: the record is checked as if published at _dmarc.<domain>. ' +
      'A domain without DMARC is a result (valid false), not an error.',
    rateLimit: 'validation',
    runsIn: 'server',
    // 503 when our DNS resolver did not answer: we could not check
    remoteFailures: true,
  },
});
