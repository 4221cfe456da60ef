import { z } from 'zod';
import {
  correctedRecordSchema,
  diagnosticSchema,
  spanSchema,
  validationResultSchema,
} from '../core/schema.ts';
import { dmarcAlignmentModes, dmarcFailureOptions, dmarcPolicies, dmarcPsdValues } from './tags.ts';

/** Longest pasted record: a DMARC record is rarely over 300 characters; this leaves room for quoted strings. */
export const dmarcRecordMaxLength = 4096;
/** Longest report address the generator takes (RFC 5321 §4.5.3.1: 64 + 1 + 255). */
export const dmarcAddressMaxLength = 320;
/** Most report addresses per list; receivers need only support two (RFC 7489 §6.2). */
export const dmarcMaxAddresses = 20;

export type DmarcDomainResult = { ok: true; domain: string } | { ok: false; message: string };

const LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/;

/**
 * Reads a domain the way the tools take it: case and a trailing dot do not matter, a pasted
 * record name `_dmarc.example.com` means `example.com`, and a name in Unicode becomes its A-labels
 * (RFC 9989 §5.3.1).
 */
export function normalizeDmarcDomain(input: string): DmarcDomainResult {
  let domain = input.trim().replace(/\.$/, '').toLowerCase();
  if (domain === '') return { ok: false, message: 'Domain is required' };
  if (domain.includes('@'))
    return { ok: false, message: 'Enter a domain such as example.com, not an email address' };
  if (/[/:\s]/.test(domain)) return { ok: false, message: 'Enter a domain such as example.com, not a URL' };
  domain = domain.replace(/^_dmarc\./, '');
  if (/[^\x21-\x7e]/.test(domain)) {
    try {
      domain = new URL(`http://${domain}/`).hostname;
    } catch {
      return { ok: false, message: `'${input.trim()}' is not a domain name` };
    }
  }
  if (domain.length > 253) return { ok: false, message: 'A domain name is at most 253 characters long' };
  // its record lives at _dmarc.{domain}, which must fit in a DNS name too
  if (domain.length > 253 - '_dmarc.'.length) {
    return {
      ok: false,
      message: `The domain is too long: _dmarc.${domain.slice(0, 12)}… would exceed 253 characters`,
    };
  }
  if (!domain.split('.').every((label) => LABEL.test(label))) {
    return { ok: false, message: `'${input.trim()}' is not a domain name` };
  }
  return { ok: true, domain };
}

function domainField(required: boolean) {
  return z
    .string()
    .max(300, 'A domain name is at most 253 characters long')
    .superRefine((value, context) => {
      if (!required && value.trim() === '') return;
      const result = normalizeDmarcDomain(value);
      if (!result.ok) context.addIssue({ code: 'custom', message: result.message });
    });
}

/** fo: a colon-separated list of 0 or 1, d and s (RFC 9989 §4.8 `dmarc-fo`). */
export function isDmarcFailureOptions(value: string): boolean {
  const items = value.split(':');
  if (items.some((item) => !(dmarcFailureOptions as readonly string[]).includes(item))) return false;
  if (new Set(items).size !== items.length) return false;
  return !(items.includes('0') && items.includes('1'));
}

const policySchema = z.enum(dmarcPolicies);
const alignmentSchema = z.enum(dmarcAlignmentModes);

const addressList = z
  .array(
    z.string().max(dmarcAddressMaxLength, `An address is at most ${dmarcAddressMaxLength} characters long`),
  )
  .max(dmarcMaxAddresses, `At most ${dmarcMaxAddresses} addresses`);

