import { z } from 'zod';
import { domainField } from '../core/domain-field.ts';
import { diagnosticSchema, spanSchema, validationResultSchema } from '../core/schema.ts';
import { mtaStsMaxAgeLimit, mtaStsModes } from './parse.ts';

/** RFC 8461 §3.3 suggests senders give up on a policy over 64 KB; a pasted one is held to the same. */
export const mtaStsPolicyMaxBytes = 65536;
/** Most mx patterns the generator takes; real policies list a handful. */
export const mtaStsMaxMxPatterns = 50;
/** A pattern is `*.` and a domain name of at most 253 characters. */
export const mtaStsMxPatternMaxLength = 255;
/** The spec's defaults (part 1 §9). */
export const mtaStsDefaultMaxAge = 604800;
export const mtaStsDefaultMode = 'enforce';

export const mtaStsModeSchema = z.enum(mtaStsModes);

export const mtaStsRecordMessages = {
  policyRequired: 'MTA-STS policy is required',
  recordRequired: 'MTA-STS record is required',
} as const;

/** Body of `POST /v1/mta-sts/generate`: the spec's generator inputs (part 1 §3) and the record id. */
export const mtaStsGenerateBody = z
  .object({
    domain: domainField()
      // a missing domain gets the spec's message too ('Domain is required'), not zod's type error
      .prefault('')
      .describe('The Policy Domain: the record goes to _mta-sts.{domain}'),
    mode: mtaStsModeSchema.default(mtaStsDefaultMode).describe('The policy mode (RFC 8461 §5)'),
    mx: z
      .array(
        z
          .string()
          .max(
            mtaStsMxPatternMaxLength,
            `An mx pattern is at most ${mtaStsMxPatternMaxLength} characters long`,
          ),
      )
      .max(mtaStsMaxMxPatterns, `At most ${mtaStsMaxMxPatterns} mx patterns`)
      .default([])
      .describe('MX host patterns, one per mx line; `*.` stands for one left-most label; blanks are skipped'),
    maxAge: z
      .number()
      .int('max_age must be a non-negative integer')
      .min(0, 'max_age must be a non-negative integer')
      .max(mtaStsMaxAgeLimit, `max_age is at most ${mtaStsMaxAgeLimit} seconds (RFC 8461 §3.2)`)
      .default(mtaStsDefaultMaxAge)
      .describe('Seconds senders may cache the policy'),
    id: z
      .string()
      .trim()
      .max(32, 'The id is at most 32 letters or digits')
      .regex(/^[A-Za-z0-9]*$/, 'The id may only contain letters and digits')
      .optional()
      .describe(
        'The record id (1-32 letters or digits); blank or absent: the UTC date and time, YYYYMMDDhhmmss',
      ),
  })
  .strict();

export type MtaStsGenerateBody = z.input<typeof mtaStsGenerateBody>;

export const mtaStsGenerateResultSchema = z.object({
  record: z.object({
    name: z.string().describe('_mta-sts.{domain}'),
    type: z.literal('TXT'),
    value: z.string().describe('v=STSv1; id=…'),
    id: z.string(),
  }),
  policy: z.object({
    host: z.string().describe('mta-sts.{domain}'),
    url: z.string().describe('https://mta-sts.{domain}/.well-known/mta-sts.txt'),
    contentType: z.literal('text/plain'),
    text: z.string().describe('The policy file, lines ended with CRLF'),
  }),
  hosting: z.array(z.string()).describe('What to do to publish the policy, step by step'),
  diagnostics: z.array(diagnosticSchema),
});

export type MtaStsGenerateResultData = z.infer<typeof mtaStsGenerateResultSchema>;

