import type { Diagnostic, Span } from '../core/diagnostic.ts';

/** One `tag=value` of a DMARC record, with where it sits in the record. */
export interface DmarcRawTag {
  /** The name as written. */
  name: string;
  /** The name in lower case, as the tags are defined. */
  key: string;
  /** The value as written, without the whitespace around it. */
  value: string;
  span: Span;
  nameSpan: Span;
  valueSpan: Span;
}

/** Why a TXT record is not a DMARC record at all (RFC 9989 §4.7 `v`: "the entire record MUST be ignored"). */
export type DmarcNotRecordReason =
  | 'empty'
  | 'leading-whitespace'
  | 'spf'
  | 'version-case'
  | 'version-value'
  | 'missing-separator'
  | 'version-not-first'
  | 'no-version';

export type DmarcParseResult =
  | { ok: true; tags: DmarcRawTag[]; diagnostics: Diagnostic[] }
  | { ok: false; reason: DmarcNotRecordReason; diagnostics: Diagnostic[] };

const VERSION = /^[vV][ \t]*=[ \t]*/;
const TAG_NAME = /^[A-Za-z]+$/;
/** RFC 9989 §4.8 `dmarc-value`: any printing character but ';', and space. */
const VALUE_CHARS = /^[\x20-\x3a\x3c-\x7e]+$/;

function isWsp(c: string): boolean {
  return c === ' ' || c === '\t';
}

/**
 * Whether a TXT record is a DMARC record: it starts with `v=DMARC1` (WSP allowed around '=',
 * value case-sensitive), followed by the end or a `;` (RFC 9989 §4.8 `dmarc-version`,
 * `dmarc-sep`). Receivers discard every other record at `_dmarc` (RFC 9989 §4.10 step 2).
 */
export function isDmarcRecord(text: string): boolean {
  const match = VERSION.exec(text);
  if (match === null) return false;
  const rest = text.slice(match[0].length);
  if (!rest.startsWith('DMARC1')) return false;
  let i = 'DMARC1'.length;
  while (i < rest.length && isWsp(rest.charAt(i))) i++;
  return i === rest.length || rest.charAt(i) === ';';
}

function notRecord(
  reason: DmarcNotRecordReason,
  message: string,
  fix: string,
  span?: Span,
): DmarcParseResult {
  const diagnostic: Diagnostic = {
    severity: 'error',
    code: reason === 'spf' ? 'DMARC_SPF_RECORD' : 'DMARC_NOT_DMARC',
    message,
    requirement: 'MUST',
    rfc: 'RFC 9989 §4.7',
    fix,
  };
  if (span !== undefined) diagnostic.span = span;
  return { ok: false, reason, diagnostics: [diagnostic] };
}

/** Explains why a record that is not `v=DMARC1 …` is ignored. */
function whyNotDmarc(text: string): DmarcParseResult {
  const firstTag = text.split(';', 1)[0] ?? '';
  if (text.trim() === '') {
    return notRecord('empty', 'The record is empty', 'Publish v=DMARC1; p=none; rua=mailto:… as a start.');
  }
  if (isWsp(text.charAt(0)) || /^\s/.test(text)) {
    const end = text.length - text.trimStart().length;
    return notRecord(
      'leading-whitespace',
      'The record starts with whitespace, so it does not begin with v=DMARC1 and receivers ignore it',
      'Remove the whitespace before v=DMARC1.',
      { start: 0, end },
    );
  }
  if (/^v[ \t]*=[ \t]*spf1(?:[ \t]|$)/i.test(text)) {
    return notRecord(
      'spf',
      'This is an SPF record (v=spf1), not a DMARC record; receivers ignore it here',
      'Publish the SPF record at the domain itself and a v=DMARC1 record at _dmarc. An SPF record at _dmarc is often the answer of a wildcard (*) TXT record.',
      { start: 0, end: firstTag.length },
    );
  }
  const version = VERSION.exec(text);
  if (version !== null) {
    const valueStart = version[0].length;
    const value = firstTag.slice(valueStart).replace(/[ \t]+$/, '');
    const span = { start: valueStart, end: valueStart + value.length };
    if (value === 'DMARC1' || /^DMARC1[ \t]/.test(value)) {
      return notRecord(
        'missing-separator',
        "There is no ';' after v=DMARC1, so the version reads as something else and receivers ignore the record",
        "Separate the tags with ';': v=DMARC1; p=…",
        span,
      );
    }
    if (value.toUpperCase() === 'DMARC1') {
      return notRecord(
        'version-case',
        `The version is '${value}': it must be exactly DMARC1 in upper case, or receivers ignore the record`,
        'Write v=DMARC1.',
        span,
      );
    }
    return notRecord(
      'version-value',
      `The version is '${value}': the only valid value is DMARC1, so receivers ignore the record`,
      'Write v=DMARC1.',
      span,
    );
  }
  const later = /(?:^|;)[ \t]*v[ \t]*=[ \t]*DMARC1[ \t]*(?:;|$)/.exec(text);
  if (later !== null) {
    return notRecord(
      'version-not-first',
      'v=DMARC1 is not the first tag, so receivers ignore the record',
      'Move v=DMARC1 to the start of the record.',
      { start: later.index, end: later.index + later[0].length },
    );
  }
  return notRecord(
    'no-version',
    'The record does not start with v=DMARC1, so it is not a DMARC record and receivers ignore it',
    'Start the record with v=DMARC1; followed by the tags.',
  );
}

/**
 * Reads a DMARC record as RFC 9989 §4.8 defines it: `v=DMARC1`, then `tag=value` pairs separated
 * by `;` with optional whitespace, an optional `;` at the end. Every tag keeps its position.
 * Diagnostics here are about syntax only; `validateDmarcRecord` judges the tags.
 */
