import type { Diagnostic, Span } from '../core/diagnostic.ts';
import { parseTagList, tagListSpan } from '../core/tag-list.ts';
import { tokenizeZoneText, type ZoneToken } from '../core/zone-tokenizer.ts';

/** The TXT data of a key record, joined from however it was pasted. */
export interface DkimRecordText {
  /** The character-strings concatenated (RFC 6376 §3.6.2.2): what a verifier parses. */
  text: string;
  /** Input offset of each character of `text`, so spans point into what was pasted. */
  offsets: number[];
  /** How many character-strings were joined (1 for a bare value). */
  strings: number;
  /** Owner name of a pasted zone-file line, as written; `null` without one. */
  ownerName: string | null;
}

/** One tag-spec of the tag-list (RFC 6376 §3.2). Spans are input offsets. */
export interface DkimTag {
  name: string;
  /** The value with surrounding whitespace removed; whitespace inside is kept as written. */
  value: string;
  span: Span;
  valueSpan: Span;
}

export interface DkimParseResult {
  text: DkimRecordText | null;
  /** Tags in the order written; `null` when the tag-list is unusable. */
  tags: DkimTag[] | null;
  diagnostics: Diagnostic[];
}

const TXT = /^txt$/i;
const CLASSES = /^(in|ch|hs|cs)$/i;

/** Unescapes a zone-file character-string (RFC 1035 §5.1), keeping each character's input offset. */
function unescapeToken(token: ZoneToken, input: string, out: { chars: string[]; offsets: number[] }): void {
  const start = token.span.start + (token.quoted ? 1 : 0);
  const raw = token.text;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charAt(i);
    if (c === '\\' && i + 1 < raw.length) {
      const digits = raw.slice(i + 1, i + 4);
      if (/^\d{3}$/.test(digits)) {
        out.chars.push(String.fromCharCode(Number(digits) & 0xff));
        out.offsets.push(start + i);
        i += 3;
        continue;
      }
      out.chars.push(raw.charAt(i + 1));
      out.offsets.push(start + i + 1);
      i++;
      continue;
    }
    out.chars.push(c);
    out.offsets.push(Math.min(start + i, input.length));
  }
}

/**
 * Reads the TXT data from what an administrator pastes: the bare value (`v=DKIM1; k=rsa; p=…`),
 * the value as quoted character-strings (`"v=DKIM1; …" "…"`), or a whole zone-file line with
 * owner, class, type and a `( … )` group. Quoted strings are joined without separators, as DNS
 * delivers them (RFC 6376 §3.6.2.2); a 2048-bit key never fits in one 255-octet string.
 */
export function readDkimRecordText(input: string): {
  text: DkimRecordText | null;
  diagnostics: Diagnostic[];
} {
  const diagnostics: Diagnostic[] = [];
  if (!input.includes('"')) {
    const start = input.length - input.trimStart().length;
    const text = input.trim();
    return {
      text: {
        text,
        offsets: Array.from({ length: text.length }, (_, i) => start + i),
        strings: 1,
        ownerName: null,
      },
      diagnostics,
    };
  }
  const tokenized = tokenizeZoneText(input);
  if (!tokenized.ok) {
    diagnostics.push({
      severity: 'error',
      code: 'DKIM_ZONE_SYNTAX',
      message: `The pasted TXT record cannot be read: ${tokenized.error}`,
      rfc: 'RFC 1035 §5.1',
      fix: 'Paste the record value, its quoted strings, or one complete zone-file line.',
      span: tokenized.span,
    });
    return { text: null, diagnostics };
  }
  const tokens = tokenized.entries.flatMap((entry) => entry.tokens);
  // a zone-file line: owner [ttl] [class] TXT strings…; the data starts after the TXT type
  const typeIndex = tokens.findIndex((token) => !token.quoted && TXT.test(token.text));
  let data = tokens;
  let ownerName: string | null = null;
  if (typeIndex >= 0) {
    const head = tokens.slice(0, typeIndex);
    const first = head[0];
    if (first && !/^\d+$/.test(first.text) && !CLASSES.test(first.text)) ownerName = first.text;
    data = tokens.slice(typeIndex + 1);
  }
  const out = { chars: [] as string[], offsets: [] as number[] };
  for (const token of data) unescapeToken(token, input, out);
  if (data.length > 1) {
    diagnostics.push({
      severity: 'info',
      code: 'DKIM_STRINGS_JOINED',
      message: `${data.length} character-strings were joined into one record, as verifiers do`,
      rfc: 'RFC 6376 §3.6.2.2',
    });
  }
  return {
    text: { text: out.chars.join(''), offsets: out.offsets, strings: data.length, ownerName },
    diagnostics,
  };
}

/** Span in the input of the characters `from`..`to` (exclusive) of the joined text. */
export function inputSpan(text: DkimRecordText, from: number, to: number): Span {
  return tagListSpan(text, from, to);
}

/** Parses the tag-list of a key record (RFC 6376 §3.2); the parser is shared through core/. */
export function parseDkimTagList(text: DkimRecordText): {
  tags: DkimTag[] | null;
  diagnostics: Diagnostic[];
} {
  return parseTagList(text, { prefix: 'DKIM', subject: 'record' });
}

/** Reads the pasted record and its tag-list. */
export function parseDkimRecord(input: string): DkimParseResult {
  const read = readDkimRecordText(input);
  if (!read.text) return { text: null, tags: null, diagnostics: read.diagnostics };
  const list = parseDkimTagList(read.text);
  return { text: read.text, tags: list.tags, diagnostics: [...read.diagnostics, ...list.diagnostics] };
}