/** Body of `POST /v1/mta-sts/validate`: a pasted policy file (the default) or `_mta-sts` TXT record. */
export const mtaStsValidateBody = z
  .object({
    kind: z
      .enum(['policy', 'record'])
      .default('policy')
      .describe('policy: the mta-sts.txt file; record: the _mta-sts TXT value'),
    text: z
      .string()
      .max(
        mtaStsPolicyMaxBytes,
        `The text is too long: at most ${mtaStsPolicyMaxBytes} characters (RFC 8461 §3.3)`,
      )
      .describe('The pasted policy file or TXT record'),
  })
  .strict()
  .superRefine((body, context) => {
    if (body.text.trim() !== '') return;
    context.addIssue({
      code: 'custom',
      path: ['text'],
      message:
        body.kind === 'record' ? mtaStsRecordMessages.recordRequired : mtaStsRecordMessages.policyRequired,
    });
  });

export type MtaStsValidateBody = z.input<typeof mtaStsValidateBody>;

export const mtaStsRecordParsedSchema = z.object({
  kind: z.literal('record'),
  id: z.string().nullable(),
  fields: z.array(z.object({ name: z.string(), value: z.string(), span: spanSchema })),
});

export const mtaStsPolicyParsedSchema = z.object({
  kind: z.literal('policy'),
  version: z.string().nullable(),
  mode: mtaStsModeSchema
    .nullable()
    .describe('The mode senders apply; null when missing or not one of the three'),
  maxAge: z.number().int().nullable(),
  mx: z.array(z.string()),
  fields: z.array(z.object({ key: z.string(), value: z.string(), line: z.number().int().positive() })),
});

/** The `data` of a `POST /v1/mta-sts/validate` response. */
export const mtaStsValidationResultSchema = validationResultSchema(
  z.discriminatedUnion('kind', [mtaStsRecordParsedSchema, mtaStsPolicyParsedSchema]),
).extend({ kind: z.enum(['policy', 'record']) });

export type MtaStsValidationResultData = z.infer<typeof mtaStsValidationResultSchema>;

/** Body of `POST /v1/mta-sts/check` (the live check). */
export const mtaStsCheckBody = z
  .object({ domain: domainField().describe('The Policy Domain to check') })
  .strict();

export type MtaStsCheckBody = z.input<typeof mtaStsCheckBody>;

const mtaStsCheckHostSchema = z.object({
  host: z.string(),
  preference: z.number().int(),
  addresses: z.array(z.string()),
  cnameTarget: z.string().nullable(),
  matchedPattern: z.string().nullable().describe('The policy mx pattern this host matches (RFC 8461 §4.1)'),
  starttls: z.boolean().nullable(),
  tlsVersion: z.string().nullable(),
  trusted: z.boolean().nullable(),
  nameMatches: z.boolean().nullable(),
  expired: z.boolean().nullable(),
  wouldFail: z.boolean().describe('Mail to this host would fail in enforce mode'),
  diagnostics: z.array(diagnosticSchema),
});

/** The `data` of a `POST /v1/mta-sts/check` response. */
export const mtaStsCheckResultSchema = z.object({
  domain: z.string(),
  verdict: z.enum(['pass', 'warn', 'fail', 'none']).describe('none: the domain publishes no MTA-STS'),
  summary: z.string(),
  record: z.object({
    name: z.string(),
    found: z.boolean(),
    raw: z.string().nullable(),
    id: z.string().nullable(),
    diagnostics: z.array(diagnosticSchema),
  }),
  policy: z.object({
    url: z.string(),
    fetched: z.boolean(),
    status: z.number().int().nullable(),
    contentType: z.string().nullable(),
    bytes: z.number().int().nonnegative(),
    raw: z.string().nullable(),
    mode: mtaStsModeSchema.nullable(),
    maxAge: z.number().int().nullable(),
    mx: z.array(z.string()),
    diagnostics: z.array(diagnosticSchema),
  }),
  mx: z.object({
    nullMx: z.boolean(),
    dnsError: z.string().nullable(),
    hosts: z.array(mtaStsCheckHostSchema),
  }),
  failingHosts: z.array(z.string()).describe('Hosts to which mail would fail in enforce mode'),
  diagnostics: z.array(diagnosticSchema),
});

export type MtaStsCheckResultData = z.infer<typeof mtaStsCheckResultSchema>;
