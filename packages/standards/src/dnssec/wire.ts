import { decodeBase64 } from '../core/base64.ts';
import { parseDnsName, type DnsName } from '../core/dns-name.ts';
import { dnsTypeCodes, type DnsRecord } from '../core/resolver.ts';
import { quotedTxtStrings } from '../core/txt-strings.ts';

/** A resolver name (`example.com`, `` or `.` for the root) or presentation name, parsed; throws on a name DNS cannot carry. */
export function dnsName(name: string): DnsName {
  const parsed = parseDnsName(name === '' ? '.' : name);
  if (!parsed.ok) throw new Error(`'${name}' is not a domain name: ${parsed.error}`);
  return parsed.name;
}

/** A name in canonical wire form (RFC 4034 §6.2): uncompressed, letters lower-cased. */
export function nameToWire(name: string): Uint8Array {
  return dnsName(name).wire;
}

/** Orders octet strings as unsigned numbers left-justified, the shorter first when one is a prefix (RFC 4034 §6.3). */
export function compareOctets(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const diff = (a[i] ?? 0) - (b[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return a.length - b.length;
}

/** RFC 4034 §6.1: label by label from the root, each as lower-cased octets, a missing label first. */
export function compareCanonicalNames(a: string, b: string): number {
  const left = dnsName(a).labels;
  const right = dnsName(b).labels;
  for (let i = 1; i <= Math.min(left.length, right.length); i++) {
    const diff = compareOctets(
      left[left.length - i] ?? new Uint8Array(),
      right[right.length - i] ?? new Uint8Array(),
    );
    if (diff !== 0) return diff;
  }
  return left.length - right.length;
}

/** The RRSIG Labels value of an owner (RFC 4034 §3.1.3): its labels, the root as 0, a leading `*` not counted. */
export function labelCount(name: string): number {
  const labels = dnsName(name).labels;
  const first = labels[0];
  return first?.length === 1 && first[0] === 0x2a ? labels.length - 1 : labels.length;
}

/** Whether `name` equals `zone` or lies below it. */
export function isSubdomain(name: string, zone: string): boolean {
  const inner = dnsName(name).labels;
  const outer = dnsName(zone).labels;
  if (inner.length < outer.length) return false;
  const offset = inner.length - outer.length;
  return outer.every((label, i) => compareOctets(label, inner[offset + i] ?? new Uint8Array()) === 0);
}

/** The ancestor of `name` with its rightmost `count` labels, as a resolver writes names (no trailing dot; `.` for the root). */
export function ancestorName(name: string, count: number): string {
  const parsed = dnsName(name);
  if (count <= 0) return '.';
  return parsed.text
    .split(/(?<!\\)\./)
    .slice(0, -1)
    .slice(-count)
    .join('.');
}

/** A name as the resolver writes it: lower case, no trailing dot, `.` for the root. */
export function normalName(name: string): string {
  const text = dnsName(name).text;
  return text === '.' ? '.' : text.slice(0, -1);
}

/** The type code of a mnemonic the resolver gives (`A`, `TYPE65` for RFC 3597 names), or undefined. */
export function typeCode(mnemonic: string): number | undefined {
  const upper = mnemonic.toUpperCase();
  if (Object.hasOwn(dnsTypeCodes, upper)) return dnsTypeCodes[upper as keyof typeof dnsTypeCodes];
  const generic = /^TYPE(\d{1,5})$/.exec(upper);
  const code = generic ? Number(generic[1]) : NaN;
  return code <= 0xffff ? code : undefined;
}

/** Lower-cases the ASCII letters of the uncompressed name at `offset` in place; returns the offset past it. */
function lowerCaseName(bytes: Uint8Array, offset: number): number {
  let at = offset;
  for (;;) {
    const length = bytes[at];
    if (length === undefined || length > 63) return -1;
    if (length === 0) return at + 1;
    for (let i = at + 1; i <= at + length && i < bytes.length; i++) {
      const octet = bytes[i] ?? 0;
      if (octet >= 0x41 && octet <= 0x5a) bytes[i] = octet + 0x20;
    }
    at += length + 1;
  }
}

/**
 * Where embedded names begin, for the types RFC 4034 §6.2 (as RFC 6840 §5.1 and RFC 3597 §7 left it)
 * lower-cases: `names` names in a row from `offset`. NSEC's next name is not lower-cased (RFC 6840 §5.1).
 */
const embeddedNames: Partial<Record<DnsRecord['type'], { offset: number; names: number }>> = {
  NS: { offset: 0, names: 1 },
  CNAME: { offset: 0, names: 1 },
  PTR: { offset: 0, names: 1 },
  DNAME: { offset: 0, names: 1 },
  SOA: { offset: 0, names: 2 },
  MX: { offset: 2, names: 1 },
  SRV: { offset: 6, names: 1 },
  RRSIG: { offset: 18, names: 1 },
};

/** The record's RDATA in canonical form (RFC 4034 §6.2), from `record.rdata`; undefined without it or when it is not base64. */
export function canonicalRdata(record: DnsRecord): Uint8Array | undefined {
  if (record.rdata === undefined) return undefined;
  const decoded = decodeBase64(record.rdata);
  if (!decoded.ok) return record.rdata === '' ? new Uint8Array() : undefined;
  const bytes = decoded.bytes.slice();
  const names = embeddedNames[record.type];
  if (names) {
    let at = names.offset;
    for (let i = 0; i < names.names && at >= 0; i++) at = lowerCaseName(bytes, at);
    if (at < 0) return undefined;
  }
  return bytes;
}

/** Name with the trailing dot of presentation format. */
function absolute(name: string): string {
  return dnsName(name).text;
}

/** RRSIG times as YYYYMMDDHHmmSS (RFC 4034 §3.2). */
function rrsigTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

function rdataText(record: DnsRecord): string {
  switch (record.type) {
    case 'A':
    case 'AAAA':
      return record.address;
    case 'CNAME':
    case 'DNAME':
    case 'NS':
    case 'PTR':
      return absolute(record.target);
    case 'MX':
      return `${record.preference} ${absolute(record.exchange)}`;
    case 'TXT':
      return record.strings.map((s) => quotedTxtStrings(s)).join(' ');
    case 'SOA':
      return `${absolute(record.mname)} ${absolute(record.rname)} ${record.serial} ${record.refresh} ${record.retry} ${record.expire} ${record.minimum}`;
    case 'SRV':
      return `${record.priority} ${record.weight} ${record.port} ${absolute(record.target)}`;
    case 'CAA':
      return `${record.flags} ${record.tag} "${record.value.replace(/["\\]/g, '\\$&')}"`;
    case 'TLSA':
    case 'SMIMEA':
      return `${record.usage} ${record.selector} ${record.matchingType} ${record.certificate}`;
    case 'DNSKEY':
    case 'CDNSKEY':
      return `${record.flags} ${record.protocol} ${record.algorithm} ${record.key}`;
    case 'DS':
    case 'CDS':
      return `${record.keyTag} ${record.algorithm} ${record.digestType} ${record.digest.toUpperCase()}`;
    case 'RRSIG':
      return `${record.typeCovered} ${record.algorithm} ${record.labels} ${record.originalTtl} ${rrsigTime(record.expiration)} ${rrsigTime(record.inception)} ${record.keyTag} ${absolute(record.signerName)} ${record.signature}`;
    case 'NSEC':
      return [absolute(record.nextDomain), ...record.types].join(' ');
    case 'NSEC3':
      return [
        record.hashAlgorithm,
        record.flags,
        record.iterations,
        record.salt === '' ? '-' : record.salt.toUpperCase(),
        record.nextHashedOwner.toUpperCase(),
        ...record.types,
      ].join(' ');
    case 'SSHFP':
      return `${record.algorithm} ${record.fingerprintType} ${record.fingerprint}`;
    case 'OPENPGPKEY':
      return record.key;
  }
}

/** The record as one zone-file line, `owner. TTL IN TYPE rdata`, for display. */
export function presentRecord(record: DnsRecord): string {
  return `${absolute(record.name)} ${record.ttl} IN ${record.type} ${rdataText(record)}`;
}
