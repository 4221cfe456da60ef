import { z } from 'zod';
import { diagnosticSchema, validationResultSchema } from '../core/schema.ts';
import { dkimDnsName } from './dns.ts';
import {
  dkimAlgorithms,
  dkimCanonicalizations,
  dkimFlags,
  dkimGeneratorDefaults,
  dkimRequiredMessage,
  dkimServiceTypes,
} from './generate.ts';

/** Longest accepted record: an RSA-4096 key record is under 800 characters; this leaves room for zone-file text. */
export const dkimRecordMaxLength = 16384;
const publicKeyMaxLength = 8192;

const requiredRecord = 'DKIM record is required';

/** A string that is also required by the spec's single message when absent. */
const requiredField = (max: number, what: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? dkimRequiredMessage : undefined) })
    .max(max, `${what} is too long: at most ${max} characters`);

/** Body of `POST /v1/dkim/generate` (spec part 1 §3 generator input), shared with the web form. */
export const dkimGenerateBody = z
  .object({
    domain: requiredField(253, 'Domain'),
    selector: requiredField(253, 'Selector').describe(
      `Default in the form: ${dkimGeneratorDefaults.selector}`,
    ),
    publicKey: requiredField(publicKeyMaxLength, 'Public key').describe(
      'Base64 or PEM public key; an Ed25519 SubjectPublicKeyInfo is unwrapped to its 32 raw bytes',
    ),
    algorithm: z.enum(dkimAlgorithms).default(dkimGeneratorDefaults.algorithm),
    canonicalization: z.enum(dkimCanonicalizations).default(dkimGeneratorDefaults.canonicalization),
    serviceType: z.enum(dkimServiceTypes).default(dkimGeneratorDefaults.serviceType),
    flags: z
      .array(z.enum(dkimFlags))
      .max(2)
      .default([])
      .describe('t= flags: y (testing), s (strict identity)'),
    notes: z.string().max(512, 'Notes are too long: at most 512 characters').default(''),
  })
  .strict()
  .superRefine((input, context) => {
    if (input.domain.trim() === '' || input.selector.trim() === '' || input.publicKey.trim() === '') {
      context.addIssue({ code: 'custom', message: dkimRequiredMessage });
    }
  });

export type DkimGenerateBody = z.infer<typeof dkimGenerateBody>;

/** The `data` of a `POST /v1/dkim/generate` response. */
export const dkimGenerateResultSchema = z.object({
  record: z.string().describe('The TXT record value'),
  dnsName: z.string().describe('selector._domainkey.domain'),
  txtStrings: z.array(z.string()).describe('The record cut into character-strings of at most 255 characters'),
  zoneFileLine: z.string().describe('A zone-file line publishing the record'),
  signer: z
    .object({
      a: z.enum(dkimAlgorithms),
      c: z.enum(dkimCanonicalizations),
      d: z.string(),
      s: z.string(),
    })
    .describe('Signature tags a signer should use with this key'),
  warnings: z.array(z.string()),
  diagnostics: z.array(diagnosticSchema),
});

export type DkimGenerateResultData = z.infer<typeof dkimGenerateResultSchema>;

/** Body of `POST /v1/dkim/validate` (record mode). */
export const dkimValidateBody = z
  .object({
    record: z
      .string({ error: (issue) => (issue.input === undefined ? requiredRecord : undefined) })
      .max(dkimRecordMaxLength, `DKIM record is too long: at most ${dkimRecordMaxLength} characters`)
      .refine((record) => record.trim() !== '', requiredRecord)
      .describe('The TXT value, its quoted strings, or a zone-file line'),
  })
  .strict();

export type DkimValidateBody = z.infer<typeof dkimValidateBody>;

export const dkimParsedSchema = z.object({
  status: z.enum(['valid', 'invalid', 'revoked']),
  record: z.string().describe('The TXT data after joining its strings'),
  strings: z.number().int().nonnegative(),
  ownerName: z.string().nullable(),
  version: z.string().nullable(),
  keyType: z.string(),
  hashAlgorithms: z.array(z.string()).nullable(),
  serviceTypes: z.array(z.string()),
  flags: z.array(z.string()),
  notes: z.string().nullable(),
  keySize: z.number().int().nonnegative().nullable().describe('RSA modulus bits, 256 for Ed25519'),
  keyEncoding: z.enum(['spki', 'pkcs1', 'raw']).nullable(),
  publicKeyBytes: z.number().int().nonnegative(),
});

