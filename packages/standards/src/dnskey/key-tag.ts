/** DNSKEY RDATA in wire format (RFC 4034 §2.1): flags (2 octets), protocol, algorithm, public key. */
export function dnskeyRdata(
  flags: number,
  protocol: number,
  algorithm: number,
  publicKey: Uint8Array,
): Uint8Array {
  const rdata = new Uint8Array(4 + publicKey.length);
  rdata[0] = flags >> 8;
  rdata[1] = flags & 0xff;
  rdata[2] = protocol;
  rdata[3] = algorithm;
  rdata.set(publicKey, 4);
  return rdata;
}

/**
 * Key tag of a DNSKEY (RFC 4034 Appendix B): the RDATA summed as 16-bit big-endian words, with the
 * carry folded back in once. For algorithm 1 (RSA/MD5) it is instead the most significant 16 of
 * the least significant 24 bits of the modulus, which ends the public key (Appendix B.1).
 */
export function keyTag(rdata: Uint8Array): number {
  if (rdata[3] === 1) {
    // Appendix B.1 reads the two octets before the last one of the RDATA.
    if (rdata.length < 7) return 0;
    return ((rdata[rdata.length - 3] ?? 0) << 8) | (rdata[rdata.length - 2] ?? 0);
  }
  let ac = 0;
  for (let i = 0; i < rdata.length; i++) ac += i & 1 ? (rdata[i] ?? 0) : (rdata[i] ?? 0) << 8;
  ac += (ac >> 16) & 0xffff;
  return ac & 0xffff;
}
