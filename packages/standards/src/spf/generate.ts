/**
 * Builds an SPF record from a structured form (the generator tab and `POST /v1/spf/generate`
 * share it): cheap ip4/ip6 terms first, then the terms that query the DNS, then `all`, then the
 * modifiers (RFC 7208 §6: modifiers after the mechanisms). The result is read back by the parser,
 * so the diagnostics are the validator's own.
 */
import type { Diagnostic } from '../core/diagnostic.ts';
import { toValidationResult } from '../core/diagnostic.ts';
import { parseSpfRecord } from './parse.ts';
import { recordLookupTerms, SPF_LOOKUP_LIMIT } from './record.ts';
import { checkTxtAnswerSize } from './record-selection.ts';
import type { SpfGenerateInput, SpfGenerateResultData } from './schema.ts';

export type SpfGenerateOptions = Partial<SpfGenerateInput>;

/** Trimmed, blanks skipped, duplicates once, a typed `ip4:` prefix tolerated. */
function entries(values: readonly string[] | undefined, prefix: string): string[] {
  const seen = new Set<string>();
  for (const raw of values ?? []) {
    let value = raw.trim();
    if (value.toLowerCase().startsWith(`${prefix}:`)) value = value.slice(prefix.length + 1).trim();
    if (value !== '') seen.add(value);
  }
  return [...seen];
}

function modifierValue(value: string | undefined, name: string): string {
  let out = (value ?? '').trim();
  if (out.toLowerCase().startsWith(`${name}=`)) out = out.slice(name.length + 1).trim();
  return out;
}

/** The record text alone, for a live preview. */
export function buildSpfRecord(input: SpfGenerateOptions): string {
  const terms = ['v=spf1'];
  for (const ip of entries(input.ip4, 'ip4')) terms.push(`ip4:${ip}`);
  for (const ip of entries(input.ip6, 'ip6')) terms.push(`ip6:${ip}`);
  if (input.aSelf === true) terms.push('a');
  for (const host of entries(input.a, 'a')) terms.push(`a:${host}`);
  if (input.mxSelf === true) terms.push('mx');
  for (const host of entries(input.mx, 'mx')) terms.push(`mx:${host}`);
  for (const domain of entries(input.include, 'include')) terms.push(`include:${domain}`);
  for (const spec of entries(input.exists, 'exists')) terms.push(`exists:${spec}`);
  const all = input.all ?? '~';
  if (all !== 'none') terms.push(`${all}all`);
  const redirect = modifierValue(input.redirect, 'redirect');
  if (redirect !== '') terms.push(`redirect=${redirect}`);
  const exp = modifierValue(input.exp, 'exp');
  if (exp !== '') terms.push(`exp=${exp}`);
  return terms.join(' ');
}

/** The record, its own lookup count and the parser's diagnostics on it. */
export function generateSpf(input: SpfGenerateOptions): SpfGenerateResultData {
  const record = buildSpfRecord(input);
  const parsed = parseSpfRecord(record);
  const diagnostics: Diagnostic[] = [...parsed.diagnostics];
  const lookups = parsed.record === undefined ? 0 : recordLookupTerms(parsed.record).length;
  const domain = (input.domain ?? '').trim();
  diagnostics.push(...checkTxtAnswerSize(domain === '' ? 'example.com' : domain, [record]));
  if (lookups > 0 && lookups <= SPF_LOOKUP_LIMIT && diagnostics.every((d) => d.code !== 'SPF_LOOKUP_LIMIT')) {
    diagnostics.push({
      severity: 'info',
      code: 'SPF_LOOKUP_COUNT',
      message: `the record itself uses ${lookups} of the ${SPF_LOOKUP_LIMIT} DNS lookups allowed; each include adds the lookups of the record it includes`,
      requirement: 'MUST',
      rfc: 'RFC 7208 §4.6.4',
      fix: 'Validate the published record to count the lookups of the whole include tree.',
    });
  }
  const result = toValidationResult(diagnostics);
  return { record, lookups, ...result };
}
