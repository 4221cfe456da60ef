const lower = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));
const upper = lower.map((h) => h.toUpperCase());

/** Hex encoding of bytes, lower case unless `upperCase` (DS digests print upper case by convention). */
export function toHex(bytes: Uint8Array, upperCase = false): string {
  const table = upperCase ? upper : lower;
  let hex = '';
  for (const b of bytes) hex += table[b];
  return hex;
}
