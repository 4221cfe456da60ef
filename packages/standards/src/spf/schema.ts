import { z } from 'zod';
import { spanSchema } from '../core/schema.ts';
import { dnsRecordTypes } from '../core/resolver.ts';
import { parseClientIp } from './ip.ts';
import { spfResults } from './parse.ts';

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
    domain: z
      .string()
      .trim()
      .min(1)
      .max(spfNameMaxLength, `Domain is too long: at most ${spfNameMaxLength} characters`)
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
