import { checkHost, generateSpf, lintSpf, spfOperations } from '@rfckit/standards';
import { defineHandlers } from '../contract.ts';

/**
 * SPF (RFC 7208): lint a domain's record and its include tree, or a pasted record as if published
 * at the domain; evaluate check_host() for a client address; build a record from a form. DNS goes
 * through the guarded client; a DNS failure is a temperror inside the result, never a 5xx.
 */
export default defineHandlers(spfOperations, {
  // the body holds a domain, a record or both (spfVerifyBody); a record alone is linted on its own
  verify: ({ domain = '', spfRecord = '' }, { app }) =>
    lintSpf(spfRecord === '' ? { domain } : { domain, record: spfRecord }, {
      resolver: app.net.session().dns,
    }),
  check: (body, { app }) => checkHost(body, { resolver: app.net.session().dns }),
  generate: (body) => generateSpf(body),
});
