import {
  generateMtaSts,
  mtaStsOperations,
  validateMtaStsPolicy,
  validateMtaStsRecord,
} from '@rfckit/standards';
import { defineHandlers } from '../contract.ts';
import { resultOf } from '../outcome.ts';

/**
 * MTA-STS (RFC 8461): the record and policy generator, and the validator of a pasted policy file or
 * _mta-sts TXT record. Both are pure; the page may run them itself (runsIn 'both').
 */
export default defineHandlers(mtaStsOperations, {
  generate: (body) => resultOf(generateMtaSts(body)),
  validate: ({ kind, text }) =>
    kind === 'record' ? { kind, ...validateMtaStsRecord(text) } : { kind, ...validateMtaStsPolicy(text) },
});
