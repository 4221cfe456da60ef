import { daneOperations, generateTlsa, validateTlsaWithChain } from '@rfckit/standards';
import { nodeCrypto } from '../../crypto/node-crypto.ts';
import { defineHandlers } from '../contract.ts';
import { resultOf } from '../outcome.ts';
import { fetchPresentedChain } from '../../tls/presented-chain.ts';
import { checkDane } from './check.ts';

/** Every MX host's chains of trust for its MX, A, AAAA and TLSA answers, mostly from the session's cache. */
const CHECK_DNS_BUDGET_MS = 20_000;

/** DANE/TLSA: record checks, record generation (logic in @rfckit/standards), the chain a server presents and the live check. */
export default defineHandlers(daneOperations, {
  validate: (body) => validateTlsaWithChain(body, nodeCrypto),
  generate: async (body) => resultOf(await generateTlsa(body, nodeCrypto)),
  certificate: (body, { app, signal }) => fetchPresentedChain(app.net.session(), body, signal),
  check: (body, { app, signal }) =>
    checkDane(body, {
      net: app.net.session({ dns: { budgetMs: CHECK_DNS_BUDGET_MS } }),
      trustAnchors: app.config.dnssecTrustAnchors,
      signal,
    }),
});
