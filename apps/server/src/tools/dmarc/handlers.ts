import { checkDmarc, dmarcOperations, generateDmarcRecord, normalizeDmarcDomain } from '@rfckit/standards';
import { HttpError } from '../../plugins/errors.ts';
import { unlessResolverFailed } from '../could-not-check.ts';
import { defineHandlers } from '../contract.ts';

/** A domain field as a name, undefined when blank; the body schema ran the same check. */
function domainOf(input: string | undefined): string | undefined {
  if (input === undefined || input.trim() === '') return undefined;
  const normalized = normalizeDmarcDomain(input);
  if (!normalized.ok) throw new HttpError(400, 'VALIDATION_ERROR', normalized.message);
  return normalized.domain;
}

/**
 * DMARC (RFC 9989, with RFC 7489 readings): generate a record from the spec's generator fields,
 * and validate a record, a domain (policy discovery over the guarded DNS client), or a pasted
 * record as if it were published at a domain.
 */
export default defineHandlers(dmarcOperations, {
  generate: (body) => generateDmarcRecord({ ...body, domain: domainOf(body.domain) }),
  validate: ({ record, domain: domainInput }, { app }) => {
    const domain = domainOf(domainInput);
    const input = { record: record === '' ? undefined : record, domain };
    if (domain === undefined) return checkDmarc(input);
    const { dns } = app.net.session();
    return unlessResolverFailed(dns, checkDmarc(input, dns));
  },
});
