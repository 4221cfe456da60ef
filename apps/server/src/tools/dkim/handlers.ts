import {
  discoverDkimSelectors,
  dkimOperations,
  generateDkimRecord,
  lookupDkimKey,
  validateDkimRecord,
} from '@rfckit/standards';
import { resultOf } from '../outcome.ts';
import { lookupFailed, unlessResolverFailed } from '../could-not-check.ts';
import { defineHandlers } from '../contract.ts';
import { verifyMessage } from './verify-message.ts';

/** Time for one key lookup, retries included; DNS failures become results, not 5xx. */
const DNS_BUDGET_MS = 6000;
/** Time for probing every common selector; unasked ones are listed as unchecked. */
const DISCOVERY_BUDGET_MS = 8000;
const DISCOVERY_CONCURRENCY = 8;
/** Time for every key lookup of one message together. */
const VERIFY_BUDGET_MS = 8000;

/** DKIM key records and message signatures (RFC 6376, RFC 8301, RFC 8463). */
export default defineHandlers(dkimOperations, {
  generate: (body) => resultOf(generateDkimRecord(body)),
  validate: (body) => validateDkimRecord(body.record),
  dns: async (body, { app }) => {
    const { dns } = app.net.session({ dns: { budgetMs: DNS_BUDGET_MS } });
    return resultOf(await unlessResolverFailed(dns, lookupDkimKey(body, dns)));
  },
  selectors: async (body, { app }) => {
    const { dns } = app.net.session({ dns: { budgetMs: DISCOVERY_BUDGET_MS } });
    const discovery = discoverDkimSelectors(body.domain, dns, {
      concurrency: DISCOVERY_CONCURRENCY,
      budgetMs: DISCOVERY_BUDGET_MS,
    });
    // a partial answer still names the keys found; with no selector answered, we could not check
    return resultOf(
      await unlessResolverFailed(
        dns,
        discovery,
        (outcome, failed) =>
          outcome.ok &&
          outcome.result.found.length === 0 &&
          outcome.result.failed.length > 0 &&
          outcome.result.failed.length + outcome.result.unchecked.length === outcome.result.probed &&
          outcome.result.failed.every(({ selector }) =>
            lookupFailed(failed, `${selector}._domainkey.${outcome.result.domain}`),
          ),
      ),
    );
  },
  verifyMessage: async (body, { app }) => {
    const { dns } = app.net.session({ dns: { budgetMs: VERIFY_BUDGET_MS } });
    // one verified signature is a pass whatever the others' keys; without one, a key we could not
    // look up leaves the verdict open (RFC 6376 §6.1.2: TEMPFAIL)
    return unlessResolverFailed(
      dns,
      verifyMessage(body.message, { resolver: dns }),
      // only when no signature has a verdict of its own: a permerror or fail beside it still stands,
      // and the signature whose key went unanswered is shown as not checked
      (result, failed) =>
        result.signatures.length > 0 &&
        result.signatures.every(
          (signature) => signature.result === 'temperror' && lookupFailed(failed, signature.key?.dnsName),
        ),
    );
  },
});
