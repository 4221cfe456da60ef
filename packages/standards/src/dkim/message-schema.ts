/**
 * Request and answer of `POST /v1/dkim/verify-message`. The verification itself runs on the server
 * (it needs mailauth and the DNS client); the shapes are here so that the page shares them.
 */
import { z } from 'zod';
import { diagnosticSchema } from '../core/schema.ts';

/** UTF-8 length without encoding the string (a message may be megabytes). */
function utf8Length(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) length += 1;
    else if (code < 0x800) length += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length += 4;
        i++;
      } else length += 3;
    } else length += 3;
  }
  return length;
}

/** Largest message accepted, in bytes of UTF-8 (a DKIM verifier needs the whole message). */
export const dkimMessageMaxBytes = 5 * 1024 * 1024;
export const dkimMessageRequired = 'Message is required';
export const dkimMessageTooLarge = 'Message is larger than 5 MiB';

export const dkimSignatureResults = ['pass', 'fail', 'neutral', 'temperror', 'permerror', 'policy'] as const;
export type DkimSignatureResult = (typeof dkimSignatureResults)[number];

/**
 * The reason of a signature whose key lookup our resolver did not answer: a temporary failure
 * (RFC 6376 §6.1.2, TEMPFAIL) that says nothing about the signature or the domain's key.
 */
export const dkimKeyNotCheckedReason =
  'we could not check this signature: our DNS resolver did not answer the key lookup (a temporary failure, nothing wrong with the signature or the key)';

export const dkimVerifyMessageBody = z
  .object({
    message: z
      .string({ error: (issue) => (issue.input === undefined ? dkimMessageRequired : undefined) })
      .refine((message) => message.trim() !== '', dkimMessageRequired)
      .refine((message) => utf8Length(message) <= dkimMessageMaxBytes, dkimMessageTooLarge)
      .describe('The raw message, header and body, as received (CRLF or LF line endings)'),
  })
  .strict();

export type DkimVerifyMessageBody = z.infer<typeof dkimVerifyMessageBody>;

const keySchema = z.object({
  /** Where the key was looked up: `s._domainkey.d`. */
  dnsName: z.string(),
  /** The key record's TXT data, strings joined; `null` when none was found. */
  record: z.string().nullable(),
  /** The DNS outcome of the lookup. */
  lookup: z.enum(['ok', 'nxdomain', 'nodata', 'servfail', 'timeout', 'error']),
  /** k= of the record (rsa when absent). */
  type: z.string().nullable(),
  /** RSA modulus bits, or 256 for Ed25519. */
  size: z.number().int().nullable(),
  status: z.enum(['valid', 'invalid', 'revoked']).nullable(),
  /** The key record validator's findings. */
  diagnostics: z.array(diagnosticSchema),
});

export const dkimSignatureVerdictSchema = z.object({
  d: z.string().nullable(),
  s: z.string().nullable(),
  a: z.string().nullable(),
  c: z.string().nullable(),
  i: z.string().nullable(),
  /** The header fields the signature covers (h=), as listed. */
  signedHeaders: z.array(z.string()),
  bodyHash: z.object({
    /** bh= of the signature. */
    expected: z.string().nullable(),
    /** The hash of the canonicalized body as received. */
    computed: z.string().nullable(),
    match: z.boolean(),
  }),
  key: keySchema.nullable(),
  result: z.enum(dkimSignatureResults),
  /** Why the result is not pass (or what to note about a pass). */
  reason: z.string().nullable(),
  rfc: z.string().nullable(),
  /** t= and x= as ISO times. */
  signedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  expired: z.boolean(),
  /** The key record has t=y: the domain is testing DKIM. */
  testing: z.boolean(),
  /** What the library answered before RFC 8301 was applied, e.g. `pass` for rsa-sha1. */
  library: z.object({ result: z.string(), comment: z.string().nullable() }),
});

export type DkimSignatureVerdict = z.infer<typeof dkimSignatureVerdictSchema>;

export const dkimVerifyMessageResultSchema = z.object({
  signatures: z.array(dkimSignatureVerdictSchema),
  summary: z.object({
    /** `none` for a message without DKIM-Signature, else pass when at least one signature passes. */
    result: z.enum(['none', 'pass', 'fail']),
    total: z.number().int(),
    passed: z.number().int(),
    message: z.string(),
  }),
});

export type DkimVerifyMessageResult = z.infer<typeof dkimVerifyMessageResultSchema>;
