import { dnskeyValidateBody, dnskeyValidationResultSchema, validateDnskey } from '@rfckit/standards';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { nodeCrypto } from '../../crypto/node-crypto.ts';
import { errorEnvelopeSchema, successEnvelope } from '../../plugins/errors.ts';

/** DNSKEY record validation (RFC 4034 §2, key tag and DS digests); the logic lives in @rfckit/standards. */
const dnskey: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/dnskey/validate',
    {
      schema: {
        tags: ['DNSKEY'],
        summary: 'Validate a DNSKEY record',
        body: dnskeyValidateBody,
        response: { 200: successEnvelope(dnskeyValidationResultSchema), '4xx': errorEnvelopeSchema },
      },
    },
    async (request) => ({
      success: true as const,
      data: await validateDnskey(request.body.record, { crypto: nodeCrypto }),
    }),
  );
};

export default dnskey;
