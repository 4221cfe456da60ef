import {
  discoverDkimSelectors,
  dkimOperations,
  generateDkimRecord,
  lookupDkimKey,
  validateDkimRecord,
} from '@rfckit/standards';
import { resultOf } from '../outcome.ts';
import { unlessResolverFailed } from '../could-not-check.ts';
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
  selectors: async (body, { app }) =>
    resultOf(
      await discoverDkimSelectors(
        body.domain,
        app.net.session({ dns: { budgetMs: DISCOVERY_BUDGET_MS } }).dns,
        {
          concurrency: DISCOVERY_CONCURRENCY,
          budgetMs: DISCOVERY_BUDGET_MS,
        },
      ),
    ),
  verifyMessage: (body, { app }) =>
    verifyMessage(body.message, { resolver: app.net.session({ dns: { budgetMs: VERIFY_BUDGET_MS } }).dns }),
});
