import {
  checkDmarc,
  dmarcGenerateBody,
  dmarcGenerateResultSchema,
  dmarcValidateBody,
  dmarcValidationResultSchema,
  generateDmarcRecord,
  normalizeDmarcDomain,
} from '@rfckit/standards';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema, HttpError, successEnvelope } from '../../plugins/errors.ts';

/**
 * DMARC (RFC 9989, with RFC 7489 readings): generate a record from the spec's generator fields,
 * and validate a record, a domain (policy discovery over the guarded DNS client), or a pasted
 * record as if it were published at a domain. The logic lives in @rfckit/standards.
 */
const dmarc: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/dmarc/generate',
    {
      schema: {
        tags: ['DMARC'],
        summary: 'Generate a DMARC record',
        description:
          'Writes the TXT value by the generator rules: v=DMARC1 and p always; sp only when not none; aspf and ' +
          'adkim only when not r; pct only when not 100; rua and ruf as mailto: lists without blanks; ri, rf and ' +
          'fo only when not their defaults (86400, afrf, 0); np, t=y and psd when given. `name` is _dmarc.{domain}. ' +
          '`diagnostics` carry guidance and mark pct, ri and rf as removed in RFC 9989.',
        body: dmarcGenerateBody,
        response: { 200: successEnvelope(dmarcGenerateResultSchema), '4xx': errorEnvelopeSchema },
      },
    },
    async (request) => {
      const body = request.body;
      let domain: string | undefined;
      if (body.domain !== undefined && body.domain.trim() !== '') {
        const normalized = normalizeDmarcDomain(body.domain);
        // the body schema ran the same check
        if (!normalized.ok) throw new HttpError(400, 'VALIDATION_ERROR', normalized.message);
        domain = normalized.domain;
      }
      return { success: true as const, data: generateDmarcRecord({ ...body, domain }) };
    },
  );

  app.post(
    '/dmarc/validate',
    {
      schema: {
        tags: ['DMARC'],
        summary: 'Validate a DMARC record or a domain',
        description:
          'With `record`: checks the record against RFC 9989 (and notes RFC 7489 readings). With `domain`: ' +
          'discovers the policy by the RFC 9989 DNS tree walk (at most 8 queries), shows what RFC 7489 receivers ' +
          'find with the Public Suffix List, checks the record found and its external report destinations ' +
          '(<domain>._report._dmarc.<host>). With both: the record is checked as if published at _dmarc.<domain>. ' +
          'A domain without DMARC is a result (valid false), not an error.',
        body: dmarcValidateBody,
        response: { 200: successEnvelope(dmarcValidationResultSchema), '4xx': errorEnvelopeSchema },
      },
    },
    async (request) => {
      const { record, domain: domainInput } = request.body;
      let domain: string | undefined;
      if (domainInput !== undefined && domainInput.trim() !== '') {
        const normalized = normalizeDmarcDomain(domainInput);
        if (!normalized.ok) throw new HttpError(400, 'VALIDATION_ERROR', normalized.message);
        domain = normalized.domain;
      }
      const input = { record: record === '' ? undefined : record, domain };
      const data =
        domain === undefined ? await checkDmarc(input) : await checkDmarc(input, app.net.session().dns);
      return { success: true as const, data };
    },
  );
};

export default dmarc;
