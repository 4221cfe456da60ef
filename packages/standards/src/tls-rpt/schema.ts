import { z } from 'zod';
import { domainField } from '../core/domain-field.ts';
import { diagnosticSchema, spanSchema, validationResultSchema } from '../core/schema.ts';
import { tlsRptPolicyTypes } from './report.ts';
import { tlsRptVersion } from './record.ts';

/** Longest pasted record: RFC 8460 sets none; a record with many URIs stays well under this. */
export const tlsRptRecordMaxLength = 4096;
/** Longest reporting URI the generator takes (a long https: endpoint with a token). */
export const tlsRptUriMaxLength = 2048;
export const tlsRptMaxUris = 10;
/** Longest pasted report in characters: what fits in the API's 1 MiB body with room for the envelope. */
export const tlsRptReportMaxLength = 1_000_000;
export const tlsRptRecordRequiredMessage = 'TLS-RPT record is required';
export const tlsRptReportRequiredMessage = 'Report is required';

/** Body of `POST /v1/tls-rpt/generate` (and the spec's `/v1/tlsrpt/generate`). */
export const tlsRptGenerateBody = z
  .object({
    domain: domainField().describe('The domain the record is for; the record lives at _smtp._tls.{domain}'),
    reportingUris: z
      .array(
        z
          .string()
          .max(tlsRptUriMaxLength, `A reporting URI is at most ${tlsRptUriMaxLength} characters long`),
      )
      .max(tlsRptMaxUris, `At most ${tlsRptMaxUris} reporting URIs`)
      .describe('mailto: or https: URIs; blank rows are skipped'),
    version: z.literal(tlsRptVersion).default(tlsRptVersion).describe('Always TLSRPTv1'),
  })
  .strict();
export type TlsRptGenerateBody = z.input<typeof tlsRptGenerateBody>;

export const tlsRptGenerateResultSchema = z.object({
  record: z.string().describe('The TXT record value'),
  name: z.string().describe('_smtp._tls.{domain}'),
  zoneLine: z.string().describe('The record as a zone-file line'),
});
export type TlsRptGenerateResultData = z.infer<typeof tlsRptGenerateResultSchema>;

/** Body of `POST /v1/tls-rpt/validate` (and `/v1/tlsrpt/validate`): a pasted record, or a domain to look up. */
export const tlsRptValidateBody = z
  .object({
    record: z
      .string()
      .trim()
      .max(tlsRptRecordMaxLength, `TLS-RPT record is too long: at most ${tlsRptRecordMaxLength} characters`)
      .optional()
      .describe('A TLS-RPT record (the TXT value)'),
    domain: domainField().optional().describe('A domain whose _smtp._tls TXT records are looked up'),
  })
  .strict()
  .refine((body) => (body.record ?? '') !== '' || body.domain !== undefined, {
    message: tlsRptRecordRequiredMessage,
    path: ['record'],
  });
export type TlsRptValidateBody = z.input<typeof tlsRptValidateBody>;

const fieldSchema = z.object({ name: z.string(), value: z.string(), span: spanSchema });

export const tlsRptParsedSchema = z.object({
  version: z.string().nullable(),
  fields: z.array(fieldSchema),
  rua: z.array(
    z.object({
      uri: z.string(),
      scheme: z.string().nullable(),
      problem: z.string().nullable().describe('Why a reporter cannot deliver to it; null when usable'),
      span: spanSchema,
    }),
  ),
  extensions: z.array(fieldSchema).describe('Fields other than v and rua; reporters ignore them'),
});

export const tlsRptValidateResultSchema = validationResultSchema(tlsRptParsedSchema).extend({
  verdict: z
    .enum(['valid', 'valid-warn', 'invalid', 'not-tls-rpt', 'none', 'no-reporting'])
    .describe('none: no record; no-reporting: several records, so senders report nothing (RFC 8460 §3)'),
  lookup: z
    .object({
      name: z.string().describe('_smtp._tls.{domain}'),
      records: z.array(z.string()).describe('Every TXT record found there, strings joined'),
      dns: z.string().describe('What the lookup found, in words'),
    })
    .nullable()
    .describe('The DNS look-up, when a domain was given'),
});
export type TlsRptValidateResultData = z.infer<typeof tlsRptValidateResultSchema>;

/** Body of `POST /v1/tls-rpt/report`: a report's JSON text (gunzipped). */
export const tlsRptReportBody = z
  .object({
    report: z
      .string()
      .trim()
      .min(1, tlsRptReportRequiredMessage)
      .max(tlsRptReportMaxLength, `The report is too long: at most ${tlsRptReportMaxLength} characters`)
      .describe('The JSON of an aggregate report (RFC 8460 §4.4)'),
  })
  .strict();
export type TlsRptReportBody = z.input<typeof tlsRptReportBody>;

