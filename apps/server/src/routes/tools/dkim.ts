import {
  discoverDkimSelectors,
  dkimDnsBody,
  dkimDnsResultSchema,
  dkimMessageMaxBytes,
  dkimVerifyMessageBody,
  dkimVerifyMessageResultSchema,
  dkimSelectorDiscoverySchema,
  dkimSelectorsBody,
  dkimGenerateBody,
  dkimGenerateResultSchema,
  dkimValidateBody,
  dkimValidationResultSchema,
  generateDkimRecord,
  lookupDkimKey,
  validateDkimRecord,
} from '@rfckit/standards';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { verifyMessage } from '../../dkim/verify-message.ts';
import { errorEnvelopeSchema, HttpError, successEnvelope } from '../../plugins/errors.ts';

/** Time for one key lookup, retries included; DNS failures become results, not 5xx. */
const DNS_BUDGET_MS = 6000;
/** Time for probing every common selector; unasked ones are listed as unchecked. */
const DISCOVERY_BUDGET_MS = 8000;
const DISCOVERY_CONCURRENCY = 8;
/** Time for every key lookup of one message together. */
const VERIFY_BUDGET_MS = 8000;
/**
 * JSON escaping can more than double a message (every CRLF is `\r\n`), so the body may be larger
 * than the message cap; the cap itself is checked on the decoded message (400).
 */
const VERIFY_BODY_LIMIT = 3 * dkimMessageMaxBytes;

/** DKIM key records (RFC 6376 §3.6.1, RFC 8301, RFC 8463); the logic lives in @rfckit/standards. */
const dkim: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/dkim/generate',
    {
      schema: {
        tags: ['DKIM'],
        summary: 'Generate a DKIM key record',
        description:
          'Builds the TXT record for a public key (base64 or PEM; the private key never comes here) and ' +
          'publishes it at `selector._domainkey.domain`. Also returns the record as 255-character strings and ' +
          'a zone-file line, and the a= and c= a signer should use. rsa-sha1 is accepted only with a ' +
          'MUST NOT warning (RFC 8301 §3.1); keys a verifier would reject (RSA under 1024 bits) are refused.',
        body: dkimGenerateBody,
        response: { 200: successEnvelope(dkimGenerateResultSchema), '4xx': errorEnvelopeSchema },
      },
    },
    async (request) => {
      const outcome = generateDkimRecord(request.body);
      if (!outcome.ok) throw new HttpError(400, 'VALIDATION_ERROR', outcome.error);
      return { success: true as const, data: outcome.result };
    },
  );

  app.post(
    '/dkim/validate',
    {
      schema: {
        tags: ['DKIM'],
        summary: 'Validate a DKIM key record',
        description:
          'Checks a key record: the bare TXT value, its quoted strings, or a zone-file line (strings are ' +
          'joined first). Reads and measures the key; a revoked key (empty p=) is not valid and ' +
          '`parsed.status` says revoked.',
        body: dkimValidateBody,
        response: { 200: successEnvelope(dkimValidationResultSchema), '4xx': errorEnvelopeSchema },
      },
    },
    async (request) => ({ success: true as const, data: validateDkimRecord(request.body.record) }),
  );

  app.post(
    '/dkim/dns',
    {
      schema: {
        tags: ['DKIM'],
        summary: 'Look up and validate a published DKIM key',
        description:
          'Queries the TXT record at `selector._domainkey.domain` through the guarded DNS client, follows CNAME ' +
          'delegation, joins split strings and validates the record. `status` is valid, invalid, revoked, ' +
          'not-found (NXDOMAIN or no TXT data) or error (SERVFAIL, timeout): a DNS failure is a result, not an ' +
          'HTTP error. Several key records at one name are an error; other TXT records are ignored with a note.',
        body: dkimDnsBody,
        response: { 200: successEnvelope(dkimDnsResultSchema), '4xx': errorEnvelopeSchema },
      },
    },
    async (request) => {
      const outcome = await lookupDkimKey(
        request.body,
        app.net.session({ dns: { budgetMs: DNS_BUDGET_MS } }).dns,
      );
      if (!outcome.ok) throw new HttpError(400, 'VALIDATION_ERROR', outcome.error);
      return { success: true as const, data: outcome.result };
    },
  );

  app.post(
    '/dkim/selectors',
    {
      schema: {
        tags: ['DKIM'],
        summary: 'Find DKIM selectors of a domain',
        description:
          'Probes a list of selectors that mail providers use by default (Google, Microsoft 365, Mailchimp, ' +
          'SendGrid, Amazon SES, Proton, Fastmail …) in parallel and lists those with a key record, with key type ' +
          'and size. DKIM cannot list selectors, so a key under any other name is not found.',
        body: dkimSelectorsBody,
        response: { 200: successEnvelope(dkimSelectorDiscoverySchema), '4xx': errorEnvelopeSchema },
      },
    },
    async (request) => {
      const outcome = await discoverDkimSelectors(
        request.body.domain,
        app.net.session({ dns: { budgetMs: DISCOVERY_BUDGET_MS } }).dns,
        { concurrency: DISCOVERY_CONCURRENCY, budgetMs: DISCOVERY_BUDGET_MS },
      );
      if (!outcome.ok) throw new HttpError(400, 'VALIDATION_ERROR', outcome.error);
      return { success: true as const, data: outcome.result };
    },
  );

  app.post(
    '/dkim/verify-message',
    {
      bodyLimit: VERIFY_BODY_LIMIT,
      schema: {
        tags: ['DKIM'],
        summary: 'Verify the DKIM signatures of a message',
        description:
          'Verifies every DKIM-Signature of a raw message (RFC 6376 §6), fetching each key through the guarded ' +
          'DNS client, and reports per signature d, s, a, c, the signed header fields, the body-hash match, the ' +
          'key (type, size and the key record validator findings), t= and x=, and the result ' +
          '(pass, fail, neutral, temperror, permerror, policy) with the reason. RFC 8301 applies: rsa-sha1 and ' +
          'RSA keys under 1024 bits fail. A message without DKIM-Signature gives no signatures and summary none. ' +
          'Messages over 5 MiB are refused.',
        body: dkimVerifyMessageBody,
        response: { 200: successEnvelope(dkimVerifyMessageResultSchema), '4xx': errorEnvelopeSchema },
      },
    },
    async (request) => {
      const resolver = app.net.session({ dns: { budgetMs: VERIFY_BUDGET_MS } }).dns;
      return { success: true as const, data: await verifyMessage(request.body.message, { resolver }) };
    },
  );
};

export default dkim;
