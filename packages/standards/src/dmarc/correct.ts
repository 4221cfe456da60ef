import type { Diagnostic } from '../core/diagnostic.ts';
import type { CorrectedRecord } from '../core/schema.ts';
import { parseDmarcRecord, type DmarcRawTag } from './parse.ts';
import { dmarcTagDefinitions, isDmarcTagName } from './tags.ts';
import { analyzeDmarcRecord } from './validate.ts';

const BARE_ADDRESS = /^[^\s:@,!]+@[^\s:@,!]+$/;

/** The error of the tag's value, under either RFC (RFC 7489 still checks pct, ri and rf). */
function valueError(tag: DmarcRawTag, findings: readonly Diagnostic[]): Diagnostic | undefined {
  return findings.find(
    (d) =>
      d.severity === 'error' &&
      d.span !== undefined &&
      d.span.start >= tag.span.start &&
      d.span.end <= tag.span.end,
  );
}

/**
 * The record with its mechanical fixes, or undefined when there is none or the result would still
 * fail: a missing p= added as p=none (RFC 7489 §6.3 requires p; none is the monitoring start RFC
 * 9989 §4.10.1 assumes), an invalid p= made p=none, bare report addresses given their mailto:
 * (RFC 9989 §4.7), other invalid values, unknown tags and repeated tags removed (receivers ignore
 * them, §4.7), tag names lower-cased, and p moved right after v (the RFC 7489 §6.4 order).
 */
export function correctDmarcRecord(text: string): CorrectedRecord | undefined {
  const parse = parseDmarcRecord(text.trim());
  if (!parse.ok) return undefined;
  const findings = [
    ...analyzeDmarcRecord(text.trim(), 'RFC 9989').diagnostics,
    ...analyzeDmarcRecord(text.trim(), 'RFC 7489').diagnostics,
  ];
  const changes: string[] = [];
  const tags: { key: string; value: string }[] = [];
  const seen = new Set<string>(['v']);
  for (const tag of parse.tags.slice(1)) {
    const { key, value } = tag;
    if (seen.has(key)) {
      changes.push(
        `Removed the repeated ${tag.name}=${value}: only the first ${key}= counts (RFC 9989 §4.7).`,
      );
      continue;
    }
    seen.add(key);
    if (!isDmarcTagName(key)) {
      changes.push(
        `Removed ${tag.name}=${value}: it is not a DMARC tag and receivers ignore it (RFC 9989 §4.7).`,
      );
      continue;
    }
    if (tag.name !== key)
      changes.push(`Wrote the tag name ${tag.name} in lower case, as it is defined (RFC 9989 §4.7).`);
    const error = valueError(tag, findings);
    if (error === undefined) {
      tags.push({ key, value });
    } else if (key === 'p') {
      tags.push({ key, value: 'none' });
      changes.push(
        `Replaced p=${value} with p=none: ${error.message}. Start at none and tighten once the reports show every sender aligned (RFC 9989 §4.7).`,
      );
    } else if (
      (key === 'rua' || key === 'ruf') &&
      value.split(',').some((uri) => BARE_ADDRESS.test(uri.trim()))
    ) {
      const fixed = value
        .split(',')
        .map((uri) => (BARE_ADDRESS.test(uri.trim()) ? `mailto:${uri.trim()}` : uri.trim()))
        .join(',');
      tags.push({ key, value: fixed });
      changes.push(`Wrote ${key}=${fixed}: report addresses are mailto: URIs (RFC 9989 §4.7).`);
    } else {
      const fallback = dmarcTagDefinitions[key].defaultValue;
      changes.push(
        `Removed ${key}=${value}: ${error.message}.${fallback === undefined ? '' : ` Without it the default ${key}=${fallback} applies.`}`,
      );
    }
  }
  const p = tags.findIndex((tag) => tag.key === 'p');
  if (p === -1) {
    tags.unshift({ key: 'p', value: 'none' });
    changes.push(
      'Added p=none: RFC 7489 §6.3 requires a policy and RFC 9989 receivers assume none (monitoring only); tighten it once the reports show every sender aligned.',
    );
  } else if (p > 0) {
    tags.unshift(...tags.splice(p, 1));
    changes.push('Moved p= right after v=DMARC1, where the RFC 7489 grammar puts it (RFC 7489 §6.4).');
  }
  if (changes.length === 0) return undefined;
  const record = ['v=DMARC1', ...tags.map(({ key, value }) => `${key}=${value}`)].join('; ');
  const check = analyzeDmarcRecord(record, 'RFC 9989');
  if (check.diagnostics.some((d) => d.severity === 'error')) return undefined;
  return { record, changes };
}