const failureDetailSchema = z.object({
  resultType: z.string(),
  sendingMtaIp: z.string().nullable(),
  receivingMxHostname: z.string().nullable(),
  receivingMxHelo: z.string().nullable(),
  receivingIp: z.string().nullable(),
  failedSessionCount: z.number().int(),
  additionalInformation: z.string().nullable(),
  failureReasonCode: z.string().nullable(),
});

export const tlsRptReportSummarySchema = z.object({
  organizationName: z.string(),
  contactInfo: z.string(),
  reportId: z.string(),
  startDatetime: z.string().nullable(),
  endDatetime: z.string().nullable(),
  successful: z.number().int(),
  failed: z.number().int(),
  policies: z.array(
    z.object({
      policyType: z.string(),
      policyDomain: z.string(),
      policyString: z.array(z.string()),
      mxHosts: z.array(z.string()),
      successful: z.number().int(),
      failed: z.number().int(),
      failureGroups: z.array(
        z.object({
          resultType: z.string(),
          known: z.boolean().describe('Registered in RFC 8460 §4.3'),
          category: z.enum(['negotiation', 'dane', 'sts']).nullable(),
          meaning: z.string().nullable(),
          fix: z.string().nullable(),
          sessions: z.number().int(),
          details: z.array(failureDetailSchema),
        }),
      ),
    }),
  ),
});

export const tlsRptReportResultSchema = z.object({
  valid: z.boolean(),
  errors: z.array(z.string()),
  warnings: z.array(z.string()),
  diagnostics: z.array(diagnosticSchema),
  summary: tlsRptReportSummarySchema.nullable().describe('Null when the text is not a JSON object'),
});
export type TlsRptReportResultData = z.infer<typeof tlsRptReportResultSchema>;

/** Why an entered sample policy cannot be reported on: a report carries only what the domain publishes. */
export const tlsRptSamplePolicyMessages = {
  stsLines: 'Enter the MTA-STS policy lines the report is about (RFC 8460 §4.4 policy-string)',
  tlsaRecords: 'Enter the TLSA records the report is about (RFC 8460 §4.4 policy-string)',
  noPolicyLines: 'A no-policy-found report has no policy lines (RFC 8460 §4.4): leave them out',
  mxHosts: 'Enter at least one MX host the report is about (RFC 8460 §4.4 mx-host)',
} as const;

export const tlsRptSamplePolicySchema = z
  .object({
    type: z.enum(tlsRptPolicyTypes),
    strings: z
      .array(z.string().max(1000, 'A policy line is at most 1000 characters long'))
      .max(100, 'At most 100 policy lines')
      .default([])
      .describe('MTA-STS policy lines (sts) or TLSA records (tlsa); none for no-policy-found'),
    mxHosts: z
      .array(z.string().trim().max(253, 'An MX host name is at most 253 characters long'))
      .max(20, 'At most 20 MX hosts')
      .default([])
      .describe('The MX host patterns (sts) or MX hosts the report names; at least one'),
  })
  .strict()
  // nothing is made up: the sample reports on the policy and hosts given, or is refused
  .superRefine((policy, context) => {
    const lines = policy.strings.filter((line) => line.trim() !== '');
    if (policy.type === 'sts' && lines.length === 0)
      context.addIssue({ code: 'custom', path: ['strings'], message: tlsRptSamplePolicyMessages.stsLines });
    if (policy.type === 'tlsa' && lines.length === 0)
      context.addIssue({
        code: 'custom',
        path: ['strings'],
        message: tlsRptSamplePolicyMessages.tlsaRecords,
      });
    if (policy.type === 'no-policy-found' && lines.length > 0)
      context.addIssue({
        code: 'custom',
        path: ['strings'],
        message: tlsRptSamplePolicyMessages.noPolicyLines,
      });
    if (!policy.mxHosts.some((host) => host !== ''))
      context.addIssue({ code: 'custom', path: ['mxHosts'], message: tlsRptSamplePolicyMessages.mxHosts });
  });

/** Body of `POST /v1/tls-rpt/sample`: a domain, and the policy to report on (else looked up). */
export const tlsRptSampleBody = z
  .object({
    domain: domainField().describe('The policy domain of the sample report'),
    policy: tlsRptSamplePolicySchema
      .optional()
      .describe("Without it the domain's MTA-STS policy, or else its MX hosts' TLSA records, is looked up"),
  })
  .strict();
export type TlsRptSampleBody = z.input<typeof tlsRptSampleBody>;

export const tlsRptSampleResultSchema = z.object({
  report: z.string().describe('The sample report, pretty-printed JSON'),
  policy: z.object({
    type: z.enum(tlsRptPolicyTypes),
    strings: z.array(z.string()),
    mxHosts: z.array(z.string()),
    source: z
      .enum(['entered', 'mta-sts', 'tlsa', 'none-found'])
      .describe(
        'Where the policy came from: the request, the live MTA-STS policy, live TLSA records, or none found',
      ),
    note: z.string().describe('What was looked up and found, in words'),
  }),
});
export type TlsRptSampleResultData = z.infer<typeof tlsRptSampleResultSchema>;
