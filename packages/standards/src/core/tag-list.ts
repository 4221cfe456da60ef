/**
 * The tag=value list of RFC 6376 §3.2, shared by every standard that uses it: DKIM key records and
 * the ARC-Seal and ARC-Message-Signature of RFC 8617 §4.1.
 */
import type { Diagnostic, Span } from './diagnostic.ts';

/** Text to parse, with the input offset of each of its characters (spans point into the input). */
export interface TagListText {
  text: string;
  offsets: number[];
}

/** One tag-spec of a tag-list. Spans are input offsets. */
export interface Tag {
  name: string;
  /** The value with surrounding whitespace removed; whitespace inside is kept as written. */
  value: string;
  span: Span;
  valueSpan: Span;
}

export interface TagListOptions {
  /** Start of every diagnostic code, e.g. `DKIM`. */
  prefix: string;
  /** What the list is, in messages: `record`, `field`. */
  subject: string;
}

/** Span in the input of the characters `from`..`to` (exclusive) of the joined text. */
export function tagListSpan(text: TagListText, from: number, to: number): Span {
  const { offsets } = text;
  const fallback = offsets[offsets.length - 1] ?? 0;
  const start = offsets[from] ?? fallback;
  const last = offsets[Math.max(from, to - 1)] ?? fallback;
  return { start, end: Math.max(start, last + (to > from ? 1 : 0)) };
}

const TAG_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
/** VALCHAR (%x21-3A / %x3C-7E) and the whitespace allowed between tvals (RFC 6376 §3.2). */
const BAD_VALUE_CHAR = /[^\x21-\x3a\x3c-\x7e \t\r\n]/;

function isBlank(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\r' || c === '\n';
}

/**
 * Parses a tag-list (RFC 6376 §3.2, shared by DKIM key records and the ARC header fields of
 * RFC 8617 §4.1): `name=value` pairs separated by `;`, with optional whitespace around names, `=`
 * and values, and an optional trailing `;`. A duplicate tag makes the whole list invalid.
 * Diagnostic codes start with `options.prefix`.
 */
export function parseTagList(
  text: TagListText,
  options: TagListOptions,
): {
  tags: Tag[] | null;
  diagnostics: Diagnostic[];
} {
  const { prefix, subject } = options;
  const diagnostics: Diagnostic[] = [];
  const tags: Tag[] = [];
  const source = text.text;
  let usable = true;
  let specStart = 0;
  const specs: Array<[number, number]> = [];
  for (let i = 0; i <= source.length; i++) {
    if (i === source.length || source.charAt(i) === ';') {
      specs.push([specStart, i]);
      specStart = i + 1;
    }
  }
  specs.forEach(([from, to], index) => {
    let a = from;
    let b = to;
    while (a < b && isBlank(source.charAt(a))) a++;
    while (b > a && isBlank(source.charAt(b - 1))) b--;
    if (a === b) {
      // only the last spec may be empty: that is the optional trailing ';'
      if (index === specs.length - 1) return;
      usable = false;
      diagnostics.push({
        severity: 'error',
        code: `${prefix}_EMPTY_TAG`,
        message: "Empty tag between two ';': the tag-list syntax does not allow it",
        requirement: 'MUST',
        rfc: 'RFC 6376 §3.2',
        fix: "Remove the extra ';'.",
        span: tagListSpan(text, from, Math.min(to + 1, source.length)),
      });
      return;
    }
    const span = tagListSpan(text, a, b);
    const equals = source.indexOf('=', a);
    if (equals < 0 || equals >= b) {
      usable = false;
      diagnostics.push({
        severity: 'error',
        code: `${prefix}_TAG_SYNTAX`,
        message: `'${source.slice(a, b).slice(0, 40)}' is not a tag=value pair`,
        requirement: 'MUST',
        rfc: 'RFC 6376 §3.2',
        fix: "Write every tag as name=value and separate tags with ';'.",
        span,
      });
      return;
    }
    let nameEnd = equals;
    while (nameEnd > a && isBlank(source.charAt(nameEnd - 1))) nameEnd--;
    const name = source.slice(a, nameEnd);
    let valueStart = equals + 1;
    while (valueStart < b && isBlank(source.charAt(valueStart))) valueStart++;
    const value = source.slice(valueStart, b);
    if (!TAG_NAME.test(name)) {
      usable = false;
      diagnostics.push({
        severity: 'error',
        code: `${prefix}_TAG_NAME`,
        message: `'${name.slice(0, 40)}' is not a valid tag name: a letter followed by letters, digits or '_'`,
        requirement: 'MUST',
        rfc: 'RFC 6376 §3.2',
        fix:
          name.trim() === ''
            ? "Remove the stray '=' or write the tag's name before it."
            : 'Correct the tag name, or remove the tag.',
        span: tagListSpan(text, a, nameEnd),
      });
      return;
    }
    const bad = BAD_VALUE_CHAR.exec(value);
    if (bad) {
      usable = false;
      const at = valueStart + bad.index;
      const shown = bad[0].charCodeAt(0);
      diagnostics.push({
        severity: 'error',
        code: `${prefix}_TAG_VALUE_CHARACTER`,
        message: `The value of ${name}= contains a character not allowed in tag values (U+${shown.toString(16).toUpperCase().padStart(4, '0')})`,
        requirement: 'MUST',
        rfc: 'RFC 6376 §3.2',
        fix: "Tag values are printable ASCII without ';'. Retype the value rather than pasting it from a word processor.",
        span: tagListSpan(text, at, at + 1),
      });
      return;
    }
    const duplicate = tags.find((tag) => tag.name === name);
    if (duplicate) {
      usable = false;
      diagnostics.push({
        severity: 'error',
        code: `${prefix}_DUPLICATE_TAG`,
        message: `The tag ${name}= appears more than once, which makes the whole ${subject} invalid`,
        requirement: 'MUST NOT',
        rfc: 'RFC 6376 §3.2',
        fix: `Keep one ${name}= tag.`,
        span,
      });
      return;
    }
    tags.push({ name, value, span, valueSpan: tagListSpan(text, valueStart, b) });
  });
  return { tags: usable ? tags : null, diagnostics };
}
