import type { CorrectedRecord } from '../core/schema.ts';
import { parseSpfRecord } from './parse.ts';
import type { SpfTerm } from './record.ts';

const RECORD_LEVEL = new Set(['SPF_LOOKUP_LIMIT', 'SPF_REDIRECT_DUPLICATE', 'SPF_EXP_DUPLICATE']);

/**
 * The record with the terms removed that a mechanical edit can fix, or undefined when there is
 * none or the result would still fail: terms with a syntax error (any of them makes the whole
 * record a permerror, RFC 7208 §4.6), terms after `all` (never evaluated, §5.1), a redirect beside
 * `all` (ignored, §6.1), a second redirect= or exp= (permerror, §6) and `ptr` (SHOULD NOT be
 * used, §5.5). What a removed ptr or term authorised must be listed again with ip4/ip6 if needed:
 * the changes say so.
 */
export function correctSpfRecord(text: string): CorrectedRecord | undefined {
  const { record, diagnostics } = parseSpfRecord(text.trim());
  if (record === undefined) return undefined;
  // the term's own syntax errors; the lookup limit and duplicate modifiers are not one term's fault
  const errorIn = (term: SpfTerm) =>
    diagnostics.find(
      (d) =>
        d.severity === 'error' &&
        !RECORD_LEVEL.has(d.code) &&
        d.span !== undefined &&
        d.span.start >= term.span.start &&
        d.span.end <= term.span.end,
    );
  const kept: string[] = [];
  const changes: string[] = [];
  const seenModifiers = new Set<string>();
  for (const term of record.terms) {
    const error = errorIn(term);
    if (term.type === 'invalid' || error !== undefined) {
      changes.push(
        `Removed '${term.text}': ${error?.message.replace(/^'[^']*':\s*/, '') ?? 'it is not a valid term'}. A syntax error anywhere makes receivers fail the whole record (RFC 7208 §4.6).`,
      );
    } else if (record.all !== undefined && term.index > record.all.index) {
      changes.push(
        `Removed '${term.text}': it comes after '${record.all.text}' and is never evaluated (RFC 7208 §5.1).`,
      );
    } else if (term.type === 'modifier' && term.kind !== 'unknown' && seenModifiers.has(term.kind)) {
      changes.push(`Removed the second '${term.text}': ${term.kind}= may appear once (RFC 7208 §6).`);
    } else if (term.type === 'modifier' && term.kind === 'redirect' && record.all !== undefined) {
      changes.push(
        `Removed '${term.text}': a redirect is ignored when the record has '${record.all.text}' (RFC 7208 §6.1).`,
      );
    } else if (term.type === 'mechanism' && term.name === 'ptr') {
      changes.push(
        `Removed '${term.text}': ptr SHOULD NOT be used (RFC 7208 §5.5). If it authorised a sender, list that sender's addresses with ip4:/ip6: or its host with a:.`,
      );
    } else {
      if (term.type === 'modifier') seenModifiers.add(term.kind);
      kept.push(term.text);
    }
  }
  if (changes.length === 0) return undefined;
  const corrected = ['v=spf1', ...kept].join(' ');
  const check = parseSpfRecord(corrected);
  if (check.diagnostics.some((d) => d.severity === 'error')) return undefined;
  return { record: corrected, changes };
}
