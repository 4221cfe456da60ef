import {
  arcGenerateBody,
  arcGenerateResultSchema,
  arcValidateBody,
  arcValidateResultSchema,
  normaliseDkimName,
} from '@rfckit/standards';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sealMessage } from '../../arc/seal.ts';
import { validateArc } from '../../arc/validate.ts';
import { errorEnvelopeSchema, HttpError, successEnvelope } from '../../plugins/errors.ts';

/** Time for every key lookup of one chain together; DNS failures become results, not 5xx. */
const VALIDATE_BUDGET_MS = 8000;
/** JSON escaping can double a 1 MiB paste (every CRLF is `\r\n`); the field cap is checked on the decoded text. */
const VALIDATE_BODY_LIMIT = 3 * 1024 * 1024;
/** Time for the key lookups of the chain already on a message that is being sealed. */
const GENERATE_BUDGET_MS = 8000;
/** As for validate: the 1 MiB message cap is checked on the decoded message (400), not the JSON. */
const GENERATE_BODY_LIMIT = 3 * 1024 * 1024;

/** ARC (RFC 8617): chain validation and sealing; the parsing and diagnostics live in @rfckit/standards. */
const arc: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/arc/validate',
    {
      bodyLimit: VALIDATE_BODY_LIMIT,
      schema: {
        tags: ['ARC'],
        summary: 'Validate an ARC chain',
        description:
          'Validates the ARC sets of pasted header fields or a whole message as RFC 8617 §5.2 does: at most 50 sets, ' +
          'the newest cv=, one ARC-Seal, ARC-Message-Signature and ARC-Authentication-Results per instance 1..N, ' +
          'cv=none at i=1 and pass after, the tag syntax, the newest ARC-Message-Signature and every ARC-Seal, with ' +
          'keys fetched through the guarded DNS client. RFC 8301 applies: rsa-sha1 and RSA keys under 1024 bits fail. ' +
          '`chain.result` is the cv the next sealer would write; `sets` gives each seal and AMS result with its reason ' +
          'and key size. The body hash is checked against the pasted body, so paste the whole message for the AMS.',
        body: arcValidateBody,
        response: { 200: successEnvelope(arcValidateResultSchema), '4xx': errorEnvelopeSchema },
      },
    },
    async (request) => {
      const resolver = app.net.session({ dns: { budgetMs: VALIDATE_BUDGET_MS } }).dns;
      const { record, domain } = request.body;
      // the domain is compared with each seal's d=, which is a domain name (RFC 6376 §3.5)
      if (!normaliseDkimName(domain)) {
        throw new HttpError(
          400,
          'VALIDATION_ERROR',
          `'${domain.trim().slice(0, 80)}' is not a valid domain name`,
        );
      }
      return { success: true as const, data: await validateArc(record, domain, { resolver }) };
    },
  );

  app.post(
    '/arc/generate',
    {
      bodyLimit: GENERATE_BODY_LIMIT,
      schema: {
        tags: ['ARC'],
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
        body: arcGenerateBody,
        response: { 200: successEnvelope(arcGenerateResultSchema), '4xx': errorEnvelopeSchema },
      },
    },
    async (request) => {
      const resolver = app.net.session({ dns: { budgetMs: GENERATE_BUDGET_MS } }).dns;
      const outcome = await sealMessage(request.body, { resolver });
      if (!outcome.ok) throw new HttpError(outcome.status, outcome.code, outcome.error);
      return { success: true as const, data: outcome.result };
    },
  );
};

export default arc;