/** The `data` of a `POST /v1/dkim/validate` response: the spec's fields plus diagnostics. */
export const dkimValidationResultSchema = validationResultSchema(dkimParsedSchema).extend({
  tags: z.record(z.string(), z.string()).describe('Tag name to value as written'),
});

export type DkimValidationResultData = z.infer<typeof dkimValidationResultSchema>;

export const dkimDnsRequiredMessage = 'Domain and selector are required';

/** Body of `POST /v1/dkim/dns` (DNS mode of the validator). */
export const dkimDnsBody = z
  .object({
    domain: z
      .string({ error: (issue) => (issue.input === undefined ? dkimDnsRequiredMessage : undefined) })
      .max(253, 'Domain is too long: at most 253 characters'),
    selector: z
      .string({ error: (issue) => (issue.input === undefined ? dkimDnsRequiredMessage : undefined) })
      .max(253, 'Selector is too long: at most 253 characters'),
  })
  .strict()
  .superRefine((input, context) => {
    if (input.domain.trim() === '' || input.selector.trim() === '') {
      context.addIssue({ code: 'custom', message: dkimDnsRequiredMessage });
      return;
    }
    // the lookup's own name check, so the form shows its message without asking the server
    const name = dkimDnsName(input.domain, input.selector);
    if (!name.ok) {
      const field = name.error.includes('selector') ? 'selector' : 'domain';
      context.addIssue({ code: 'custom', message: name.error, path: [field] });
    }
  });

export type DkimDnsBody = z.infer<typeof dkimDnsBody>;

const dkimCnameSchema = z.object({
  name: z.string(),
  target: z.string(),
  ttl: z.number().int().nonnegative(),
});

/** The `data` of a `POST /v1/dkim/dns` response: the spec's fields plus the lookup's details. */
export const dkimDnsResultSchema = z.object({
  dnsName: z.string().describe('selector._domainkey.domain'),
  ttl: z
    .number()
    .int()
    .nonnegative()
    .nullable()
    .describe('TTL of the key record in seconds; null when none was found'),
  record: z.string().nullable().describe('The key record, its strings joined; null when none was found'),
  strings: z.array(z.string()).describe('Character-strings of the record as served'),
  txtRecords: z.array(z.string()).describe('Every TXT record at the name'),
  canonicalName: z.string().describe('Where the record lives after CNAME delegation'),
  cnames: z.array(dkimCnameSchema),
  lookup: z.enum(['ok', 'nxdomain', 'nodata', 'servfail', 'timeout', 'error']),
  validation: dkimValidationResultSchema.nullable(),
  status: z.enum(['valid', 'invalid', 'revoked', 'not-found', 'error']),
  valid: z.boolean(),
  issues: z.array(diagnosticSchema).describe('Findings of the lookup, then of the record'),
});

export type DkimDnsResultData = z.infer<typeof dkimDnsResultSchema>;

/** Body of `POST /v1/dkim/selectors`. */
export const dkimSelectorsBody = z
  .object({
    domain: z
      .string({ error: (issue) => (issue.input === undefined ? 'Domain is required' : undefined) })
      .max(253, 'Domain is too long: at most 253 characters')
      .refine((domain) => domain.trim() !== '', 'Domain is required'),
  })
  .strict();

export type DkimSelectorsBody = z.infer<typeof dkimSelectorsBody>;

/** The `data` of a `POST /v1/dkim/selectors` response. */
export const dkimSelectorDiscoverySchema = z.object({
  domain: z.string(),
  probed: z.number().int().nonnegative(),
  found: z.array(
    z.object({
      selector: z.string(),
      dnsName: z.string(),
      source: z.string().describe('Who publishes keys under this selector by default'),
      status: z.enum(['valid', 'invalid', 'revoked']),
      keyType: z.string().nullable(),
      keySize: z.number().int().nonnegative().nullable(),
      delegatedTo: z.string().nullable(),
    }),
  ),
  failed: z.array(z.object({ selector: z.string(), message: z.string() })),
  unchecked: z.array(z.string()).describe('Selectors left unasked when the time budget ran out'),
});

export type DkimSelectorDiscoveryData = z.infer<typeof dkimSelectorDiscoverySchema>;
