import { defineOperations } from '../core/operation.ts';
import {
  mtaStsGenerateBody,
  mtaStsGenerateResultSchema,
  mtaStsValidateBody,
  mtaStsValidationResultSchema,
} from './schema.ts';

/** The MTA-STS tool's operations (RFC 8461). */
export const mtaStsOperations = defineOperations('mta-sts', {
  generate: {
    path: '/generate',
    body: mtaStsGenerateBody,
    result: mtaStsGenerateResultSchema,
    summary: 'Generate an MTA-STS record and policy',
    description:
      'Builds the _mta-sts TXT record (v=STSv1; id=…, the id given or the UTC date and time as YYYYMMDDhhmmss) ' +
      'and the policy file (version STSv1, mode, one mx line per non-blank pattern, max_age; CRLF line endings), ' +
      'with the hosting steps: https://mta-sts.{domain}/.well-known/mta-sts.txt, text/plain, a certificate valid ' +
      'for mta-sts.{domain}. Defaults: mode enforce, max_age 604800. 400 when the domain or an mx pattern is not ' +
      'usable, or enforce/testing has no mx.',
    rateLimit: 'generation',
    runsIn: 'both',
  },
  validate: {
    path: '/validate',
    body: mtaStsValidateBody,
    result: mtaStsValidationResultSchema,
    summary: 'Validate an MTA-STS policy file or TXT record',
    description:
      'With kind policy (the default): checks the text of mta-sts.txt against RFC 8461 §3.2 (version, mode, ' +
      'max_age 0..31557600 in digits, mx patterns, duplicate and unknown fields). With kind record: checks the ' +
      '_mta-sts TXT value against RFC 8461 §3.1 (v=STSv1 first, id of 1-32 letters or digits). Each diagnostic ' +
      'has a stable code, the RFC section, its requirement level and a fix.',
    rateLimit: 'default',
    runsIn: 'both',
  },
});
