/** Whether the bytes start with the gzip magic number (RFC 1952 §2.3.1). */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/**
 * The text of a report file as uploaded: a .json file as it is, a .json.gz / .gz (the
 * application/tlsrpt+gzip attachment of RFC 8460 §5.3) unpacked in the browser.
 */
export async function reportFileText(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (!isGzip(bytes)) return new TextDecoder().decode(bytes);
  const unpacked = new Response(bytes).body?.pipeThrough(new DecompressionStream('gzip'));
  return new Response(unpacked).text();
}
