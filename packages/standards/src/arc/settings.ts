/**
 * The ARC generator's settings (spec part 2: instance, algorithm, domain, selector, headers,
 * bodyLength, chain, canonicalization), their defaults and the spec's messages. One schema serves
 * the web form, the live preview and `POST /v1/arc/generate`.
 */
import { z } from 'zod';

/** Signing algorithms offered (RFC 8617 §4.1.2 reuses DKIM's a=; rsa-sha1 only with a MUST NOT, RFC 8301). */
export const arcAlgorithms = ['rsa-sha256', 'rsa-sha1', 'ed25519-sha256'] as const;
export type ArcAlgorithm = (typeof arcAlgorithms)[number];

/** c= of the ARC-Message-Signature, header/body (RFC 6376 §3.4). */
export const arcCanonicalizations = [
  'simple/simple',
  'relaxed/relaxed',
  'simple/relaxed',
  'relaxed/simple',
] as const;
export type ArcCanonicalization = (typeof arcCanonicalizations)[number];

/** cv= of the ARC-Seal: the chain validation status the sealer found (RFC 8617 §4.1.3, §5.2). */
export const arcChainValues = ['none', 'pass', 'fail'] as const;
export type ArcChainValue = (typeof arcChainValues)[number];

/** Instances run from 1 to 50 (RFC 8617 §4.2.1). */
export const arcMaxInstance = 50;

export const arcSettingsRequiredMessage = 'Domain and selector are required';
export const arcMessageRequiredMessage = 'Message is required to seal';
export const arcFromRequiredMessage = 'The signed headers must include from (RFC 6376 §5.4)';
export const arcSealNotSignedMessage =
  'arc-seal must not be among the signed headers of an ARC-Message-Signature (RFC 8617 §4.1.2)';

export interface ArcSettings {
  instance: number;
  algorithm: ArcAlgorithm;
  domain: string;
  selector: string;
  /** Header field names the ARC-Message-Signature covers (h=), in order. */
  headers: string[];
  /** l= body length; absent signs the whole body. */
  bodyLength?: number | undefined;
  chain: ArcChainValue;
  canonicalization: ArcCanonicalization;
}

/** The spec's defaults: instance 1, rsa-sha256, relaxed/relaxed, from, to, subject, date, cv none. */
export const ARC_DEFAULTS = {
  instance: 1,
  algorithm: 'rsa-sha256',
  domain: '',
  selector: '',
  headers: ['from', 'to', 'subject', 'date'],
  chain: 'none',
  canonicalization: 'relaxed/relaxed',
} as const satisfies Omit<ArcSettings, 'headers'> & { headers: readonly string[] };

/** A header field name (RFC 5322 §3.6.8 ftext: printable ASCII except the colon). */
const FIELD_NAME = /^[\x21-\x39\x3b-\x7e]+$/;

/** `headers` as the signature lists them: trimmed, lower case, empty entries dropped. */
export function normaliseArcHeaders(headers: readonly string[]): string[] {
  return headers.map((name) => name.trim().toLowerCase()).filter((name) => name !== '');
}

/** Whether the settings name a domain and a selector (the spec enables Generate only then). */
export function arcSettingsReady(settings: Pick<ArcSettings, 'domain' | 'selector'>): boolean {
  return settings.domain.trim() !== '' && settings.selector.trim() !== '';
}

const requiredName = (what: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? arcSettingsRequiredMessage : undefined) })
    .max(253, `${what} is too long: at most 253 characters`);

/** The generator settings. Domain and selector may be blank here (the preview shows them empty). */
export const arcSettingsSchema = z.object({
  instance: z
    .number()
    .int('Instance must be a whole number')
    .min(1, 'Instance must be at least 1')
    .max(arcMaxInstance, `Instance must be at most ${arcMaxInstance} (RFC 8617 §4.2.1)`)
    .default(ARC_DEFAULTS.instance),
  algorithm: z.enum(arcAlgorithms).default(ARC_DEFAULTS.algorithm),
  domain: requiredName('Domain').describe('d= of the ARC-Seal and ARC-Message-Signature'),
  selector: requiredName('Selector').describe('s=: the key is published at selector._domainkey.domain'),
  headers: z
    .array(
      z
        .string()
        .max(100, 'A header name is too long: at most 100 characters')
        .refine((name) => name.trim() === '' || FIELD_NAME.test(name.trim()), {
          message: 'A header name may only hold printable ASCII other than the colon',
        }),
    )
    .max(64, 'At most 64 signed headers')
    .default([...ARC_DEFAULTS.headers])
    .superRefine((headers, context) => {
      const names = normaliseArcHeaders(headers);
      if (!names.includes('from')) context.addIssue({ code: 'custom', message: arcFromRequiredMessage });
      if (names.includes('arc-seal')) context.addIssue({ code: 'custom', message: arcSealNotSignedMessage });
    })
    .describe('Header field names the ARC-Message-Signature signs (h=)'),
  bodyLength: z
    .number()
    .int('Body length must be a whole number')
    .min(0, 'Body length must be 0 or more')
    .max(Number.MAX_SAFE_INTEGER)
    .optional()
    .describe('l=: sign only this many octets of the canonicalized body'),
  chain: z
    .enum(arcChainValues)
    .default(ARC_DEFAULTS.chain)
    .describe('cv= expected; the server computes it from the message and warns when it differs'),
  canonicalization: z.enum(arcCanonicalizations).default(ARC_DEFAULTS.canonicalization),
});

export type ArcSettingsInput = z.input<typeof arcSettingsSchema>;
