/** Outcome of {@link decodeBase64}: the bytes, or why the text is not valid base64. */
export type Base64Result = { ok: true; bytes: Uint8Array } | { ok: false; error: string; offset?: number };

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const INVALID = 0xff;
/** Sextet of each ASCII character code; INVALID for characters outside the alphabet. */
const sextets = new Uint8Array(128).fill(INVALID);
for (let i = 0; i < alphabet.length; i++) sextets[alphabet.charCodeAt(i)] = i;

const EQUALS = 0x3d;

/**
 * Working space reused by every call (decoding is synchronous, so calls never overlap): typed
 * arrays over 64 bytes live outside the JS heap, and allocating two per call cost more than the
 * decoding itself.
 */
let scratch = newScratch(1024);
const maxScratchLength = 65536;

function newScratch(length: number): { values: Uint8Array; offsets: Uint32Array } {
  return { values: new Uint8Array(length), offsets: new Uint32Array(length) };
}

function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0d || code === 0x0a;
}

/**
 * Strict base64 decoding (RFC 4648 §4, the standard alphabet with `=` padding).
 *
 * Whitespace anywhere is ignored, because zone files split long base64 fields over lines
 * (RFC 4034 §2.2). Everything else is strict: no URL-safe alphabet, padding only at the end and
 * only as much as needed, and the unused bits before the padding must be zero (RFC 4648 §3.5),
 * so that one byte string has exactly one accepted encoding. `offset` points into `text`.
 */
export function decodeBase64(text: string): Base64Result {
  // Sextets of the non-blank characters, and where each one is in `text` (for error offsets).
  // Padding is stored as sextet 0: it contributes no bits.
  const length = text.length;
  // an unusually long text gets its own arrays rather than keeping them alive afterwards
  if (scratch.values.length < length && length <= maxScratchLength) scratch = newScratch(length);
  const { values, offsets } = scratch.values.length < length ? newScratch(length) : scratch;
  let count = 0;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (isBlank(code)) continue;
    values[count] = code < 128 ? (sextets[code] ?? INVALID) : INVALID;
    offsets[count++] = i;
  }
  if (count === 0) return { ok: false, error: 'base64 text is empty' };

  let padding = 0;
  while (padding < 2 && padding < count && text.charCodeAt(offsets[count - 1 - padding] ?? 0) === EQUALS) {
    values[count - 1 - padding] = 0;
    padding++;
  }
  for (let i = 0; i < count - padding; i++) {
    if (values[i] !== INVALID) continue;
    const offset = offsets[i] ?? 0;
    const c = text.charAt(offset);
    const hint =
      c === '-' || c === '_'
        ? ' (base64url characters are not allowed here)'
        : c === '='
          ? " ('=' padding is only allowed at the end)"
          : '';
    return { ok: false, error: `invalid base64 character '${c}'${hint}`, offset };
  }
  if (count % 4 !== 0) {
    return {
      ok: false,
      error: `base64 length must be a multiple of 4 characters, with '=' padding; found ${count}`,
    };
  }

  const bytes = new Uint8Array((count / 4) * 3 - padding);
  const full = padding === 0 ? count : count - 4;
  let out = 0;
  for (let i = 0; i < full; i += 4) {
    const n = sextetsAt(values, i);
    bytes[out++] = n >> 16;
    bytes[out++] = (n >> 8) & 0xff;
    bytes[out++] = n & 0xff;
  }
  if (padding > 0) {
    const i = full;
    const n = sextetsAt(values, i);
    if (padding === 2) {
      if ((n & 0xffff) !== 0) return nonCanonical(offsets[i + 1]);
      bytes[out] = n >> 16;
    } else {
      if ((n & 0xff) !== 0) return nonCanonical(offsets[i + 2]);
      bytes[out] = n >> 16;
      bytes[out + 1] = (n >> 8) & 0xff;
    }
  }
  return { ok: true, bytes };
}

/** The 24 bits of the quad of sextets starting at `i`. */
function sextetsAt(values: Uint8Array, i: number): number {
  return (
    ((values[i] ?? 0) << 18) |
    ((values[i + 1] ?? 0) << 12) |
    ((values[i + 2] ?? 0) << 6) |
    (values[i + 3] ?? 0)
  );
}

function nonCanonical(offset: number | undefined): Base64Result {
  const result: Base64Result = {
    ok: false,
    error: 'base64 is not canonical: the bits before the padding must be zero (RFC 4648 §3.5)',
  };
  if (offset !== undefined) result.offset = offset;
  return result;
}
