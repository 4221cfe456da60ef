import { z } from 'zod';
import { validationResultSchema } from '../core/schema.ts';
import { securityTxtFetchHost } from './context.ts';
import { checkSecurityTxtInput } from './generate.ts';

/** Longest accepted file: real files are a few hundred bytes; signed ones with comments a few KiB. */
export const securityTxtMaxLength = 65536;
/** Longest accepted public key: an RSA-4096 key with many certifications stays well below this. */
export const securityTxtPublicKeyMaxLength = 131072;
const uriMaxLength = 2048;

const requiredMessage = 'security.txt content is required';

/** A string whose absence gets `message` (zod's own message would name no field). */
function requiredString(message: string) {
  return z.string({ error: (issue) => (issue.input === undefined ? message : undefined) });
}

const optionalUri = (what: string) =>
  z.string().max(uriMaxLength, `${what} is too long: at most ${uriMaxLength} characters`).optional();

/** Body of `POST /v1/security-txt/generate`, shared by the server route and the web form. */
export const securityTxtGenerateBody = z
  .object({
    domain: requiredString('Domain is required').max(253, 'Domain is too long: at most 253 characters'),
    contacts: z
      .array(z.string().max(uriMaxLength, `A contact is too long: at most ${uriMaxLength} characters`), {
        error: (issue) => (issue.input === undefined ? 'At least one contact is required' : undefined),
      })
      .max(20, 'At most 20 contacts'),
    expires: requiredString('Expires is required').max(64, 'Expires is too long'),
    acknowledgments: optionalUri('Acknowledgments'),
    preferredLanguages: z
      .array(z.string().max(64, 'A language tag is too long'))
      .max(20, 'At most 20 languages')
      .optional(),
    canonical: optionalUri('Canonical'),
    policy: optionalUri('Policy'),
    hiring: optionalUri('Hiring'),
    encryption: optionalUri('Encryption'),
    csaf: optionalUri('CSAF'),
  })
  .strict()
  .superRefine((input, context) => {
    for (const issue of checkSecurityTxtInput(input).errors) {
      context.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    }
  });

export type SecurityTxtGenerateBody = z.infer<typeof securityTxtGenerateBody>;

/** The `data` of a `POST /v1/security-txt/generate` response. */
export const securityTxtGenerateResultSchema = z.object({
  file: z.string().describe('The security.txt file: LF line ends, one field per line, ending in a newline'),
  warnings: z
    .array(z.string())
    .describe('Advice that did not block generation, e.g. Expires more than a year ahead'),
});

export type SecurityTxtGenerateResultData = z.infer<typeof securityTxtGenerateResultSchema>;

const publicKeySchema = z
  .string()
  .max(
    securityTxtPublicKeyMaxLength,
    `The public key is too long: at most ${securityTxtPublicKeyMaxLength} characters`,
  )
  .optional()
  .describe('Armoured OpenPGP public key of the expected signer; when given, the signature is verified');

/** Body of `POST /v1/security-txt/validate`. The content is validated as sent: never trimmed. */
export const securityTxtValidateBody = z
  .object({
    content: requiredString(requiredMessage)
      .max(
        securityTxtMaxLength,
        `security.txt content is too long: at most ${securityTxtMaxLength} characters`,
      )
      .refine((content) => content.trim() !== '', requiredMessage)
      .describe('The file as published, signed or not'),
    publicKey: publicKeySchema,
  })
  .strict();

export type SecurityTxtValidateBody = z.infer<typeof securityTxtValidateBody>;

/** Body of `POST /v1/security-txt/fetch`. */
export const securityTxtFetchBody = z
  .object({
    domain: requiredString('Domain is required')
      .max(uriMaxLength, `Domain is too long: at most ${uriMaxLength} characters`)
      .superRefine((domain, context) => {
        const host = securityTxtFetchHost(domain);
        if (!host.ok) context.addIssue({ code: 'custom', message: host.message });
      })
      .describe('A domain (example.com) or IP address, or a URL whose host is used'),
    publicKey: publicKeySchema,
  })
  .strict();

