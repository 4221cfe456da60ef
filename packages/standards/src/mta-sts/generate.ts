/** Builds the two parts of an MTA-STS deployment (RFC 8461 §3.1, §3.2) and says where they go. */
import { domainNameProblem } from '../core/domain-field.ts';
import type { Outcome } from '../core/outcome.ts';
import type { MtaStsMode } from './parse.ts';
import type { MtaStsGenerateResultData } from './schema.ts';
import { mxPatternProblem, validateMtaStsPolicy } from './validate.ts';

export interface MtaStsGeneratorInput {
  domain: string;
  mode: MtaStsMode;
  /** mx patterns; blank entries are skipped. */
  mx: readonly string[];
  maxAge: number;
  /** The record id; blank or absent: the UTC date and time of `now`. */
  id?: string | undefined;
}

/** The record name of a Policy Domain (RFC 8461 §3.1). */
export function mtaStsRecordName(domain: string): string {
  return `_mta-sts.${domain}`;
}

/** The Policy Host of a Policy Domain (RFC 8461 §3.2). */
export function mtaStsPolicyHost(domain: string): string {
  return `mta-sts.${domain}`;
}

/** Where senders fetch the policy (RFC 8461 §3.2, RFC 8615 well-known path). */
export function mtaStsPolicyUrl(domain: string): string {
  return `https://${mtaStsPolicyHost(domain)}/.well-known/mta-sts.txt`;
}

/** A record id from a moment: YYYYMMDDhhmmss in UTC, 14 digits, so later policies get larger ids. */
export function mtaStsIdFromDate(date: Date): string {
  return date.toISOString().replace(/\D/g, '').slice(0, 14);
}

/** The policy file, each line ended with CRLF as RFC 8461 §3.2 writes it. */
export function mtaStsPolicyText(mode: MtaStsMode, mx: readonly string[], maxAge: number): string {
  const lines = [
    'version: STSv1',
    `mode: ${mode}`,
    ...mx.map((pattern) => `mx: ${pattern}`),
    `max_age: ${maxAge}`,
  ];
  return lines.map((line) => `${line}\r\n`).join('');
}

/**
 * The TXT record, the policy file and the hosting steps for a domain. Refused: no domain ('Domain is
 * required'), a malformed mx pattern, an id that is not 1-32 letters or digits, and enforce or
 * testing without any mx.
 */
export function generateMtaSts(
  input: MtaStsGeneratorInput,
  now: Date = new Date(),
): Outcome<MtaStsGenerateResultData> {
  const domainProblem = domainNameProblem(input.domain);
  if (domainProblem !== undefined) return { ok: false, error: domainProblem };
  const domain = input.domain.trim().toLowerCase().replace(/\.$/, '');
  const mx = input.mx
    .map((pattern) => pattern.trim().toLowerCase().replace(/\.$/, ''))
    .filter((p) => p !== '');
  for (const pattern of mx) {
    const problem = mxPatternProblem(pattern);
    if (problem !== null) return { ok: false, error: problem };
  }
  if (mx.length === 0 && input.mode !== 'none')
    return { ok: false, error: 'At least one mx field is required' };
  const given = input.id?.trim() ?? '';
  if (given !== '' && !/^[A-Za-z0-9]{1,32}$/.test(given))
    return { ok: false, error: 'The id is 1 to 32 letters or digits' };
  const id = given === '' ? mtaStsIdFromDate(now) : given;

  const text = mtaStsPolicyText(input.mode, mx, input.maxAge);
  const host = mtaStsPolicyHost(domain);
  const url = mtaStsPolicyUrl(domain);
  const name = mtaStsRecordName(domain);
  const value = `v=STSv1; id=${id}`;
  const hosting = [
    `Point ${host} at a web server (an A/AAAA or CNAME record).`,
    `Serve the policy file at ${url} with HTTP 200, "Content-Type: text/plain", and no redirect: senders do not follow redirects (RFC 8461 §3.3).`,
    `Give ${host} a certificate from a public certificate authority that is valid for the name ${host} (RFC 8461 §3.3).`,
    `Publish the TXT record ${name} with the value ${value} once the policy is reachable (RFC 8461 §3.1).`,
    'On every later change: update the policy file first, then give the record a new id, so that senders fetch the new policy (RFC 8461 §3.1).',
    `Publish a TLS-RPT record at _smtp._tls.${domain} to receive reports of failed deliveries (RFC 8460).`,
  ];
  // the generated policy is valid by construction: what the validator adds is guidance
  const diagnostics = validateMtaStsPolicy(text).diagnostics;
  return {
    ok: true,
    result: {
      record: { name, type: 'TXT', value, id },
      policy: { host, url, contentType: 'text/plain', text },
      hosting,
      diagnostics,
    },
  };
}
