import {
  generateSecurityTxt,
  securityTxtFetchHost,
  securityTxtOperations,
  validateSecurityTxt,
} from '@rfckit/standards';
import { openPgpVerifier } from '../../crypto/openpgp-verifier.ts';
import { HttpError } from '../../plugins/errors.ts';
import { defineHandlers } from '../contract.ts';
import { resultOf } from '../outcome.ts';
import { fetchSecurityTxt } from './fetch.ts';

/**
 * security.txt (RFC 9116): generate a file from the form, validate a pasted one, or fetch a site's
 * file and validate it with the HTTP checks. This adds OpenPGP.js to verify signatures with a
 * supplied key, and the guarded outbound layer.
 */
export default defineHandlers(securityTxtOperations, {
  // the body schema ran the same checks; only a clock tick past Expires is refused here
  generate: (body) => resultOf(generateSecurityTxt(body)),
  validate: ({ content, publicKey }) =>
    validateSecurityTxt(content, {
      ...(publicKey === undefined ? {} : { publicKey }),
      verifier: openPgpVerifier,
    }),
  fetch: (body, { app }) => {
    const host = securityTxtFetchHost(body.domain);
    // the body schema ran the same check
    if (!host.ok) throw new HttpError(400, 'VALIDATION_ERROR', host.message);
    return fetchSecurityTxt(app.net.session(), host.host, body.publicKey, host.origin);
  },
});
