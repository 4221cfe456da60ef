/** The longest character-string a TXT record holds, in octets (RFC 1035 §3.3.14). */
export const txtStringMaxLength = 255;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Cuts text into TXT character-strings of at most 255 octets, never inside a multi-octet
 * UTF-8 character; the empty text is one empty string.
 */
export function splitTxtStrings(text: string): string[] {
  const bytes = encoder.encode(text);
  if (bytes.length <= txtStringMaxLength) return [text];
  const parts: string[] = [];
  let start = 0;
  while (start < bytes.length) {
    let end = Math.min(start + txtStringMaxLength, bytes.length);
    // back off to the first octet of a character (continuation octets are 10xxxxxx)
    while (end < bytes.length && end > start && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
    parts.push(decoder.decode(bytes.subarray(start, end)));
    start = end;
  }
  return parts;
}

/** The record's value as a zone file writes it: each character-string quoted, separated by spaces. */
export function quotedTxtStrings(text: string): string {
  return splitTxtStrings(text)
    .map((part) => `"${part}"`)
    .join(' ');
}

/** U+FEFF, the byte-order mark some editors write before UTF-8 text. */
const BYTE_ORDER_MARK = '\uFEFF';

/**
 * Whether pasted text begins (after any white space) with a byte-order mark. `trim()` drops it
 * silently, but a record or file published with it does not begin with its version tag.
 */
export function startsWithByteOrderMark(text: string): boolean {
  return text.replace(/^[ \t\r\n]+/, '').startsWith(BYTE_ORDER_MARK);
}

/** The text without byte-order marks at its start. */
export function withoutByteOrderMark(text: string): string {
  return text.replace(/^([ \t\r\n]*)\uFEFF+/, '$1');
}
