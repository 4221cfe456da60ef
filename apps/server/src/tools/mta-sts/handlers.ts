import {
  generateMtaSts,
  mtaStsOperations,
  validateMtaStsPolicy,
  validateMtaStsRecord,
} from '@rfckit/standards';
import { defineHandlers } from '../contract.ts';
import { resultOf } from '../outcome.ts';
import { checkMtaSts } from './check.ts';

/** The record, the policy host's and every MX host's addresses: a few lookups, mostly at once. */
const CHECK_DNS_BUDGET_MS = 15_000;

/**
 * MTA-STS (RFC 8461): the record and policy generator, and the validator of a pasted policy file or
 * _mta-sts TXT record (pure; the page may run them itself), and the live check of a domain.
 */
export default defineHandlers(mtaStsOperations, {
  generate: (body) => resultOf(generateMtaSts(body)),
  validate: ({ kind, text }) =>
    kind === 'record' ? { kind, ...validateMtaStsRecord(text) } : { kind, ...validateMtaStsPolicy(text) },
  check: (body, { app, signal }) =>
    checkMtaSts(body, { net: app.net.session({ dns: { budgetMs: CHECK_DNS_BUDGET_MS } }), signal }),
});