/** Body of `POST /v1/dmarc/generate`: the spec's generator state (part 1 §3) plus np, t and psd. Defaults are §9's. */
export const dmarcGenerateBody = z
  .object({
    domain: domainField(false)
      .optional()
      .describe('The domain the record is for; gives the record name _dmarc.{domain}'),
    policy: policySchema.default('none').describe('p'),
    subdomainPolicy: policySchema.default('none').describe('sp; written only when not none'),
    alignment: z
      .object({
        aspf: alignmentSchema.default('r'),
        adkim: alignmentSchema.default('r'),
      })
      .strict()
      .default({ aspf: 'r', adkim: 'r' }),
    percentage: z
      .number()
      .int('The percentage is a whole number')
      .min(0, 'The percentage is from 0 to 100')
      .max(100, 'The percentage is from 0 to 100')
      .default(100)
      .describe('pct (removed in RFC 9989); written only when not 100'),
    reporting: z
      .object({
        rua: addressList.default([]).describe('Aggregate report addresses; blanks are skipped'),
        ruf: addressList.default([]).describe('Failure report addresses; blanks are skipped'),
      })
      .strict()
      .default({ rua: [], ruf: [] }),
    reportingOptions: z
      .object({
        ri: z
          .number()
          .int('The report interval is a whole number of seconds')
          .min(1, 'The report interval is at least 1 second')
          .max(4294967295, 'The report interval is at most 4294967295 seconds')
          .default(86400)
          .describe('ri in seconds (removed in RFC 9989); written only when not 86400'),
        rf: z
          .enum(['afrf', 'iodef'])
          .default('afrf')
          .describe('rf (removed in RFC 9989); written only when not afrf'),
        fo: z
          .string()
          .refine(
            isDmarcFailureOptions,
            'Failure options are 0 or 1, d and s, separated by colons, each once',
          )
          .default('0')
          .describe('fo; written only when not 0'),
      })
      .strict()
      .default({ ri: 86400, rf: 'afrf', fo: '0' }),
    nonExistentPolicy: policySchema.optional().describe('np (RFC 9989); written when given'),
    testMode: z.boolean().optional().describe('t=y (RFC 9989) when true'),
    psd: z.enum(dmarcPsdValues).optional().describe('psd (RFC 9989); written when y or n'),
  })
  .strict();

export type DmarcGenerateBody = z.input<typeof dmarcGenerateBody>;

export const dmarcGenerateResultSchema = z.object({
  record: z.string().describe('The TXT record value'),
  name: z.string().nullable().describe('_dmarc.{domain}, or null without a domain'),
  diagnostics: z.array(diagnosticSchema),
});

export type DmarcGenerateResultData = z.infer<typeof dmarcGenerateResultSchema>;

/** Body of `POST /v1/dmarc/validate`: a record, a domain, or both (the record checked as if published there). */
export const dmarcValidateBody = z
  .object({
    record: z
      .string()
      .trim()
      .max(dmarcRecordMaxLength, `DMARC record is too long: at most ${dmarcRecordMaxLength} characters`)
      .optional()
      .describe('A DMARC record (the TXT value, or zone-file quoted strings)'),
    domain: domainField(false).optional().describe('A domain whose DMARC policy is discovered through DNS'),
  })
  .strict()
  .refine((body) => (body.record ?? '') !== '' || (body.domain ?? '').trim() !== '', {
    message: 'Enter a DMARC record or a domain',
    path: ['record'],
  });

export type DmarcValidateBody = z.input<typeof dmarcValidateBody>;

const verdictSchema = z.enum([
  'valid',
  'valid-warn',
  'invalid',
  'invalid-p',
  'invalid-uri',
  'no-policy',
  'not-dmarc',
]);

const effectiveSchema = z.object({
  domain: policySchema,
  subdomains: policySchema,
  nonExistentSubdomains: policySchema,
});

export const dmarcUriSchema = z.object({
  uri: z.string(),
  scheme: z.string().nullable(),
  address: z.string().nullable(),
  host: z.string().nullable(),
  size: z.string().nullable().describe('Obsolete size limit (!10m), without the !'),
  problem: z
    .discriminatedUnion('kind', [
      z.object({ kind: z.literal('empty') }),
      z.object({ kind: z.literal('no-scheme'), looksLikeAddress: z.boolean() }),
      z.object({ kind: z.literal('bad-syntax'), detail: z.string() }),
      z.object({ kind: z.literal('bad-size'), suffix: z.string() }),
      z.object({ kind: z.literal('bad-mailto'), detail: z.string() }),
    ])
    .nullable()
    .describe('Why the entry is not a usable reporting URI'),
  span: spanSchema,
});

