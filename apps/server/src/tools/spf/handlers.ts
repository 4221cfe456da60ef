import { checkHost, generateSpf, lintSpf, spfOperations } from '@rfckit/standards';
import { unlessResolverFailed } from '../could-not-check.ts';
import { defineHandlers } from '../contract.ts';

/**
 * SPF (RFC 7208): lint a domain's record and its include tree, or a pasted record as if published
 * at the domain; evaluate check_host() for a client address; build a record from a form. DNS goes
 * through the guarded client. The name's servers failing (SERVFAIL) is a temperror inside the
 * result, as the domain's receivers would get it; our resolver not answering is a 503: we could not
 * check (docs/architecture.md §6).
 */
export default defineHandlers(spfOperations, {
  // the body holds a domain, a record or both (spfVerifyBody); a record alone is linted on its own
  verify: ({ domain = '', spfRecord = '' }, { app }) => {
    const { dns } = app.net.session();
    return unlessResolverFailed(
      dns,
      lintSpf(spfRecord === '' ? { domain } : { domain, record: spfRecord }, { resolver: dns }),
    );
  },
  check: (body, { app }) => {
    const { dns } = app.net.session();
    return unlessResolverFailed(dns, checkHost(body, { resolver: dns }));
  },
  generate: (body) => generateSpf(body),
});