export type SecurityTxtFetchBody = z.infer<typeof securityTxtFetchBody>;

const verificationSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('good'),
    keyId: z.string(),
    fingerprint: z.string(),
    created: z.string().nullable(),
    userIds: z.array(z.string()),
  }),
  z.object({ status: z.literal('bad'), keyId: z.string(), reason: z.string() }),
  z.object({
    status: z.literal('wrong-key'),
    signerKeyIds: z.array(z.string()),
    suppliedKeyIds: z.array(z.string()),
  }),
  z.object({ status: z.literal('key-invalid'), reason: z.string() }),
  z.object({ status: z.literal('unreadable'), reason: z.string() }),
]);

export const securityTxtParsedSchema = z.object({
  signed: z.boolean(),
  fields: z.array(
    z.object({ name: z.string(), value: z.string(), line: z.number().int().positive(), known: z.boolean() }),
  ),
  expires: z
    .object({ value: z.string(), line: z.number().int().positive(), date: z.string().nullable() })
    .nullable(),
  preferredLanguages: z.array(z.string()).nullable(),
  signature: z
    .object({
      hashes: z.array(z.string()),
      signers: z.array(
        z.object({
          keyId: z.string().nullable(),
          fingerprint: z.string().nullable(),
          hashAlgorithm: z.string(),
          created: z.string().nullable(),
        }),
      ),
      verification: verificationSchema.nullable(),
    })
    .nullable(),
});

/** The `data` of a `POST /v1/security-txt/validate` response. */
export const securityTxtValidationResultSchema = validationResultSchema(securityTxtParsedSchema);

export type SecurityTxtValidationResultData = z.infer<typeof securityTxtValidationResultSchema>;

const certificateProblemSchema = z.enum([
  'expired',
  'not-yet-valid',
  'wrong-name',
  'self-signed',
  'untrusted',
  'other',
]);

/** Where the fetched file came from: the facts behind the HTTP checks of RFC 9116 §3. */
export const securityTxtFetchSourceSchema = z.object({
  url: z.string().describe('The location that answered (one of the locations tried)'),
  finalUrl: z.string().describe('The URL of the response after redirects'),
  status: z.number().int(),
  contentType: z.string().nullable().describe('The Content-Type header as received; null when absent'),
  content: z
    .string()
    .describe('The body as fetched, read as UTF-8 (bytes that are not become U+FFFD), for quoting lines'),
  redirects: z
    .array(z.object({ url: z.string(), status: z.number().int(), location: z.string() }))
    .describe('Each redirect followed, in order'),
  certificate: z
    .object({
      host: z.string(),
      verified: z.boolean().describe('The chain verified and the name matched'),
      problem: certificateProblemSchema.optional(),
      message: z.string().optional().describe('Why verification failed'),
      subject: z.string(),
      issuer: z.string(),
      validFrom: z.string(),
      validTo: z.string(),
    })
    .nullable()
    .describe('The leaf certificate of the final https response; null over http'),
});

/** One location tried, in order, until the file was found. */
export const securityTxtFetchAttemptSchema = z.object({
  url: z.string(),
  status: z.number().int().nullable().describe('The final status, null when no response came'),
  finalUrl: z.string().nullable(),
  error: z.string().nullable().describe('Why this location gave no file'),
});

/** The `data` of a `POST /v1/security-txt/fetch` response. */
export const securityTxtFetchResultSchema = validationResultSchema(securityTxtParsedSchema).extend({
  domain: z.string().describe('The host the file was looked for on'),
  source: securityTxtFetchSourceSchema.nullable().describe('Null when no location had the file'),
  attempts: z.array(securityTxtFetchAttemptSchema),
});

export type SecurityTxtFetchSource = z.infer<typeof securityTxtFetchSourceSchema>;
export type SecurityTxtFetchAttempt = z.infer<typeof securityTxtFetchAttemptSchema>;
export type SecurityTxtFetchResultData = z.infer<typeof securityTxtFetchResultSchema>;
