import {
  checkHost,
  generateSpf,
  lintSpf,
  spfCheckBody,
  spfCheckResultSchema,
  spfGenerateBody,
  spfGenerateResultSchema,
  spfVerifyBody,
  spfVerifyResultSchema,
} from '@rfckit/standards';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema, successEnvelope } from '../../plugins/errors.ts';

/**
 * SPF (RFC 7208): lint a domain's record and its include tree, or a pasted record as if published
 * at the domain; evaluate check_host() for a client address; build a record from a form. DNS goes
 * through the guarded client; a DNS failure is a temperror inside the result, never a 5xx. The
 * logic lives in @rfckit/standards.
 */
const spf: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/spf/verify',
    {
      schema: {
        tags: ['SPF'],
        summary: "Lint a domain's SPF record and its include tree",
        description:
          'Fetches the record at `domain` (or lints `spfRecord` as if it were published there) and every ' +
          'include and redirect target, one depth at a time in parallel. Reports the DNS lookups per term and ' +
          'in total against the limit of 10, void lookups against the limit of 2, include loops and targets ' +
          'without an SPF record, the tree, and the networks the record authorises (a flattened view). ' +
          '`status` is valid, warnings, permerror, temperror or none. Macro targets are shown, not fetched.',
        body: spfVerifyBody,
        response: { 200: successEnvelope(spfVerifyResultSchema), '4xx': errorEnvelopeSchema },
      },
    },
    async (request) => {
      const { domain, spfRecord } = request.body;
      const record = spfRecord === undefined || spfRecord === '' ? undefined : spfRecord;
      const data = await lintSpf(record === undefined ? { domain } : { domain, record }, {
        resolver: app.net.session().dns,
      });
      return { success: true as const, data };
    },
  );

  app.post(
    '/spf/check',
    {
      schema: {
        tags: ['SPF'],
        summary: 'Evaluate SPF for a client address (check_host)',
        description:
          'Runs check_host() (RFC 7208 §4-§6) for `ip`, the MAIL FROM `sender` and the `helo` name against ' +
          '`domain` (by default the sender domain, or the HELO name for a null sender). Returns the result ' +
          '(pass, fail, softfail, neutral, none, permerror, temperror), the deciding term, the exp= explanation, ' +
          'the lookup counts and a step-by-step trace.',
        body: spfCheckBody,
        response: { 200: successEnvelope(spfCheckResultSchema), '4xx': errorEnvelopeSchema },
      },
    },
    async (request) => {
      const data = await checkHost(request.body, { resolver: app.net.session().dns });
      return { success: true as const, data };
    },
  );

  app.post(
    '/spf/generate',
    {
      schema: {
        tags: ['SPF'],
        summary: 'Generate an SPF record',
        description:
          'Builds `v=spf1` from ip4/ip6 networks, a/mx (the domain itself with aSelf/mxSelf, or listed hosts), ' +
          'include and exists lists, the all qualifier, redirect and exp. Blank entries are skipped. ' +
          '`lookups` counts the record alone; `diagnostics` are the parser’s on the result.',
        body: spfGenerateBody,
        response: { 200: successEnvelope(spfGenerateResultSchema), '4xx': errorEnvelopeSchema },
      },
    },
    async (request) => ({ success: true as const, data: generateSpf(request.body) }),
  );
};

export default spf;
