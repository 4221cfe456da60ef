import { defineOperations } from '../core/operation.ts';
import { arcGenerateBody, arcGenerateResultSchema } from './generate-schema.ts';
import { arcValidateBody, arcValidateResultSchema } from './validate-schema.ts';

/** JSON escaping can double a 1 MiB paste (every CRLF is `\r\n`); the field cap is checked on the decoded text. */
const ARC_BODY_LIMIT = 3 * 1024 * 1024;

/** The ARC tool's operations (RFC 8617): chain validation and sealing. */
export const arcOperations = defineOperations('arc', {
  validate: {
    path: '/validate',
    body: arcValidateBody,
    result: arcValidateResultSchema,
    summary: 'Validate an ARC chain',
    description:
      'Validates the ARC sets of pasted header fields or a whole message as RFC 8617 §5.2 does: at most 50 sets, ' +
      'the newest cv=, one ARC-Seal, ARC-Message-Signature and ARC-Authentication-Results per instance 1..N, ' +
      'cv=none at i=1 and pass after, the tag syntax, the newest ARC-Message-Signature and every ARC-Seal, with ' +
      'keys fetched through the guarded DNS client. RFC 8301 applies: rsa-sha1 and RSA keys under 1024 bits fail. ' +
      '`chain.result` is the cv the next sealer would write; `sets` gives each seal and AMS result with its reason ' +
      'and key size. The body hash is checked against the pasted body, so paste the whole message for the AMS.',
    rateLimit: 'default',
    runsIn: 'server',
    bodyLimit: ARC_BODY_LIMIT,
  },
  generate: {
    path: '/generate',
    body: arcGenerateBody,
    result: arcGenerateResultSchema,
    summary: 'Seal a message with the next ARC set',
    description:
      'Adds an ARC set to a message (RFC 8617 §5.1): i= is the highest existing instance + 1, cv= comes from ' +
      'validating the existing chain with keys from the guarded DNS client, the ARC-Authentication-Results ' +
      'consolidate the Authentication-Results of the authserv-id (default: the domain), the ' +
      'ARC-Message-Signature signs the chosen header fields and the body (c=, l=), and the ARC-Seal signs the ARC ' +
      "sets with relaxed canonicalization (only its own set when cv=fail). Fields use the ARC signing suite's " +
      'standardized format. Without `privateKey` a fresh key (RSA 2048 or Ed25519) is generated and returned once ' +
      'as PKCS#8 PEM with the DKIM key record to publish. A chain whose newest seal says cv=fail is not sealed ' +
      'again (422). rsa-sha1 is signed only with a MUST NOT warning (RFC 8301).',
    rateLimit: 'generation',
    runsIn: 'server',
    bodyLimit: ARC_BODY_LIMIT,
  },
});
