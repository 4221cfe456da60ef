import { z } from 'zod';
import { correctedRecordSchema, diagnosticSchema, spanSchema } from '../core/schema.ts';
import { dnsRecordTypes } from '../core/resolver.ts';
import { domainField, domainRequiredMessage } from '../core/domain-field.ts';
import { parseClientIp } from './ip.ts';
import { spfResults } from './record.ts';

/** RFC 5321 §4.5.3.1.3: a path is at most 256 octets; a little room for what people paste. */
export const spfSenderMaxLength = 320;
/** RFC 1035 §2.3.4 names, with room for a domain literal or a trailing dot. */
export const spfNameMaxLength = 255;

export const spfResultSchema = z
  .enum(spfResults as [string, ...string[]])
  .describe('RFC 7208 §2.6: pass, fail, softfail, neutral, none, permerror or temperror');

/** Body of `POST /v1/spf/check`, shared by the server route and the web form. */
export const spfCheckBody = z
  .object({
    ip: z
      .string()
      .trim()
      .min(1, 'IP address is required')
      .max(64)
      .refine((ip) => parseClientIp(ip) !== undefined, 'Enter an IPv4 or IPv6 address')
      .describe('The SMTP client address, IPv4 or IPv6'),
    sender: z
      .string()
      .trim()
      .max(spfSenderMaxLength, `Sender is too long: at most ${spfSenderMaxLength} characters`)
      .default('')
      .describe('MAIL FROM address; empty for the null sender (then postmaster@<helo> is checked)'),
    helo: z
      .string()
      .trim()
      .max(spfNameMaxLength, `HELO name is too long: at most ${spfNameMaxLength} characters`)
      .default('')
      .describe('The HELO/EHLO name the client gave'),
    domain: domainField()
      .optional()
      .describe("The domain whose SPF record is checked; by default the sender's domain, or the HELO name"),
  })
  .strict()
  .refine((body) => body.sender !== '' || body.helo !== '' || body.domain !== undefined, {
    message: 'Enter a sender, a HELO name or a domain',
    path: ['sender'],
  });

export type SpfCheckBody = z.infer<typeof spfCheckBody>;

const decidingTermSchema = z.object({
  term: z.string().describe('The term as written'),
  domain: z.string().describe('The domain whose record holds it'),
  index: z.number().int().nonnegative(),
  span: spanSchema,
  qualifier: z.string().optional(),
});

export const spfTraceQuerySchema = z.object({
  name: z.string(),
  type: z.enum(dnsRecordTypes as [string, ...string[]]),
  status: z.enum(['ok', 'nxdomain', 'nodata', 'servfail', 'timeout', 'error']),
  answers: z.array(z.string()),
  void: z.boolean().describe('NXDOMAIN or no records: a void lookup (RFC 7208 §4.6.4)'),
  message: z.string().optional(),
});

export const spfTraceStepSchema = z.object({
  depth: z.number().int().nonnegative(),
  domain: z.string(),
  kind: z.enum(['record', 'term', 'default', 'explanation', 'macro']),
  term: z.string().optional(),
  termIndex: z.number().int().nonnegative().optional(),
  span: spanSchema.optional(),
  record: z.string().optional(),
  target: z.string().optional(),
  queries: z.array(spfTraceQuerySchema),
  outcome: z.enum(['match', 'no-match', 'found', 'result', 'error', 'ignored']),
  result: spfResultSchema.optional(),
  message: z.string(),
  lookups: z.number().int().nonnegative(),
  voidLookups: z.number().int().nonnegative(),
});

/** The `data` of a `POST /v1/spf/check` response: `CheckHostResult`. */
export const spfCheckResultSchema = z.object({
  result: spfResultSchema,
  explanation: z.string().optional().describe("The domain's exp= text after a fail (RFC 7208 §6.2)"),
  mechanism: decidingTermSchema.optional().describe('The term that decided the result'),
  reason: z.string(),
  domain: z.string(),
  sender: z.string(),
  lookups: z.number().int().nonnegative().describe('DNS-querying terms evaluated (limit 10)'),
  voidLookups: z.number().int().nonnegative().describe('Lookups that found nothing (limit 2)'),
  trace: z.array(spfTraceStepSchema),
});

export type SpfCheckResultData = z.infer<typeof spfCheckResultSchema>;

/** Longest pasted record we lint: several 255-octet strings, well past any record that works. */
export const spfRecordMaxLength = 4096;

