import { buildChain, dnskeyOperations, validateDnskey } from '@rfckit/standards';
import { nodeCrypto } from '../../crypto/node-crypto.ts';
import { defineHandlers } from '../contract.ts';

/**
 * DNSKEY record validation (RFC 4034 §2, key tag and DS digests), and the chain of trust of a
 * name from the root trust anchor down (RFC 4035 §5); the logic lives in @rfckit/standards.
 */
export default defineHandlers(dnskeyOperations, {
  validate: (body) => validateDnskey(body.record, { crypto: nodeCrypto }),
  // DNS trouble at any level, our resolver's timeouts included, is the result's `indeterminate`
  // with the query that got no answer: never a 5xx (issue 17)
  chain: ({ domain, type }, { app, signal }) =>
    buildChain(domain, type, {
      resolver: app.net.session().dns,
      crypto: nodeCrypto,
      trustAnchors: app.config.dnssecTrustAnchors,
      signal,
    }),
});
