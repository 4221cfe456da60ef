import { decodeBase64 } from '../core/base64.ts';
import type { DnsDnskeyRecord } from '../core/resolver.ts';
import { checkPublicKey } from './public-key.ts';

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

/** The public-key field of a decoded DNSKEY, or undefined when it is not base64. */
export function dnskeyPublicKey(key: DnsDnskeyRecord<'DNSKEY' | 'CDNSKEY'>): Uint8Array | undefined {
  const decoded = decodeBase64(key.key);
  return decoded.ok ? decoded.bytes : undefined;
}

/** The DNSKEY's RDATA as received, else rebuilt from its fields (the same octets: DNSKEY has no names). */
export function dnskeyRdataOf(key: DnsDnskeyRecord<'DNSKEY' | 'CDNSKEY'>): Uint8Array | undefined {
  const publicKey = dnskeyPublicKey(key);
  return publicKey && dnskeyRdata(key.flags, key.protocol, key.algorithm, publicKey);
}

/** Key tag of a decoded DNSKEY (RFC 4034 Appendix B); -1 when its key is not base64, which no RRSIG or DS names. */
export function keyTagOf(key: DnsDnskeyRecord<'DNSKEY' | 'CDNSKEY'>): number {
  const rdata = dnskeyRdataOf(key);
  return rdata ? keyTag(rdata) : -1;
}

/** Key size in bits as the DNSKEY tool reports it (`DnskeyParsed.keySize`), or null when unknown or malformed. */
export function dnskeyKeySize(key: DnsDnskeyRecord<'DNSKEY' | 'CDNSKEY'>): number | null {
  const publicKey = dnskeyPublicKey(key);
  return publicKey ? checkPublicKey(key.algorithm, publicKey).keySize : null;
}
