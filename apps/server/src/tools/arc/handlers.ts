import { arcOperations, normaliseDkimName, type ArcValidateResult } from '@rfckit/standards';
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
    return unlessResolverFailed(dns, validateArc(record, domain, { resolver: dns }), chainRestsOnUnanswered);
  },
  generate: async (body, { app }) => {
    const { dns } = app.net.session({ dns: { budgetMs: GENERATE_BUDGET_MS } });
    // sealing a message with a chain writes cv= from that chain's validation (RFC 8617 §5.1.1):
    // cv=fail on keys our resolver never answered for would be a false seal, so it is not written
    let existingChain: ArcValidateResult | undefined;
    const outcome = await unlessResolverFailed(
      dns,
      sealMessage(body, { resolver: dns, onChainValidated: (validation) => (existingChain = validation) }),
      (_, failed) => existingChain !== undefined && chainRestsOnUnanswered(existingChain, failed),
    );
    return resultOf(outcome);
  },
});

/**
 * Whether a chain's verdict rests only on key lookups our resolver left unanswered: every other
 * seal and signature passed, so a real failure elsewhere in the chain still stands.
 */
function chainRestsOnUnanswered(result: ArcValidateResult, failed: ReadonlySet<string>): boolean {
  if (result.chain.result === 'pass') return false;
  const verdicts = result.sets.flatMap(({ seal, messageSignature }) => [seal, messageSignature]);
  const unanswered = (verdict: (typeof verdicts)[number]) =>
    verdict.result === 'temperror' && lookupFailed(failed, verdict.dnsName);
  return (
    verdicts.some(unanswered) && verdicts.every((verdict) => verdict.result === 'pass' || unanswered(verdict))
  );
}
