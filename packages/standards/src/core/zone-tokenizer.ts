import type { Span } from './diagnostic.ts';

/** One field of a zone-file entry. `text` keeps backslash escapes as written: their meaning depends on the field. */
export interface ZoneToken {
  text: string;
  /** Written as a `"…"` character-string (the quotes are not part of `text`). */
  quoted: boolean;
  span: Span;
}

/** One resource record (or directive) in presentation format: the fields of one logical line. */
export interface ZoneEntry {
  tokens: ZoneToken[];
  span: Span;
}

export type ZoneTokenizeResult =
  { ok: true; entries: ZoneEntry[] } | { ok: false; error: string; span: Span };

const SPACE = 0x20;
const TAB = 0x09;
const CR = 0x0d;
const LF = 0x0a;
const SEMICOLON = 0x3b;
const OPEN = 0x28;
const CLOSE = 0x29;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Characters that end an unquoted field: blanks, line breaks, `;`, `(`, `)` and `"`. */
function endsField(c: number): boolean {
  return (
    c === SPACE ||
    c === TAB ||
    c === CR ||
    c === LF ||
    c === SEMICOLON ||
    c === OPEN ||
    c === CLOSE ||
    c === QUOTE
  );
}

/**
 * Splits zone-file text into entries and fields (RFC 1035 §5.1).
 *
 * Fields are separated by blanks; `;` starts a comment that runs to the end of the line; an entry
 * ends at a line break unless a `( … )` group is open, which lets one record span several lines;
 * `"…"` quotes a field that contains blanks; a backslash quotes the next character. Lines without
 * fields (blank, comment-only) produce no entry. Spans are offsets into `text`.
 */
export function tokenizeZoneText(text: string): ZoneTokenizeResult {
  const entries: ZoneEntry[] = [];
  let tokens: ZoneToken[] = [];
  let groupStart = -1;
  const length = text.length;
  let i = 0;

  const endEntry = (): void => {
    const first = tokens[0];
    const last = tokens[tokens.length - 1];
    if (first && last) entries.push({ tokens, span: { start: first.span.start, end: last.span.end } });
    tokens = [];
  };

  while (i < length) {
    const c = text.charCodeAt(i);
    if (c === SPACE || c === TAB || c === CR) {
      i++;
    } else if (c === LF) {
      if (groupStart < 0) endEntry();
      i++;
    } else if (c === SEMICOLON) {
      while (i < length && text.charCodeAt(i) !== LF) i++;
    } else if (c === OPEN) {
      if (groupStart >= 0) {
        return {
          ok: false,
          error: "'(' inside an open '(' group: groups do not nest",
          span: { start: i, end: i + 1 },
        };
      }
      groupStart = i++;
    } else if (c === CLOSE) {
      if (groupStart < 0) {
        return { ok: false, error: "')' without a matching '('", span: { start: i, end: i + 1 } };
      }
      groupStart = -1;
      i++;
    } else if (c === QUOTE) {
      const start = i++;
      let value = '';
      while (i < length && text.charCodeAt(i) !== QUOTE) {
        if (text.charCodeAt(i) === BACKSLASH && i + 1 < length) value += text.charAt(i++);
        value += text.charAt(i++);
      }
      if (i >= length) {
        return {
          ok: false,
          error: "quoted string is not closed with '\"'",
          span: { start, end: length },
        };
      }
      i++;
      tokens.push({ text: value, quoted: true, span: { start, end: i } });
    } else {
      const start = i;
      while (i < length && !endsField(text.charCodeAt(i))) {
        if (text.charCodeAt(i) === BACKSLASH) {
          if (i + 1 >= length) {
            return { ok: false, error: 'text ends with a lone backslash', span: { start: i, end: i + 1 } };
          }
          i++;
        }
        i++;
      }
      tokens.push({ text: text.slice(start, i), quoted: false, span: { start, end: i } });
    }
  }
  if (groupStart >= 0) {
    return {
      ok: false,
      error: "'(' is never closed with ')'",
      span: { start: groupStart, end: groupStart + 1 },
    };
  }
  endEntry();
  return { ok: true, entries };
}
