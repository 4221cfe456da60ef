/** Outcome of {@link decodeBase64}: the bytes, or why the text is not valid base64. */
export type Base64Result = { ok: true; bytes: Uint8Array } | { ok: false; error: string; offset?: number };

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const values = new Map<string, number>([...alphabet].map((c, i) => [c, i]));

/**
 * Strict base64 decoding (RFC 4648 §4, the standard alphabet with `=` padding).
 *
 * Whitespace anywhere is ignored, because zone files split long base64 fields over lines
 * (RFC 4034 §2.2). Everything else is strict: no URL-safe alphabet, padding only at the end and
 * only as much as needed, and the unused bits before the padding must be zero (RFC 4648 §3.5),
 * so that one byte string has exactly one accepted encoding. `offset` points into `text`.
 */
export function decodeBase64(text: string): Base64Result {
  const chars: string[] = [];
  const offsets: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n') continue;
    chars.push(c);
    offsets.push(i);
  }
  if (chars.length === 0) return { ok: false, error: 'base64 text is empty' };

  let padding = 0;
  while (padding < 2 && chars[chars.length - 1 - padding] === '=') padding++;
  for (let i = 0; i < chars.length - padding; i++) {
    const c = chars[i] ?? '';
    if (!values.has(c)) {
      const hint =
        c === '-' || c === '_'
          ? ' (base64url characters are not allowed here)'
          : c === '='
            ? " ('=' padding is only allowed at the end)"
            : '';
      return { ok: false, error: `invalid base64 character '${c}'${hint}`, offset: offsets[i] };
    }
  }
  if (chars.length % 4 !== 0) {
    return {
      ok: false,
      error: `base64 length must be a multiple of 4 characters, with '=' padding; found ${chars.length}`,
    };
  }

  const bytes = new Uint8Array((chars.length / 4) * 3 - padding);
  let out = 0;
  for (let i = 0; i < chars.length; i += 4) {
    const quad = [0, 1, 2, 3].map((k) => values.get(chars[i + k] ?? '') ?? 0);
    const [a = 0, b = 0, c = 0, d = 0] = quad;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    const last = i + 4 === chars.length;
    if (last && padding === 2) {
      if ((n & 0xffff) !== 0) return nonCanonical(offsets[i + 1]);
      bytes[out++] = n >> 16;
    } else if (last && padding === 1) {
      if ((n & 0xff) !== 0) return nonCanonical(offsets[i + 2]);
      bytes[out++] = n >> 16;
      bytes[out++] = (n >> 8) & 0xff;
    } else {
      bytes[out++] = n >> 16;
      bytes[out++] = (n >> 8) & 0xff;
      bytes[out++] = n & 0xff;
    }
  }
  return { ok: true, bytes };
}

function nonCanonical(offset: number | undefined): Base64Result {
  const result: Base64Result = {
    ok: false,
    error: 'base64 is not canonical: the bits before the padding must be zero (RFC 4648 §3.5)',
  };
  if (offset !== undefined) result.offset = offset;
  return result;
}
