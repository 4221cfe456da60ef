import { defineOperations } from '../core/operation.ts';
import { httpHeadersAnalysisSchema, httpHeadersAnalyzeBody, httpHeadersValidateBody } from './schema.ts';

/** The HTTP security headers tool's operations, graded with the MDN HTTP Observatory's scoring. */
export const httpHeadersOperations = defineOperations('http-headers', {
  analyze: {
    path: '/analyze',
    body: httpHeadersAnalyzeBody,
    result: httpHeadersAnalysisSchema,
    summary: 'Fetch a site and grade its security headers',
    description:
      'Takes a URL or a bare host name and makes the MDN HTTP Observatory’s requests through the guarded ' +
      'outbound layer: https://host/… and http://host/… in parallel, each following up to 10 redirects ' +
      '(every hop re-checked; certificate errors are graded, not fatal), then a CORS preflight (OPTIONS with ' +
      'a foreign Origin) to the graded URL. The https response is graded (the http one when https cannot ' +
      'be reached) with the twelve tests, modifiers, bonus rule and grade chart of algorithm version 6, ' +
      'plus Permissions-Policy advice. Errors: 400 for a blank or malformed URL; 422 when the address may ' +
      'not be reached, the name does not resolve, or the status is not 2xx, 3xx, 401 or 403; 502 when the ' +
      'site cannot be reached or answers too much or too many redirects; 504 when it is too slow.',
    rateLimit: 'default',
    runsIn: 'server',
    remoteFailures: true,
  },
  validate: {
    path: '/validate',
    body: httpHeadersValidateBody,
    result: httpHeadersAnalysisSchema,
    summary: 'Grade pasted response headers',
    description:
      'Grades the last response in the text (status line optional; curl -i, -I, -sIL and -v output, or ' +
      'headers copied from a browser) with the twelve tests, modifiers, bonus rule and grade chart of the ' +
      'MDN HTTP Observatory, plus Permissions-Policy advice. Tests that need a request the paste cannot ' +
      'show (redirection from http://; SRI without the HTML body) are listed as not evaluated and add ' +
      'nothing to the score. 422 when no header field can be read or the status is not 2xx, 3xx, 401 or 403.',
    rateLimit: 'default',
    runsIn: 'both',
  },
});
