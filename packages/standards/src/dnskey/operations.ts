import { defineOperations } from '../core/operation.ts';
import { dnssecChainSchema } from '../dnssec/index.ts';
import { dnskeyValidateBody, dnskeyValidationResultSchema, dnssecChainBody } from './schema.ts';

/** The DNSKEY tool's operations (docs/architecture.md, "The operation contract"). */
export const dnskeyOperations = defineOperations('dnskey', {
  validate: {
    path: '/validate',
    body: dnskeyValidateBody,
    result: dnskeyValidationResultSchema,
    summary: 'Validate a DNSKEY record',
    description:
      'Parses a DNSKEY record (presentation format, RFC 4034 §2.2) and checks flags, protocol, algorithm ' +
      '(RFC 8624 recommendations) and the public key, and computes the key tag and the DS digests.',
    rateLimit: 'default',
    runsIn: 'both',
  },
  chain: {
    path: '/chain',
    // the path issue 17 and the API docs give it: the chain is DNSSEC's, not one key's
    aliases: ['/dnssec/chain'],
    body: dnssecChainBody,
    result: dnssecChainSchema,
    summary: 'Validate the DNSSEC chain of trust of a name, from the root down',
    description:
      "Walks from the root trust anchor (IANA's root KSKs, or those of DNSSEC_TRUST_ANCHORS) down to the name: " +
      'for each zone the DS set in the parent, the DNSKEY set and the signatures over both, then the RRset of ' +
      'the type asked for (A by default) with its RRSIGs, or the NSEC/NSEC3 proof that it does not exist. ' +
      "Every signature is verified here, never taken from a resolver's AD bit. The verdict is secure, " +
      'insecure (a proven unsigned delegation), bogus (with the first failure, its reason and fix) or ' +
      'indeterminate (a DNS answer needed could not be had, naming the query) (RFC 4035 §4.3, §5). ' +
      'DNS trouble is never a 5xx.',
    rateLimit: 'default',
    runsIn: 'server',
  },
});
