import { z } from 'zod';
import { domainField } from '../core/domain-field.ts';
import { dnsRecordTypes, type DnsRecordType } from '../core/resolver.ts';
import { requirementLevelSchema, validationResultSchema } from '../core/schema.ts';

/** Longest accepted input: an RSA-4096 DNSKEY line is under 800 characters; this leaves room for comments. */
export const dnskeyRecordMaxLength = 16384;

/** Body of `POST /v1/dnskey/validate`, shared by the server route and the web form. */
export const dnskeyValidateBody = z
  .object({
    record: z
      .string()
      .trim()
      .min(1, 'DNSKEY record is required')
      .max(dnskeyRecordMaxLength, `DNSKEY record is too long: at most ${dnskeyRecordMaxLength} characters`)
      .describe('A DNSKEY record: bare RDATA "257 3 13 <base64>" or a zone-file line with owner name'),
  })
  .strict();

export type DnskeyValidateBody = z.infer<typeof dnskeyValidateBody>;

const implementationStatusSchema = z.enum([
  'MUST',
  'MUST NOT',
  'SHOULD',
  'SHOULD NOT',
  'MAY',
  'RECOMMENDED',
  'NOT RECOMMENDED',
]);

export const dsRecordSchema = z.object({
  digestType: z.union([z.literal(1), z.literal(2), z.literal(4)]),
  digestName: z.enum(['SHA-1', 'SHA-256', 'SHA-384']),
  digest: z.string().describe('Upper-case hex'),
  requirement: requirementLevelSchema.describe('Use for delegations per RFC 8624 §3.3'),
  rfc: z.string(),
  record: z.string().describe('Presentation line: owner. [TTL] IN DS keytag algorithm digest-type DIGEST'),
});

export const dnskeyParsedSchema = z.object({
  ownerName: z.string().nullable().describe('Lower-case absolute owner name, or null when none was given'),
  ttl: z.number().int().nonnegative().nullable(),
  keyType: z.enum(['KSK', 'ZSK', 'Non-zone key']),
  flags: z.number().int().min(0).max(65535),
  flagBits: z.object({ zoneKey: z.boolean(), secureEntryPoint: z.boolean(), revoked: z.boolean() }),
  protocol: z.number().int().min(0).max(255),
  algorithm: z.number().int().min(0).max(255),
  algorithmName: z.string(),
  algorithmStatus: z.object({
    signing: implementationStatusSchema.nullable(),
    validation: implementationStatusSchema.nullable(),
    rfc: z.string(),
  }),
  keyTag: z.number().int().min(0).max(65535),
  keySize: z.number().int().nonnegative().nullable().describe('Bits; see the DnskeyParsed documentation'),
  publicKeyBytes: z.number().int().nonnegative(),
  ds: z.array(dsRecordSchema),
});

/** The `data` of a `POST /v1/dnskey/validate` response. */
export const dnskeyValidationResultSchema = validationResultSchema(dnskeyParsedSchema);

export type DnskeyValidationResultData = z.infer<typeof dnskeyValidationResultSchema>;

/**
 * The record types a chain can be asked for: every type the resolver decodes but RRSIG, which is
 * never signed itself (RFC 4035 §2.2) and so has no chain of its own.
 */
export const dnssecChainTypes = dnsRecordTypes.filter((type) => type !== 'RRSIG');

/** Body of `POST /v1/dnssec/chain` (alias `/v1/dnskey/chain`), shared by the server route and the web form. */
export const dnssecChainBody = z
  .object({
    domain: domainField({ anyDnsName: true }).describe(
      'The name whose records are validated from the root down, e.g. example.com; the root (.), a TLD and a wildcard owner (*.example.com) too',
    ),
    type: z
      .string()
      .trim()
      .toUpperCase()
      .default('A')
      .refine((type): type is DnsRecordType => (dnssecChainTypes as string[]).includes(type), {
        message: `Type must be one of ${dnssecChainTypes.join(', ')}`,
      })
      .describe('The record type whose RRset (or proof of absence) ends the chain; A by default'),
  })
  .strict();

export type DnssecChainBody = z.infer<typeof dnssecChainBody>;
