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
  let i = 0;

  const endEntry = (): void => {
    const first = tokens[0];
    const last = tokens[tokens.length - 1];
    if (first && last) entries.push({ tokens, span: { start: first.span.start, end: last.span.end } });
    tokens = [];
  };

  while (i < text.length) {
    const c = text.charAt(i);
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
    } else if (c === '\n') {
      if (groupStart < 0) endEntry();
      i++;
    } else if (c === ';') {
      while (i < text.length && text.charAt(i) !== '\n') i++;
    } else if (c === '(') {
      if (groupStart >= 0) {
        return {
          ok: false,
          error: "'(' inside an open '(' group: groups do not nest",
          span: { start: i, end: i + 1 },
        };
      }
      groupStart = i++;
    } else if (c === ')') {
      if (groupStart < 0) {
        return { ok: false, error: "')' without a matching '('", span: { start: i, end: i + 1 } };
      }
      groupStart = -1;
      i++;
    } else if (c === '"') {
      const start = i++;
      let value = '';
      while (i < text.length && text.charAt(i) !== '"') {
        if (text.charAt(i) === '\\' && i + 1 < text.length) value += text.charAt(i++);
        value += text.charAt(i++);
      }
      if (i >= text.length) {
        return {
          ok: false,
          error: "quoted string is not closed with '\"'",
          span: { start, end: text.length },
        };
      }
      i++;
      tokens.push({ text: value, quoted: true, span: { start, end: i } });
    } else {
      const start = i;
      while (i < text.length && !' \t\r\n;()"'.includes(text.charAt(i))) {
        if (text.charAt(i) === '\\') {
          if (i + 1 >= text.length) {
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