export const dmarcParsedSchema = z.object({
  tags: z.array(
    z.object({
      name: z.string(),
      key: z.string(),
      value: z.string(),
      status: z.enum(['defined', 'removed', 'unknown']),
      valid: z.boolean(),
      span: spanSchema,
    }),
  ),
  p: policySchema.nullable(),
  sp: policySchema.nullable(),
  np: policySchema.nullable(),
  effective: effectiveSchema.nullable().describe('What RFC 9989 receivers apply; null: no DMARC processing'),
  testMode: z.boolean(),
  applied: effectiveSchema.nullable().describe('The effective policies after test mode (t=y)'),
  adkim: alignmentSchema,
  aspf: alignmentSchema,
  fo: z.array(z.enum(dmarcFailureOptions)),
  psd: z.enum(dmarcPsdValues),
  t: z.enum(['y', 'n']),
  rua: z.array(dmarcUriSchema),
  ruf: z.array(dmarcUriSchema),
  removed: z.array(z.object({ tag: z.enum(['pct', 'ri', 'rf']), value: z.string() })),
  verdicts: z.object({ rfc9989: verdictSchema, rfc7489: verdictSchema }),
});

const lookupSchema = z.object({
  name: z.string(),
  domain: z.string(),
  status: z.enum(['ok', 'nxdomain', 'nodata', 'servfail', 'timeout', 'error']),
  dns: z.string(),
  txt: z.array(z.string()),
  dmarc: z.array(z.string()),
  outcome: z.enum(['record', 'none', 'multiple', 'failed']),
  psd: z.enum(dmarcPsdValues).nullable(),
});

const appliedPolicySchema = z.object({
  recordDomain: z.string(),
  record: z.string(),
  source: z.enum(['author', 'organizational', 'public-suffix']),
  tag: z.enum(['p', 'sp', 'np']),
  requested: policySchema,
  testMode: z.boolean(),
  applied: policySchema,
  percentage: z.number().int().optional(),
});

const discoveryViewSchema = z.object({
  result: z.enum(['policy', 'none', 'temperror']),
  organizationalDomain: z.string(),
  lookups: z.array(lookupSchema),
  policy: appliedPolicySchema.nullable(),
  reason: z.string().optional(),
});

export const dmarcDiscoverySchema = discoveryViewSchema.extend({
  domain: z.string(),
  spec: z.literal('RFC 9989'),
  organizationalDomainRule: z.enum(['psd-n', 'psd-y', 'fewest-labels', 'start']),
  skipped: z.array(z.string()),
  domainExists: z.boolean().nullable(),
  record: z
    .object({
      domain: z.string(),
      name: z.string(),
      text: z.string(),
      source: z.enum(['author', 'organizational', 'public-suffix']),
    })
    .nullable(),
  rfc7489: discoveryViewSchema,
  diagnostics: z.array(diagnosticSchema),
});

export const dmarcReportDestinationSchema = z.object({
  tag: z.enum(['rua', 'ruf']),
  uri: z.string(),
  host: z.string(),
  recordDomain: z.string(),
  recordOrganizationalDomain: z.string(),
  hostOrganizationalDomain: z.string(),
  required: z.boolean(),
  requiredRfc7489: z.boolean(),
  name: z.string().nullable(),
  status: z.enum(['same-organization', 'authorized', 'unauthorized', 'unverifiable', 'temperror']),
  dns: z.string().nullable(),
  records: z.array(z.string()),
  override: z.object({ uris: z.array(z.string()), accepted: z.boolean() }).nullable(),
});

/** The `data` of a `POST /v1/dmarc/validate` response. */
export const dmarcValidationResultSchema = validationResultSchema(dmarcParsedSchema).extend({
  domain: z.string().nullable(),
  record: z.string().nullable(),
  recordSource: z.enum(['pasted', 'dns']).nullable(),
  discovery: dmarcDiscoverySchema.nullable(),
  reportDestinations: z.array(dmarcReportDestinationSchema),
  correctedRecord: correctedRecordSchema
    .exactOptional()
    .describe('The record with a missing p= added or invalid tags fixed, when that is a mechanical fix'),
});

export type DmarcValidationResultData = z.infer<typeof dmarcValidationResultSchema>;