export function parseDmarcRecord(text: string): DmarcParseResult {
  if (!isDmarcRecord(text)) return whyNotDmarc(text);

  const diagnostics: Diagnostic[] = [];
  const tags: DmarcRawTag[] = [];
  let position = 0;
  const seen = new Map<string, DmarcRawTag>();

  while (position <= text.length) {
    const semicolon = text.indexOf(';', position);
    const end = semicolon === -1 ? text.length : semicolon;
    let from = position;
    let to = end;
    while (from < to && isWsp(text.charAt(from))) from++;
    while (to > from && isWsp(text.charAt(to - 1))) to--;
    const segment = text.slice(from, to);

    if (segment === '') {
      // only the optional separator at the very end may be followed by nothing
      if (semicolon !== -1 && text.slice(semicolon + 1).trim() !== '') {
        diagnostics.push({
          severity: 'warning',
          code: 'DMARC_EMPTY_TAG',
          message:
            "Two ';' in a row: the record grammar has no empty tags, and strict receivers may reject it",
          rfc: 'RFC 9989 §4.8',
          fix: "Remove the extra ';'.",
          span: { start: position, end: semicolon + 1 },
        });
      }
    } else {
      const tag = readTag(segment, from, diagnostics);
      if (tag !== undefined) {
        const previous = seen.get(tag.key);
        if (previous !== undefined) {
          diagnostics.push({
            severity: 'error',
            code: 'DMARC_DUPLICATE_TAG',
            message: `The tag ${tag.key} appears more than once; receivers may use either value or treat the record as broken`,
            rfc: 'RFC 9989 §4.8',
            fix: `Keep one ${tag.key}= tag.`,
            span: tag.span,
          });
        } else {
          seen.set(tag.key, tag);
        }
        tags.push(tag);
      }
    }
    if (semicolon === -1) break;
    position = semicolon + 1;
  }
  return { ok: true, tags, diagnostics };
}

function readTag(segment: string, offset: number, diagnostics: Diagnostic[]): DmarcRawTag | undefined {
  const span = { start: offset, end: offset + segment.length };
  const equals = segment.indexOf('=');
  if (equals === -1) {
    diagnostics.push({
      severity: 'error',
      code: 'DMARC_SYNTAX',
      message: `'${segment}' has no '=': every tag is written name=value`,
      requirement: 'MUST',
      rfc: 'RFC 9989 §4.8',
      fix: `Give ${segment} a value (for example p=none), or remove it.`,
      span,
    });
    return undefined;
  }
  let nameEnd = equals;
  while (nameEnd > 0 && isWsp(segment.charAt(nameEnd - 1))) nameEnd--;
  const name = segment.slice(0, nameEnd);
  let valueStart = equals + 1;
  while (valueStart < segment.length && isWsp(segment.charAt(valueStart))) valueStart++;
  const value = segment.slice(valueStart);
  const nameSpan = { start: offset, end: offset + nameEnd };
  const valueSpan = { start: offset + valueStart, end: offset + segment.length };

  if (!TAG_NAME.test(name)) {
    diagnostics.push({
      severity: 'error',
      code: 'DMARC_SYNTAX',
      message:
        name === ''
          ? `'${segment}' has no tag name before '='`
          : `'${name}' is not a tag name: tag names are letters only`,
      requirement: 'MUST',
      rfc: 'RFC 9989 §4.8',
      fix: 'Write each tag as name=value, separated by semicolons.',
      span: nameSpan,
    });
    return undefined;
  }
  if (value === '') {
    diagnostics.push({
      severity: 'error',
      code: 'DMARC_SYNTAX',
      message: `The tag ${name} has no value`,
      requirement: 'MUST',
      rfc: 'RFC 9989 §4.8',
      fix: `Give ${name} a value or remove it.`,
      span,
    });
    return undefined;
  }
  if (!VALUE_CHARS.test(value)) {
    const bad = [...value].find((c) => !VALUE_CHARS.test(c)) ?? '';
    const shown =
      bad === '\n' || bad === '\r'
        ? 'a line break'
        : `'${bad}' (U+${bad.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')})`;
    diagnostics.push({
      severity: 'error',
      code: 'DMARC_SYNTAX',
      message: `The value of ${name} contains ${shown}: values are printable ASCII only`,
      requirement: 'MUST',
      rfc: 'RFC 9989 §4.8',
      fix: 'Remove the character; encode it in a URI as %XX.',
      span: valueSpan,
    });
    return undefined;
  }
  return { name, key: name.toLowerCase(), value, span, nameSpan, valueSpan };
}

/**
 * Reads pasted text the way a TXT record is published: zone-file character-strings
 * (`"v=DMARC1; p=none; " "rua=…"`, as dig prints them) are joined without separator (RFC 9989
 * §4.5); anything else is taken as the record itself, as one string.
 */
export function readDmarcTxtInput(input: string): { text: string; strings: string[]; quoted: boolean } {
  const trimmed = input.trim();
  const plain = { text: input, strings: [input], quoted: false };
  if (!trimmed.startsWith('"')) return plain;
  const strings: string[] = [];
  const pattern = /"((?:[^"\\]|\\.)*)"\s*/y;
  let consumed = 0;
  for (let match = pattern.exec(trimmed); match !== null; match = pattern.exec(trimmed)) {
    strings.push(
      (match[1] ?? '').replace(/\\(\d{3}|.)/g, (_, escaped: string) =>
        /^\d{3}$/.test(escaped) ? String.fromCharCode(Number(escaped)) : escaped,
      ),
    );
    consumed = pattern.lastIndex;
  }
  // not a clean run of quoted strings: taken as written
  if (strings.length === 0 || consumed !== trimmed.length) return plain;
  return { text: strings.join(''), strings, quoted: true };
}
