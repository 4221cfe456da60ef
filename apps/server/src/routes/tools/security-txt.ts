import {
  generateSecurityTxt,
  securityTxtGenerateBody,
  securityTxtGenerateResultSchema,
  securityTxtValidateBody,
  securityTxtValidationResultSchema,
  validateSecurityTxt,
} from '@rfckit/standards';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { openPgpVerifier } from '../../crypto/openpgp-verifier.ts';
import { errorEnvelopeSchema, HttpError, successEnvelope } from '../../plugins/errors.ts';

/**
 * security.txt (RFC 9116): generate a file from the form, validate a pasted one. The logic lives
 * in @rfckit/standards; this adds OpenPGP.js to verify signatures with a supplied key.
 */
const securityTxt: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/security-txt/generate',
    {
      schema: {
        tags: ['security.txt'],
        summary: 'Generate a security.txt file',
        description:
          'Writes the fields in RFC 9116 order, one per line, with LF line ends and a final newline. ' +
          '`warnings` holds advice that did not block generation.',
        body: securityTxtGenerateBody,
        response: { 200: successEnvelope(securityTxtGenerateResultSchema), '4xx': errorEnvelopeSchema },
      },
    },
    async (request) => {
      const result = generateSecurityTxt(request.body);
      // the body schema ran the same checks; only a clock tick past Expires gets here
      if (!result.ok) throw new HttpError(400, 'VALIDATION_ERROR', result.errors[0]!.message);
      return { success: true as const, data: { file: result.file, warnings: result.warnings } };
    },
  );

  app.post(
    '/security-txt/validate',
    {
      schema: {
        tags: ['security.txt'],
        summary: 'Validate security.txt content',
        description:
          'Checks the file against RFC 9116 with the checks and codes of sectxt (errors, recommendations as ' +
          'warnings, notifications as info), each with its line. With `publicKey`, an OpenPGP cleartext ' +
          'signature is verified.',
        body: securityTxtValidateBody,
        response: { 200: successEnvelope(securityTxtValidationResultSchema), '4xx': errorEnvelopeSchema },
      },
    },
    async (request) => {
      const { content, publicKey } = request.body;
      const data = await validateSecurityTxt(content, {
        ...(publicKey === undefined ? {} : { publicKey }),
        verifier: openPgpVerifier,
      });
      return { success: true as const, data };
    },
  );
};

export default securityTxt;
