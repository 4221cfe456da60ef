import { arcOperations, normaliseDkimName } from '@rfckit/standards';
import { HttpError } from '../../plugins/errors.ts';
import { defineHandlers } from '../contract.ts';
import { resultOf } from '../outcome.ts';
import { lookupFailed, unlessResolverFailed } from '../could-not-check.ts';
import { sealMessage } from './seal.ts';
import { validateArc } from './validate.ts';

/** Time for every key lookup of one chain together; DNS failures become results, not 5xx. */
const VALIDATE_BUDGET_MS = 8000;
/** Time for the key lookups of the chain already on a message that is being sealed. */
const GENERATE_BUDGET_MS = 8000;

/** ARC (RFC 8617): chain validation and sealing; the parsing and diagnostics live in @rfckit/standards. */
export default defineHandlers(arcOperations, {
  validate: ({ record, domain }, { app }) => {
    // the domain is compared with each seal's d=, which is a domain name (RFC 6376 §3.5)
    if (!normaliseDkimName(domain)) {
      throw new HttpError(
        400,
        'VALIDATION_ERROR',
        `'${domain.trim().slice(0, 80)}' is not a valid domain name`,
      );
    }
    const { dns } = app.net.session({ dns: { budgetMs: VALIDATE_BUDGET_MS } });
    // a chain that fails on a key our resolver did not answer for has no verdict (RFC 8617 §5.2
    // takes DKIM's key lookup, whose temporary failure is TEMPFAIL: RFC 6376 §6.1.2)
    return unlessResolverFailed(
      dns,
      validateArc(record, domain, { resolver: dns }),
      // only when the chain's verdict rests on those lookups alone: every other seal and signature
      // passed, so a real failure elsewhere in the chain still stands
      (result, failed) => {
        if (result.chain.result === 'pass') return false;
        const verdicts = result.sets.flatMap(({ seal, messageSignature }) => [seal, messageSignature]);
        const unanswered = (verdict: (typeof verdicts)[number]) =>
          verdict.result === 'temperror' && lookupFailed(failed, verdict.dnsName);
        return (
          verdicts.some(unanswered) &&
          verdicts.every((verdict) => verdict.result === 'pass' || unanswered(verdict))
        );
      },
    );
  },
  generate: async (body, { app }) => {
    const resolver = app.net.session({ dns: { budgetMs: GENERATE_BUDGET_MS } }).dns;
    return resultOf(await sealMessage(body, { resolver }));
  },
});
