/**
 * Request and answer of `POST /v1/arc/validate`. The chain validation runs on the server (it
 * needs the keys from DNS and mailauth); the shapes are here so that the page shares them.
 */
import { z } from 'zod';
import { diagnosticSchema } from '../core/schema.ts';

/** Largest pasted record (ARC header fields or a whole message), in characters. */
export const arcRecordMaxLength = 1024 * 1024;
export const arcValidateRequired = 'Domain and ARC headers are required';
export const arcRecordTooLarge = 'ARC headers are too long: at most 1 MiB';

export const arcValidateBody = z
  .object({
    record: z
      .string({ error: (issue) => (issue.input === undefined ? arcValidateRequired : undefined) })
      .max(arcRecordMaxLength, arcRecordTooLarge)
      .describe('The ARC header fields as pasted, or the whole message (header and body)'),
    domain: z
      .string({ error: (issue) => (issue.input === undefined ? arcValidateRequired : undefined) })
      .max(253, 'Domain is too long: at most 253 characters')
      .describe('The domain whose seals you expect in the chain'),
  })
  .strict()
  .superRefine((input, context) => {
    if (input.record.trim() === '' || input.domain.trim() === '') {
      context.addIssue({ code: 'custom', message: arcValidateRequired });
    }
  });

export type ArcValidateBody = z.infer<typeof arcValidateBody>;

export const arcSignatureResults = ['pass', 'fail', 'neutral', 'temperror', 'permerror', 'none'] as const;
export type ArcSignatureResult = (typeof arcSignatureResults)[number];

export const arcChainResults = ['pass', 'fail', 'none'] as const;
export type ArcChainResult = (typeof arcChainResults)[number];

export const arcSetResultSchema = z.object({
  instance: z.number().int(),
  domain: z.string().nullable().describe('d= of the ARC-Seal'),
  selector: z.string().nullable().describe('s= of the ARC-Seal'),
  algorithm: z.string().nullable().describe('a= of the ARC-Seal'),
  cv: z.string().nullable().describe('cv= of the ARC-Seal, lower case'),
  withinDomain: z.boolean().describe('The seal d= is the requested domain or a subdomain of it'),
  seal: z.object({
    result: z.enum(arcSignatureResults),
    reason: z.string().nullable(),
    keyBits: z.number().int().nullable(),
    dnsName: z.string().nullable(),
  }),
  messageSignature: z.object({
    result: z.enum(arcSignatureResults),
    reason: z.string().nullable(),
    domain: z.string().nullable(),
    selector: z.string().nullable(),
    algorithm: z.string().nullable(),
    canonicalization: z.string().nullable(),
    signedHeaders: z.array(z.string()),
    bodyHashMatches: z.boolean().nullable(),
    keyBits: z.number().int().nullable(),
    dnsName: z.string().nullable(),
  }),
  authenticationResults: z
    .object({ authservId: z.string().nullable(), results: z.array(z.string()) })
    .nullable(),
  timestamp: z.number().int().nullable().describe('t= of the ARC-Seal, seconds since 1970'),
});

export type ArcSetResult = z.infer<typeof arcSetResultSchema>;

export const arcValidateResultSchema = z.object({
  valid: z.boolean().describe('chain.result is pass'),
  errors: z.array(z.string()),
  warnings: z.array(z.string()),
  diagnostics: z.array(diagnosticSchema),
  domain: z.string(),
  chain: z.object({
    result: z
      .enum(arcChainResults)
      .describe('RFC 8617 §5.2 chain validation status: the cv the next sealer uses'),
    reason: z.string().nullable(),
    instances: z.number().int(),
    failedInstance: z.number().int().nullable(),
    oldestPass: z.number().int().nullable().describe('RFC 8617 §5.2 step 5; 0 when every AMS validates'),
  }),
  sets: z.array(arcSetResultSchema),
});

export type ArcValidateResult = z.infer<typeof arcValidateResultSchema>;
