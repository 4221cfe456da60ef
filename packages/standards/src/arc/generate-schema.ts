/**
 * Request and answer of `POST /v1/arc/generate`. Sealing runs on the server (it needs the key, the
 * message's chain validated with keys from DNS, and node:crypto); the shapes are here so that the
 * generator page shares them.
 */
import { z } from 'zod';
import {
  arcAlgorithms,
  arcChainValues,
  arcMessageRequiredMessage,
  arcSettingsRequiredMessage,
  arcSettingsSchema,
} from './settings.ts';

/** Largest message accepted for sealing, in bytes of UTF-8. */
export const arcMessageMaxBytes = 1024 * 1024;
export const arcMessageTooLarge = 'Message is larger than 1 MiB';
/** An RSA-4096 PKCS#8 PEM is about 3.3 kB; this leaves room for line endings and headers. */
const privateKeyMaxLength = 16384;

function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** Body of `POST /v1/arc/generate`: the generator settings, the message and optionally the key. */
export const arcGenerateBody = arcSettingsSchema
  .extend({
    // no defaults here: the server sets i= and cv= from the message, and warns only about a value asked for
    instance: arcSettingsSchema.shape.instance
      .unwrap()
      .optional()
      .describe(
        'i= asked for; the set gets the next instance the message calls for, with a warning when they differ',
      ),
    chain: arcSettingsSchema.shape.chain
      .unwrap()
      .optional()
      .describe('cv= expected; the server computes it from the message and warns when it differs'),
    message: z
      .string({ error: (issue) => (issue.input === undefined ? arcMessageRequiredMessage : undefined) })
      .describe('The raw message to seal, header and body (CRLF or LF line endings)'),
    privateKey: z
      .string()
      .max(privateKeyMaxLength, `Private key is too long: at most ${privateKeyMaxLength} characters`)
      .optional()
      .describe(
        'PEM private key: PKCS#8 or PKCS#1 RSA, PKCS#8 Ed25519. Absent: a fresh key of the algorithm’s type is made and returned once',
      ),
    authservId: z
      .string()
      .max(253, 'Authserv-id is too long: at most 253 characters')
      .optional()
      .describe('Whose Authentication-Results go into the ARC-Authentication-Results (default: the domain)'),
    timestamp: z
      .number()
      .int('Timestamp must be a whole number of seconds')
      .min(0, 'Timestamp must be 0 or more')
      .max(99_999_999_999, 'Timestamp is too large')
      .optional()
      .describe('t= in seconds since 1970 (default: now)'),
  })
  .strict()
  .superRefine((input, context) => {
    if (input.domain.trim() === '' || input.selector.trim() === '') {
      context.addIssue({ code: 'custom', message: arcSettingsRequiredMessage });
    }
    if (input.message.trim() === '') context.addIssue({ code: 'custom', message: arcMessageRequiredMessage });
    // the cheap length check first: a UTF-8 octet count of a huge string is only done when needed
    else if (input.message.length > arcMessageMaxBytes || utf8Length(input.message) > arcMessageMaxBytes) {
      context.addIssue({ code: 'custom', message: arcMessageTooLarge });
    }
  });

export type ArcGenerateBody = z.infer<typeof arcGenerateBody>;
export type ArcGenerateBodyInput = z.input<typeof arcGenerateBody>;

/** The `data` of a `POST /v1/arc/generate` response. */
export const arcGenerateResultSchema = z.object({
  instance: z.number().int().describe('i= of the new ARC set: the highest existing instance + 1'),
  cv: z.enum(arcChainValues).describe('cv= of the new seal, from validating the existing chain'),
  algorithm: z.enum(arcAlgorithms),
  arcSeal: z.string().describe('ARC-Seal value as written (folded), without the field name'),
  arcMessageSignature: z.string().describe('ARC-Message-Signature value as written (folded)'),
  arcAuthenticationResults: z.string().describe('ARC-Authentication-Results value as written (folded)'),
  headers: z.string().describe('The three fields as prepended: AAR, AMS, AS, CRLF-joined'),
  sealedMessage: z.string().describe('The three fields followed by the message, in its own line endings'),
  chain: z
    .object({
      existingSets: z.number().int().describe('ARC sets already on the message'),
      reason: z.string().nullable().describe('Why the existing chain failed validation'),
    })
    .describe('What validating the existing chain found'),
  warnings: z.array(z.string()),
  key: z.object({
    generated: z.boolean(),
    privateKeyPem: z
      .string()
      .nullable()
      .describe('PKCS#8 PEM of a generated key, shown once; null for a supplied key'),
    dnsName: z.string().describe('selector._domainkey.domain'),
    record: z.string().describe('The DKIM key TXT record to publish there'),
    keyBits: z.number().int().describe('RSA modulus bits, or 256 for Ed25519'),
  }),
});

export type ArcGenerateResult = z.infer<typeof arcGenerateResultSchema>;
