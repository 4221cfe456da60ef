import {
  dkimGenerateBody,
  dkimGenerateResultSchema,
  dkimValidateBody,
  dkimValidationResultSchema,
  generateDkimRecord,
  validateDkimRecord,
} from '@rfckit/standards';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema, HttpError, successEnvelope } from '../../plugins/errors.ts';

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
};

export default dkim;
