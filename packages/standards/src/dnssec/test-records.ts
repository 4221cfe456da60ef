// Records for tests, built the way the server's resolver hands them over with `dnssec: true`:
// decoded fields plus the RDATA as received (base64).
import type {
  DnsARecord,
  DnsDnskeyRecord,
  DnsDsRecord,
  DnsMxRecord,
  DnsNsec3Record,
  DnsNsecRecord,
  DnsRrsigRecord,
  DnsTxtRecord,
} from '../core/resolver.ts';
import { nameToWire, normalName } from './wire.ts';

function encodeBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

/** RRSIG time fields: seconds since the epoch, or YYYYMMDDHHmmSS (RFC 4034 §3.2). */
function rrsigTime(text: string): number {
  if (/^\d{14}$/.test(text)) {
    const [, y, mo, d, h, mi, s] = /^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)$/.exec(text) ?? [];
    return Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) / 1000;
  }
  return Number(text);
}

export function aRecord(name: string, ttl: number, address: string): DnsARecord {
  const rdata = Uint8Array.from(address.split('.').map(Number));
  return { type: 'A', name: normalName(name), ttl, address, rdata: encodeBase64(rdata) };
}

export function mxRecord(name: string, ttl: number, preference: number, exchange: string): DnsMxRecord {
  const rdata = Uint8Array.from([preference >> 8, preference & 0xff, ...nameToWire(exchange)]);
  return {
    type: 'MX',
    name: normalName(name),
    ttl,
    preference,
    exchange: normalName(exchange),
    rdata: encodeBase64(rdata),
  };
}

export function txtRecord(name: string, ttl: number, text: string): DnsTxtRecord {
  const bytes = new TextEncoder().encode(text);
  return {
    type: 'TXT',
    name: normalName(name),
    ttl,
    text,
    strings: [text],
    rdata: encodeBase64(Uint8Array.from([bytes.length, ...bytes])),
  };
}

/** `flags protocol algorithm key` as in a zone file. */
export function dnskeyRecord(name: string, rdata: string): DnsDnskeyRecord {
  const [flags, protocol, algorithm, ...key] = rdata.trim().split(/\s+/);
  return {
    type: 'DNSKEY',
    name: normalName(name),
    ttl: 3600,
    flags: Number(flags),
    protocol: Number(protocol),
    algorithm: Number(algorithm),
    key: key.join(''),
  };
}

/** `keytag algorithm digesttype digest` as in a zone file. */
export function dsRecord(name: string, rdata: string): DnsDsRecord {
  const [keyTag, algorithm, digestType, ...digest] = rdata.trim().split(/\s+/);
  return {
    type: 'DS',
    name: normalName(name),
    ttl: 3600,
    keyTag: Number(keyTag),
    algorithm: Number(algorithm),
    digestType: Number(digestType),
    digest: digest.join('').toLowerCase(),
  };
}

/** `type algorithm labels ttl expiration inception keytag signer signature` as in a zone file. */
export function rrsigRecord(name: string, rdata: string): DnsRrsigRecord {
  const [
    typeCovered = '',
    algorithm,
    labels,
    originalTtl,
    expiration = '',
    inception = '',
    keyTag,
    signerName = '',
    ...signature
  ] = rdata.trim().split(/\s+/);
  return {
    type: 'RRSIG',
    name: normalName(name),
    ttl: Number(originalTtl),
    typeCovered,
    algorithm: Number(algorithm),
    labels: Number(labels),
    originalTtl: Number(originalTtl),
    expiration: rrsigTime(expiration),
    inception: rrsigTime(inception),
    keyTag: Number(keyTag),
    signerName: normalName(signerName),
    signature: signature.join(''),
  };
}

export function nsecRecord(name: string, next: string, types: string[]): DnsNsecRecord {
  return { type: 'NSEC', name: normalName(name), ttl: 3600, nextDomain: normalName(next), types };
}

/** `algorithm flags iterations salt next types…` as in a zone file (salt `-` for none). */
export function nsec3Record(name: string, rdata: string): DnsNsec3Record {
  const [hashAlgorithm, flags, iterations, salt = '', next = '', ...types] = rdata.trim().split(/\s+/);
  return {
    type: 'NSEC3',
    name: normalName(name),
    ttl: 3600,
    hashAlgorithm: Number(hashAlgorithm),
    flags: Number(flags),
    iterations: Number(iterations),
    salt: salt === '-' ? '' : salt.toLowerCase(),
    nextHashedOwner: next.toLowerCase(),
    types,
  };
}