/**
 * Body of `POST /v1/spf/verify` (spec part 1 §7): a domain, a record to lint, or both (the record
 * linted as if published at the domain). A record alone is checked without one: only the terms
 * that name the domain the record is published at (a, mx, ptr without a target, %{d} macros)
 * need it (RFC 7208 §4.8), and those are reported as not resolved.
 */
export const spfVerifyBody = z
  .object({
    domain: domainField()
      .optional()
      .describe('The domain whose SPF record is linted, or where a pasted record would be published'),
    spfRecord: z
      .string()
      .trim()
      .max(spfRecordMaxLength, `The record is too long: at most ${spfRecordMaxLength} characters`)
      .optional()
      .describe('A record to lint, as if published at the domain when one is given'),
  })
  .strict()
  .refine((body) => body.domain !== undefined || (body.spfRecord ?? '') !== '', {
    message: domainRequiredMessage,
    path: ['domain'],
  });

export type SpfVerifyBody = z.infer<typeof spfVerifyBody>;

/** The linter's overall verdict. */
export const spfLintStatusSchema = z
  .enum(['valid', 'warnings', 'permerror', 'temperror', 'none'])
  .describe(
    'valid: no problem; warnings: works with advice; permerror: receivers fail the record; temperror: a DNS failure; none: no SPF record',
  );

export const spfLintNodeStatusSchema = z
  .enum(['ok', 'none', 'nxdomain', 'multiple', 'invalid', 'temperror', 'loop', 'dynamic'])
  .describe(
    'ok: record found; none: no SPF record; nxdomain: the name does not exist; multiple: more than one SPF record; invalid: syntax error; temperror: DNS failure; loop: the domain is already on this branch; dynamic: the target has macros, so it is known only per message and is not fetched',
  );

export const spfLintTermSchema = z.object({
  index: z.number().int().nonnegative(),
  text: z.string().describe('The term as written'),
  span: spanSchema.describe('Position in the node record'),
  kind: z.enum(['mechanism', 'modifier', 'invalid']),
  name: z.string().describe('Mechanism or modifier name, lower case'),
  qualifier: z.enum(['+', '-', '~', '?']).optional(),
  lookups: z
    .number()
    .int()
    .nonnegative()
    .describe('Towards the limit of 10: 1 for include, a, mx, ptr, exists, redirect'),
  voidLookups: z.number().int().nonnegative().describe('Lookups of this term that found nothing'),
  reachable: z.boolean().describe('False for terms after `all` (and redirect beside all): never evaluated'),
  target: z.string().optional().describe('The domain the term queries, when it has one'),
  dynamic: z.boolean().describe('The target holds macros and depends on the message'),
  child: z.number().int().nonnegative().optional().describe('Id of the tree node of an include or redirect'),
  addresses: z.array(z.string()).optional().describe('a, mx: the addresses found; ip4, ip6: the network'),
  message: z.string().optional().describe('What the lookups of this term found'),
});

export const spfLintNodeSchema = z.object({
  id: z.number().int().nonnegative().describe('Index in `tree`; the root is 0'),
  parent: z.number().int().nonnegative().optional(),
  depth: z.number().int().nonnegative(),
  domain: z.string(),
  via: z.enum(['root', 'include', 'redirect']),
  viaTerm: z.string().optional().describe('The include or redirect term of the parent'),
  status: spfLintNodeStatusSchema,
  record: z.string().optional().describe('The SPF record text found (or pasted)'),
  pasted: z.boolean().describe('The record was pasted, not fetched'),
  terms: z.array(spfLintTermSchema),
  lookups: z.number().int().nonnegative().describe('Lookups of this record and everything under it'),
  ownLookups: z.number().int().nonnegative().describe('Lookups of this record alone'),
  voidLookups: z.number().int().nonnegative().describe('Void lookups of this record and everything under it'),
  children: z.array(z.number().int().nonnegative()),
  errors: z
    .array(z.string())
    .describe('What makes this node fail, e.g. an include target without SPF record'),
  diagnostics: z.array(diagnosticSchema).describe('Of this record; spans are in `record`'),
});

export const spfLintNetworkSchema = z.object({
  network: z.string().describe('CIDR, e.g. 192.0.2.0/24'),
  family: z.enum(['ip4', 'ip6']),
  qualifier: z.enum(['+', '-', '~', '?']),
  sources: z
    .array(z.object({ domain: z.string(), term: z.string() }))
    .describe('Where it comes from: the record domain and the term'),
});

