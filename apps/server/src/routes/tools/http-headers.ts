import {
  gradeHeaderBlock,
  HttpHeadersGradeError,
  httpHeadersAnalysisSchema,
  httpHeadersValidateBody,
} from '@rfckit/standards';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema, HttpError, successEnvelope } from '../../plugins/errors.ts';

/**
 * HTTP security headers: grades pasted response headers with the MDN HTTP Observatory's scoring,
 * without fetching anything. The grader lives in @rfckit/standards (`gradeHeaderBlock`); the
 * Analyser's fetch-based route calls its sibling `gradeResponse`.
 */
const httpHeaders: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/http-headers/validate',
    {
      schema: {
        tags: ['HTTP headers'],
        summary: 'Grade pasted response headers',
        description:
          'Grades the last response in the text (status line optional; curl -i, -I, -sIL and -v output, or ' +
          'headers copied from a browser) with the twelve tests, modifiers, bonus rule and grade chart of the ' +
          'MDN HTTP Observatory, plus Permissions-Policy advice. Tests that need a request the paste cannot ' +
          'show (redirection from http://; SRI without the HTML body) are listed as not evaluated and add ' +
          'nothing to the score. 422 when no header field can be read or the status is not 2xx, 3xx, 401 or 403.',
        body: httpHeadersValidateBody,
        response: { 200: successEnvelope(httpHeadersAnalysisSchema), '4xx': errorEnvelopeSchema },
      },
    },
    async (request) => {
      try {
        return { success: true as const, data: gradeHeaderBlock(request.body.headers) };
      } catch (error) {
        if (error instanceof HttpHeadersGradeError) throw new HttpError(422, error.code, error.message);
        throw error;
      }
    },
  );
};

export default httpHeaders;
