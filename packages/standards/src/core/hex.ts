/** Hex encoding of bytes, lower case unless `upperCase` (DS digests print upper case by convention). */
export function toHex(bytes: Uint8Array, upperCase = false): string {
  let hex = '';
  for (const b of bytes) hex += b.toString(16).padStart(2, '0');
  return upperCase ? hex.toUpperCase() : hex;
}