export const spfLintNetworksSchema = z.object({
  entries: z.array(spfLintNetworkSchema).describe('Deduplicated, in evaluation order'),
  flattened: z.string().describe('A record with only ip4/ip6 terms for the networks that pass'),
  complete: z.boolean().describe('False when terms (exists, ptr, macros, errors) cannot be flattened'),
  incomplete: z.array(z.string()).describe('Why the flattened view is incomplete'),
  note: z.string().describe('Flattening goes stale when a provider changes its networks'),
});

/** The `data` of a `POST /v1/spf/verify` response: the spec's {spfRecord, status, warnings} and the linter's findings. */
export const spfVerifyResultSchema = z.object({
  domain: z.string(),
  spfRecord: z
    .string()
    .nullable()
    .describe('The record linted: the pasted one, or the one found; null when none'),
  status: spfLintStatusSchema,
  valid: z.boolean(),
  errors: z.array(z.string()),
  warnings: z.array(z.string()),
  diagnostics: z.array(diagnosticSchema),
  lookups: z.number().int().nonnegative().describe('DNS-querying terms in the whole tree (limit 10)'),
  lookupLimit: z.number().int().positive(),
  voidLookups: z.number().int().nonnegative().describe('Lookups that found nothing (limit 2)'),
  voidLookupLimit: z.number().int().positive(),
  tree: z.array(spfLintNodeSchema).describe('Nodes by id, breadth-first; tree[0] is the domain'),
  networks: spfLintNetworksSchema,
  correctedRecord: correctedRecordSchema
    .exactOptional()
    .describe('The record without the terms that break it or are ignored, when that is a mechanical fix'),
});

export type SpfVerifyResultData = z.infer<typeof spfVerifyResultSchema>;

const hostListSchema = (what: string) =>
  z
    .array(
      z.string().trim().max(spfNameMaxLength, `${what} is too long: at most ${spfNameMaxLength} characters`),
    )
    .max(50, `At most 50 ${what} entries`)
    .default([]);

export const spfAllQualifierSchema = z
  .enum(['-', '~', '?', '+', 'none'])
  .describe(
    "The `all` term's qualifier: -all fail, ~all softfail, ?all neutral, +all pass; none: no all term",
  );

/** Body of `POST /v1/spf/generate`, shared with the web generator (blank entries are skipped). */
export const spfGenerateBody = z
  .object({
    domain: z
      .string()
      .trim()
      .max(spfNameMaxLength)
      .default('')
      .describe('Where the record is published (for advice only)'),
    ip4: hostListSchema('ip4').describe('IPv4 addresses or networks, e.g. 192.0.2.0/24'),
    ip6: hostListSchema('ip6').describe('IPv6 addresses or networks, e.g. 2001:db8::/32'),
    aSelf: z.boolean().default(false).describe("`a`: the domain's own A/AAAA addresses"),
    mxSelf: z.boolean().default(false).describe("`mx`: the domain's own mail exchangers"),
    a: hostListSchema('a').describe('Hosts whose addresses may send, optional /cidr, e.g. mail.example.com'),
    mx: hostListSchema('mx').describe('Domains whose MX hosts may send, e.g. example.net'),
    include: hostListSchema('include').describe(
      'Domains whose SPF records are included, e.g. _spf.google.com',
    ),
    exists: hostListSchema('exists').describe('exists: domain-specs, usually with macros'),
    all: spfAllQualifierSchema.default('~'),
    redirect: z
      .string()
      .trim()
      .max(spfNameMaxLength)
      .default('')
      .describe("redirect=: use another domain's record"),
    exp: z
      .string()
      .trim()
      .max(spfNameMaxLength)
      .default('')
      .describe('exp=: domain of the TXT explanation for fail'),
  })
  .strict();

export type SpfGenerateBody = z.input<typeof spfGenerateBody>;
export type SpfGenerateInput = z.infer<typeof spfGenerateBody>;

/** The `data` of a `POST /v1/spf/generate` response. */
export const spfGenerateResultSchema = z.object({
  record: z.string(),
  lookups: z.number().int().nonnegative().describe('DNS-querying terms of this record alone (limit 10)'),
  valid: z.boolean(),
  errors: z.array(z.string()),
  warnings: z.array(z.string()),
  diagnostics: z.array(diagnosticSchema),
});

export type SpfGenerateResultData = z.infer<typeof spfGenerateResultSchema>;
