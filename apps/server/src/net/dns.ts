// The server's DNS client: the only DNS code that opens sockets (docs/architecture.md §6). A stub resolver
// over UDP with EDNS0, TCP when an answer is truncated, retries across the configured servers,
// and typed results (the Resolver contract of @rfckit/standards) that never reject.
import { randomInt } from 'node:crypto';
import dgram from 'node:dgram';
import { getServers } from 'node:dns';
import net from 'node:net';
import { domainToASCII } from 'node:url';
import dnsPacket from 'dns-packet';
import {
  dnsTypeCodes,
  type DnsCnameRecord,
  type DnsError,
  type DnsQueryOptions,
  type DnsRecord,
  type DnsRecordOf,
  type DnsRecordType,
  type DnsResult,
  type DnsRrsigRecord,
  type DnsSections,
  type DnsSoaRecord,
  type DnsTimeout,
  type Resolver,
  toBase32hex,
} from '@rfckit/standards';

export interface DnsServerAddress {
  host: string;
  port: number;
  family: 4 | 6;
  /** `127.0.0.1:53` or `[::1]:53`. */
  label: string;
}

export interface DnsClientOptions {
  /** `ip`, `ip:port` or `[ipv6]:port`; default the system's (`/etc/resolv.conf` through node:dns). */
  servers?: readonly string[];
  /** How long to wait for one answer from one server (default 2000 ms). */
  timeoutMs?: number;
  /** How many rounds over the server list before giving up (default 2). */
  attempts?: number;
  /** Default total time of one session (default 10000 ms). */
  budgetMs?: number;
  /** Default number of answers a session keeps (default 256). */
  cacheSize?: number;
  /** Queries in flight at once, over all sessions; more wait their turn (default 128). */
  maxInFlight?: number;
}

export interface DnsSessionOptions {
  budgetMs?: number;
  cacheSize?: number;
}

/**
 * Thrown by `resolveAddresses` when a name has no usable address. `code` says why: `nxdomain`
 * (the name does not exist), `nodata` (it has neither A nor AAAA), `timeout`, `servfail` or
 * `error` (see `results` for the two lookups).
 */
export class DnsLookupError extends Error {
  readonly code: 'nxdomain' | 'nodata' | 'servfail' | 'timeout' | 'error';
  readonly host: string;
  readonly results: readonly [DnsResult<'A'>, DnsResult<'AAAA'>];

  constructor(
    code: DnsLookupError['code'],
    host: string,
    results: readonly [DnsResult<'A'>, DnsResult<'AAAA'>],
    message: string,
  ) {
    super(message);
    this.name = 'DnsLookupError';
    this.code = code;
    this.host = host;
    this.results = results;
  }
}

export interface DnsLookup extends Resolver {
  /**
   * A and AAAA addresses of `host` (asked in parallel), IPv4 first. An IP literal (`[v6]` too) is
   * returned as it is, unresolved. Rejects with a DnsLookupError when there is no address.
   */
  resolveAddresses(host: string): Promise<string[]>;
}

/** A resolver for one tool call: answers cached for the call, all of it within one time budget. */
export interface DnsSession extends DnsLookup {
  /** Milliseconds left of the budget (0 when spent). */
  remainingMs(): number;
  /** The lookups of this session that failed on our side (see {@link isResolverFailure}), in order. */
  resolverFailures(): readonly DnsResult[];
}

/**
 * Whether a lookup failed on our side, so that it says nothing about the name: our resolver sent
 * no answer in time or could not be reached, or the check's time budget ran out. We cannot tell a resolver that is down from one still waiting on the name's
 * servers, so a silent resolver counts as ours. An answer with an RCODE (SERVFAIL, REFUSED …) is
 * the name's servers failing as every resolver sees them, and an answer that cannot be decoded is
 * the name's records: both stay results (SPF temperror, RFC 7208 §2.6.6), which the domain's
 * receivers get too.
 */
export function isResolverFailure(result: DnsResult): boolean {
  return result.status === 'timeout' || (result.status === 'error' && result.error === 'network');
}

export interface DnsClient extends DnsLookup {
  readonly servers: readonly DnsServerAddress[];
  /** Starts a session; its budget runs from now. */
  session(options?: DnsSessionOptions): DnsSession;
}

const DEFAULT_TIMEOUT_MS = 2000;
const DEFAULT_ATTEMPTS = 2;
const DEFAULT_BUDGET_MS = 10_000;
const DEFAULT_CACHE_SIZE = 256;
const DEFAULT_MAX_IN_FLIGHT = 128;
/** RFC 6891 §6.2.5 / DNS flag day 2020: large enough for most answers, small enough not to fragment. */
const EDNS_PAYLOAD = 1232;
const MAX_CNAME_HOPS = 8;
const QUERY_FLAGS = dnsPacket.RECURSION_DESIRED | dnsPacket.AUTHENTIC_DATA; // AD: RFC 6840 §5.7

const RCODE_NAMES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED'] as const;
const typeNames = new Map<number, DnsRecordType>(
  Object.entries(dnsTypeCodes).map(([name, code]) => [code, name as DnsRecordType]),
);

/** Reads `ip`, `ip:port`, `[ipv6]` or `[ipv6]:port` (a bare IPv6 address has no port). */
export function parseDnsServer(text: string): DnsServerAddress | undefined {
  const trimmed = text.trim();
  let host = trimmed;
  let port = 53;
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(trimmed);
  const withPort = /^([^:]+):(\d{1,5})$/.exec(trimmed);
  if (bracketed) {
    host = bracketed[1]!;
    if (bracketed[2] !== undefined) port = Number(bracketed[2]);
  } else if (withPort) {
    host = withPort[1]!;
    port = Number(withPort[2]);
  }
  const family = net.isIP(host);
  if ((family !== 4 && family !== 6) || port < 1 || port > 65535 || (bracketed && family !== 6))
    return undefined;
  return { host, port, family, label: family === 6 ? `[${host}]:${port}` : `${host}:${port}` };
}

/** The resolvers of the host (`getServers()`), or 127.0.0.1 as resolv.conf does when it lists none. */
function systemServers(): DnsServerAddress[] {
  const servers = getServers().flatMap((text) => parseDnsServer(text) ?? []);
  return servers.length > 0 ? servers : [parseDnsServer('127.0.0.1')!];
}

const encoder = new TextEncoder();

/**
 * The labels of a name in presentation format (RFC 1035 §5.1): `\DDD` is the octet DDD, `\X` is X
 * (`\.` a dot inside a label), any other character is itself, in UTF-8 when not ASCII. Labels may
 * hold any octet (RFC 2181 §11): spaces, `%`, bytes that are no text. A final dot is dropped.
 */
function presentationLabels(text: string): Uint8Array[] | undefined {
  if (text === '' || text === '.') return [];
  const labels: Uint8Array[] = [];
  let current: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '.') {
      if (current.length === 0) return undefined;
      labels.push(Uint8Array.from(current));
      current = [];
      // a dot that ends the text makes the name absolute, it is no empty label
      if (i === text.length - 1) return labels;
    } else if (char === '\\') {
      const digits = /^\d{3}/.exec(text.slice(i + 1, i + 4));
      if (digits) {
        const octet = Number(digits[0]);
        if (octet > 255) return undefined;
        current.push(octet);
        i += 3;
      } else {
        const next = text.codePointAt(i + 1);
        // a digit starts a \DDD escape, which has exactly three
        if (next === undefined || (next >= 0x30 && next <= 0x39)) return undefined;
        const escaped = String.fromCodePoint(next);
        current.push(...encoder.encode(escaped));
        i += escaped.length;
      }
    } else {
      const point = text.codePointAt(i)!;
      const whole = String.fromCodePoint(point);
      current.push(...encoder.encode(whole));
      i += whole.length - 1;
    }
  }
  if (current.length === 0) return undefined;
  labels.push(Uint8Array.from(current));
  return labels;
}

/**
 * One label in the form names are compared and shown in: ASCII letters lower case (RFC 4343 §3),
 * printable ASCII as itself, `.` and `\\` escaped, every other octet as `\DDD`.
 */
function presentLabel(label: Uint8Array): string {
  let out = '';
  for (const octet of label) {
    if (octet === 0x2e || octet === 0x5c) out += `\\${String.fromCharCode(octet)}`;
    else if (octet >= 0x41 && octet <= 0x5a) out += String.fromCharCode(octet + 0x20);
    else if (octet > 0x20 && octet < 0x7f) out += String.fromCharCode(octet);
    else out += `\\${String(octet).padStart(3, '0')}`;
  }
  return out;
}

function presentName(labels: readonly Uint8Array[]): string {
  return labels.length === 0 ? '.' : labels.map(presentLabel).join('.');
}

// an IDN mixes Unicode only with letters, digits, hyphen, underscore, star and dots
const idnChar = (char: string) => char > '\x7f' || /^[a-z0-9._*-]$/i.test(char);

/**
 * The name as it is asked for: presentation form with lower-case ASCII, escapes where an octet needs
 * one, no trailing dot; undefined when it cannot be a DNS name. A name of Unicode letters is sent
 * as its A-labels (IDNA); one that is not a host name (a space, `%`, an escape) goes as written, in
 * UTF-8 octets where it is not ASCII.
 */
export function normalizeQueryName(input: string): string | undefined {
  let text = input;
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7f]/.test(text) && [...text].every(idnChar)) {
    const ascii = domainToASCII(text.replace(/\.$/, ''));
    if (ascii !== '') text = ascii;
  }
  const labels = presentationLabels(text);
  if (labels === undefined || labels.some((label) => label.length > 63)) return undefined;
  // RFC 1035 §2.3.4: 255 octets on the wire, the length octets and the root label included
  if (labels.reduce((sum, label) => sum + label.length + 1, 1) > 255) return undefined;
  return presentName(labels);
}

/** The wire form of a name returned by `normalizeQueryName`. */
function encodeName(name: string): Buffer {
  const labels = presentationLabels(name) ?? [];
  const parts: Uint8Array[] = [];
  for (const label of labels) parts.push(Uint8Array.of(label.length), label);
  parts.push(Uint8Array.of(0));
  return Buffer.concat(parts);
}

// --- wire format -----------------------------------------------------------------------------

interface Codec {
  decode(buf: Buffer, offset: number): unknown;
}
// dns-packet's per-type codecs are exported but not typed; each takes the offset of RDLENGTH
const wire = dnsPacket as unknown as {
  a: Codec;
  aaaa: Codec;
  txt: Codec;
  caa: Codec;
  rrsig: Codec;
  nsec: Codec;
  nsec3: Codec;
};

interface WireRecord {
  name: string;
  typeCode: number;
  ttl: number;
  rdataOffset: number;
  rdlength: number;
}

interface Message {
  id: number;
  qr: boolean;
  opcode: number;
  tc: boolean;
  ad: boolean;
  /** With the upper bits of an OPT record (RFC 6891 §6.1.3). */
  rcode: number;
  questions: { name: string; typeCode: number; classCode: number }[];
  answers: WireRecord[];
  authorities: WireRecord[];
}

/**
 * A name from the wire in the form of `normalizeQueryName`, and the offset after it. Octets are
 * kept as they are (dns-packet reads labels as UTF-8 and leaves dots in labels unescaped).
 */
function readName(buf: Buffer, offset: number): [string, number] {
  const [labels, end] = readLabels(buf, offset);
  return [presentName(labels), end];
}

/** A name's labels as received, octet for octet, and the offset after it. */
function readLabels(buf: Buffer, offset: number): [Uint8Array[], number] {
  const labels: Uint8Array[] = [];
  let at = offset;
  let end: number | undefined;
  let octets = 1;
  for (;;) {
    if (at >= buf.length) throw new Error('name runs past the end');
    const length = buf[at]!;
    if (length === 0) {
      end ??= at + 1;
      break;
    }
    if ((length & 0xc0) === 0xc0) {
      if (at + 1 >= buf.length) throw new Error('name runs past the end');
      const target = buf.readUInt16BE(at) & 0x3fff;
      // only backwards (RFC 1035 §4.1.4), so that pointers cannot loop
      if (target >= at) throw new Error('name with a forward compression pointer');
      end ??= at + 2;
      at = target;
      continue;
    }
    if ((length & 0xc0) !== 0) throw new Error(`label type ${length >> 6}`);
    if (at + 1 + length > buf.length) throw new Error('name runs past the end');
    octets += length + 1;
    if (octets > 255) throw new Error('name longer than 255 octets');
    labels.push(buf.subarray(at + 1, at + 1 + length));
    at += length + 1;
  }
  return [labels, end];
}

function labelsToWire(labels: readonly Uint8Array[]): Buffer {
  const parts: Uint8Array[] = [];
  for (const label of labels) parts.push(Uint8Array.of(label.length), label);
  parts.push(Uint8Array.of(0));
  return Buffer.concat(parts);
}

/**
 * Where names sit in the RDATA of the types whose names may be compressed: the fixed octets
 * before each name. Only RFC 1035 types may be compressed (RFC 3597 §4), but senders get it wrong,
 * so RRSIG's signer and SRV's target are read the same way.
 */
const RDATA_NAMES: Partial<Record<DnsRecordType, readonly number[]>> = {
  NS: [0],
  CNAME: [0],
  DNAME: [0],
  PTR: [0],
  MX: [2],
  SOA: [0, 0],
  SRV: [6],
  RRSIG: [18],
};

/** The RDATA as received, with every compressed name written out in full (for validators). */
function receivedRdata(buf: Buffer, rr: WireRecord, type: DnsRecordType): Buffer {
  const end = rr.rdataOffset + rr.rdlength;
  const layout = RDATA_NAMES[type];
  if (layout === undefined) return Buffer.from(buf.subarray(rr.rdataOffset, end));
  const parts: Buffer[] = [];
  let at = rr.rdataOffset;
  for (const fixed of layout) {
    parts.push(buf.subarray(at, at + fixed));
    const [labels, next] = readLabels(buf, at + fixed);
    if (next > end) throw new Error(`${type} RDATA of ${rr.rdlength} octets`);
    parts.push(labelsToWire(labels));
    at = next;
  }
  parts.push(buf.subarray(at, end));
  return Buffer.concat(parts);
}

/** Walks a message record by record, so that one odd record does not hide the rest. */
function parseMessage(buf: Buffer): Message {
  if (buf.length < 12) throw new Error('shorter than a DNS header');
  const flags = buf.readUInt16BE(2);
  const counts = [4, 6, 8, 10].map((at) => buf.readUInt16BE(at));
  let offset = 12;
  const questions: Message['questions'] = [];
  for (let i = 0; i < counts[0]!; i++) {
    const [name, next] = readName(buf, offset);
    if (next + 4 > buf.length) throw new Error('question runs past the end');
    questions.push({ name, typeCode: buf.readUInt16BE(next), classCode: buf.readUInt16BE(next + 2) });
    offset = next + 4;
  }
  const sections: WireRecord[][] = [[], [], []];
  let extendedRcode = 0;
  for (let section = 0; section < 3; section++) {
    for (let i = 0; i < counts[section + 1]!; i++) {
      const [name, next] = readName(buf, offset);
      if (next + 10 > buf.length) throw new Error('record header runs past the end');
      const typeCode = buf.readUInt16BE(next);
      const ttl = buf.readUInt32BE(next + 4);
      const rdlength = buf.readUInt16BE(next + 8);
      const rdataOffset = next + 10;
      if (rdataOffset + rdlength > buf.length) throw new Error('record data runs past the end');
      if (typeCode === 41 && section === 2) extendedRcode = buf.readUInt8(next + 4);
      // RFC 2181 §8: a TTL with the top bit set is read as zero
      sections[section]!.push({ name, typeCode, ttl: ttl > 0x7fffffff ? 0 : ttl, rdataOffset, rdlength });
      offset = rdataOffset + rdlength;
    }
  }
  return {
    id: buf.readUInt16BE(0),
    qr: (flags & 0x8000) !== 0,
    opcode: (flags >> 11) & 0xf,
    tc: (flags & dnsPacket.TRUNCATED_RESPONSE) !== 0,
    ad: (flags & dnsPacket.AUTHENTIC_DATA) !== 0,
    rcode: (extendedRcode << 4) | (flags & 0xf),
    questions,
    answers: sections[0]!,
    authorities: sections[1]!,
  };
}

const utf8 = new TextDecoder('utf-8');

function typeLabel(name: string): string {
  // dns-packet names types it does not know UNKNOWN_n; RFC 3597 §5 writes TYPEn
  if (!name.startsWith('UNKNOWN_')) return name;
  const code = Number(name.slice(8));
  return typeNames.get(code) ?? `TYPE${code}`;
}

/**
 * Decodes one record of a type the contract names; throws on RDATA that does not fit it. With
 * `withRdata` (a DNSSEC query) the record carries its RDATA as received.
 */
function decodeRecord(buf: Buffer, rr: WireRecord, withRdata = false): DnsRecord {
  const record = decodeFields(buf, rr);
  if (withRdata) record.rdata = receivedRdata(buf, rr, record.type).toString('base64');
  return record;
}

function decodeFields(buf: Buffer, rr: WireRecord): DnsRecord {
  const type = typeNames.get(rr.typeCode);
  if (type === undefined) throw new Error(`type ${rr.typeCode} is not decoded`);
  const at = rr.rdataOffset - 2;
  const rdata = buf.subarray(rr.rdataOffset, rr.rdataOffset + rr.rdlength);
  const end = rr.rdataOffset + rr.rdlength;
  const base = { name: rr.name, ttl: rr.ttl };
  // a name in the RDATA, at this offset into it, which it must not overrun
  const nameIn = (offset: number): string => {
    const [name, next] = readName(buf, rr.rdataOffset + offset);
    if (next > end) throw new Error(`${type} RDATA of ${rdata.length} octets`);
    return name;
  };
  const need = (length: number, exact = false) => {
    if (exact ? rdata.length !== length : rdata.length < length) {
      throw new Error(`${type} RDATA of ${rdata.length} octets`);
    }
  };
  switch (type) {
    case 'A':
      need(4, true);
      return { ...base, type, address: wire.a.decode(buf, at) as string };
    case 'AAAA':
      need(16, true);
      return { ...base, type, address: wire.aaaa.decode(buf, at) as string };
    case 'CNAME':
    case 'DNAME':
    case 'NS':
    case 'PTR':
      return { ...base, type, target: nameIn(0) };
    case 'MX':
      need(3);
      return { ...base, type, preference: rdata.readUInt16BE(0), exchange: nameIn(2) };
    case 'TXT': {
      const strings = (wire.txt.decode(buf, at) as Buffer[]).map((part) => utf8.decode(part));
      return { ...base, type, text: strings.join(''), strings };
    }
    case 'SOA': {
      const [mname, next] = readName(buf, rr.rdataOffset);
      const [rname, numbers] = readName(buf, next);
      if (numbers + 20 !== end) throw new Error(`SOA RDATA of ${rdata.length} octets`);
      return {
        ...base,
        type,
        mname,
        rname,
        serial: buf.readUInt32BE(numbers),
        refresh: buf.readUInt32BE(numbers + 4),
        retry: buf.readUInt32BE(numbers + 8),
        expire: buf.readUInt32BE(numbers + 12),
        minimum: buf.readUInt32BE(numbers + 16),
      };
    }
    case 'SRV':
      need(7);
      return {
        ...base,
        type,
        priority: rdata.readUInt16BE(0),
        weight: rdata.readUInt16BE(2),
        port: rdata.readUInt16BE(4),
        target: nameIn(6),
      };
    case 'CAA': {
      need(2);
      const caa = wire.caa.decode(buf, at) as { flags: number; tag: string; value: string };
      return {
        ...base,
        type,
        flags: caa.flags,
        critical: (caa.flags & 128) !== 0,
        tag: caa.tag,
        value: caa.value,
      };
    }
    case 'TLSA':
    case 'SMIMEA':
      need(3);
      return {
        ...base,
        type,
        usage: rdata[0]!,
        selector: rdata[1]!,
        matchingType: rdata[2]!,
        certificate: rdata.subarray(3).toString('hex'),
      };
    case 'DNSKEY':
    case 'CDNSKEY':
      need(4);
      return {
        ...base,
        type,
        flags: rdata.readUInt16BE(0),
        protocol: rdata[2]!,
        algorithm: rdata[3]!,
        key: rdata.subarray(4).toString('base64'),
      };
    case 'DS':
    case 'CDS':
      need(4);
      return {
        ...base,
        type,
        keyTag: rdata.readUInt16BE(0),
        algorithm: rdata[2]!,
        digestType: rdata[3]!,
        digest: rdata.subarray(4).toString('hex'),
      };
    case 'RRSIG': {
      need(18);
      const sig = wire.rrsig.decode(buf, at) as {
        typeCovered: string;
        algorithm: number;
        labels: number;
        originalTTL: number;
        expiration: number;
        inception: number;
        keyTag: number;
        signersName: string;
        signature: Buffer;
      };
      return {
        ...base,
        type,
        typeCovered: typeLabel(sig.typeCovered),
        algorithm: sig.algorithm,
        labels: sig.labels,
        originalTtl: sig.originalTTL,
        expiration: sig.expiration,
        inception: sig.inception,
        keyTag: sig.keyTag,
        signerName: nameIn(18),
        signature: sig.signature.toString('base64'),
      };
    }
    case 'NSEC': {
      const nsec = wire.nsec.decode(buf, at) as { nextDomain: string; rrtypes: string[] };
      return { ...base, type, nextDomain: nameIn(0), types: nsec.rrtypes.map(typeLabel) };
    }
    case 'NSEC3': {
      need(5);
      const nsec3 = wire.nsec3.decode(buf, at) as {
        algorithm: number;
        flags: number;
        iterations: number;
        salt: Buffer;
        nextDomain: Buffer;
        rrtypes: string[];
      };
      return {
        ...base,
        type,
        hashAlgorithm: nsec3.algorithm,
        flags: nsec3.flags,
        iterations: nsec3.iterations,
        salt: nsec3.salt.toString('hex'),
        nextHashedOwner: toBase32hex(nsec3.nextDomain),
        types: nsec3.rrtypes.map(typeLabel),
      };
    }
    case 'SSHFP':
      need(2);
      return {
        ...base,
        type,
        algorithm: rdata[0]!,
        fingerprintType: rdata[1]!,
        fingerprint: rdata.subarray(2).toString('hex'),
      };
    case 'OPENPGPKEY':
      return { ...base, type, key: rdata.toString('base64') };
  }
}

function rcodeName(rcode: number): string {
  if (rcode === 16) return 'BADVERS';
  return RCODE_NAMES[rcode] ?? `RCODE${rcode}`;
}

function encodeQuery(id: number, name: string, type: DnsRecordType, dnssec: boolean): Buffer {
  const code = dnsTypeCodes[type];
  // dns-packet has no name for some types: its UNKNOWN_n form sends the number
  const wireType = (type === 'SMIMEA' || type === 'OPENPGPKEY' ? `UNKNOWN_${code}` : type) as 'A';
  const message = dnsPacket.encode({
    type: 'query',
    id,
    flags: QUERY_FLAGS,
    // the root as a stand-in: dns-packet writes labels as UTF-8 text, so our codec writes the name
    questions: [{ name: '.', type: wireType, class: 'IN' }],
    additionals: [
      {
        type: 'OPT',
        name: '.',
        udpPayloadSize: EDNS_PAYLOAD,
        extendedRcode: 0,
        ednsVersion: 0,
        flags: dnssec ? dnsPacket.DNSSEC_OK : 0,
        flag_do: dnssec,
        options: [],
      },
    ],
  });
  return Buffer.concat([message.subarray(0, 12), encodeName(name), message.subarray(13)]);
}

// --- transports ------------------------------------------------------------------------------

type Exchange =
  | { kind: 'response'; message: Message; buffer: Buffer }
  | { kind: 'malformed'; reason: string }
  | { kind: 'timeout' }
  | { kind: 'network'; reason: string };

interface Asked {
  id: number;
  name: string;
  typeCode: number;
}

/**
 * Whether a datagram answers our question: same id, a response, the same question (RFC 5452 §9.1).
 * Anything else is ignored as stray or spoofed; an answer to us that cannot be read is `malformed`.
 */
function match(buffer: Buffer, asked: Asked): Exchange | undefined {
  if (buffer.length < 12 || buffer.readUInt16BE(0) !== asked.id || (buffer[2]! & 0x80) === 0)
    return undefined;
  let message: Message;
  try {
    message = parseMessage(buffer);
  } catch (error) {
    return { kind: 'malformed', reason: (error as Error).message };
  }
  const [question, ...more] = message.questions;
  // an error RCODE may come without the question (FORMERR from an old server)
  if (question === undefined && message.rcode !== 0) return { kind: 'response', message, buffer };
  if (
    question === undefined ||
    more.length > 0 ||
    question.name !== asked.name ||
    question.typeCode !== asked.typeCode ||
    question.classCode !== 1
  ) {
    return undefined;
  }
  return { kind: 'response', message, buffer };
}

function errnoOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}

function udpExchange(
  server: DnsServerAddress,
  query: Buffer,
  asked: Asked,
  timeoutMs: number,
): Promise<Exchange> {
  return new Promise((resolve) => {
    // a fresh socket per query: a random source port from the kernel (RFC 5452 §9.2), connected so
    // that only datagrams from the server's address and port reach us
    const socket = dgram.createSocket(server.family === 6 ? 'udp6' : 'udp4');
    let done = false;
    const finish = (result: Exchange) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      try {
        socket.close();
      } catch {
        // already closed after an error
      }
      resolve(result);
    };
    const timer = setTimeout(() => finish({ kind: 'timeout' }), timeoutMs);
    socket.on('error', (error) => finish({ kind: 'network', reason: errnoOf(error) }));
    socket.on('message', (buffer) => {
      const result = match(buffer, asked);
      if (result) finish(result);
    });
    socket.connect(server.port, server.host, () => {
      socket.send(query, (error) => {
        if (error) finish({ kind: 'network', reason: errnoOf(error) });
      });
    });
  });
}

function tcpExchange(
  server: DnsServerAddress,
  query: Buffer,
  asked: Asked,
  timeoutMs: number,
): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: server.host, port: server.port });
    let done = false;
    let received = Buffer.alloc(0);
    const finish = (result: Exchange) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => finish({ kind: 'timeout' }), timeoutMs);
    socket.on('connect', () => {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(query.length);
      socket.write(Buffer.concat([length, query]));
    });
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      if (received.length < 2 || received.length < 2 + received.readUInt16BE(0)) return;
      const result = match(received.subarray(2, 2 + received.readUInt16BE(0)), asked);
      // on a connection of our own, an answer that is not to our question is a broken server
      finish(result ?? { kind: 'malformed', reason: 'the answer over TCP was not to the question asked' });
    });
    socket.on('error', (error) => finish({ kind: 'network', reason: errnoOf(error) }));
    socket.on('close', () => finish({ kind: 'network', reason: 'the server closed the TCP connection' }));
  });
}

// --- the client ------------------------------------------------------------------------------

type Outcome =
  | { kind: 'response'; message: Message; buffer: Buffer; server: DnsServerAddress }
  | {
      kind: 'failed';
      result: 'timeout' | 'budget' | 'network' | 'malformed';
      reason: string;
      server?: string;
    };

interface Settings {
  servers: readonly DnsServerAddress[];
  timeoutMs: number;
  attempts: number;
  /** Runs one exchange when a slot is free. */
  inFlight: <T>(task: () => Promise<T>) => Promise<T>;
}

/** Caps the exchanges in flight, so that a burst (a scan, a wide SPF tree) does not flood the resolver. */
function slots(limit: number): Settings['inFlight'] {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (active < limit) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      // hand the slot straight to the next in line
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

/** Asks the servers in turn until one gives a NOERROR or NXDOMAIN answer, within the deadline. */
async function ask(
  settings: Settings,
  name: string,
  type: DnsRecordType,
  dnssec: boolean,
  deadline: number,
  budgetMs: number,
): Promise<Outcome> {
  const typeCode = dnsTypeCodes[type];
  const refusing = new Set<DnsServerAddress>();
  let lastAnswer: Outcome | undefined;
  let timeouts = 0;
  let lastFailure: { result: 'network' | 'malformed'; reason: string; server: string } | undefined;
  let lastServer: string | undefined;
  for (let round = 0; round < settings.attempts; round++) {
    for (const server of settings.servers) {
      if (refusing.has(server)) continue;
      lastServer = server.label;
      const budgetLeft = () => deadline - Date.now();
      const exchange = await settings.inFlight(async (): Promise<Exchange | undefined> => {
        if (budgetLeft() <= 0) return undefined;
        const id = randomInt(0, 65536);
        const query = encodeQuery(id, name, type, dnssec);
        const asked = { id, name, typeCode };
        const udp = await udpExchange(server, query, asked, Math.min(settings.timeoutMs, budgetLeft()));
        if (udp.kind !== 'response' || !udp.message.tc) return udp;
        // RFC 7766 §5: a truncated answer is asked again over TCP; without time for that, none counts
        if (budgetLeft() <= 0) return undefined;
        return tcpExchange(server, query, asked, Math.min(settings.timeoutMs, budgetLeft()));
      });
      if (exchange === undefined) {
        return {
          kind: 'failed',
          result: 'budget',
          reason: `our DNS lookups ran out of the ${budgetMs} ms this check may take`,
          server: lastServer,
        };
      }
      if (exchange.kind === 'response') {
        const rcode = exchange.message.rcode;
        if (rcode === 0 || rcode === 3) return { ...exchange, server };
        // SERVFAIL, REFUSED and the like: another server may know better; this one is not asked again
        lastAnswer = { ...exchange, server };
        refusing.add(server);
      } else if (exchange.kind === 'timeout') {
        timeouts++;
      } else {
        // the socket error (ECONNREFUSED …) and our resolver's address stay in `server`, out of the message
        lastFailure = {
          result: exchange.kind,
          reason:
            exchange.kind === 'network'
              ? 'our DNS resolver could not be reached'
              : 'our DNS resolver sent an answer that could not be read',
          server: server.label,
        };
        if (exchange.kind === 'malformed') refusing.add(server);
      }
    }
  }
  if (lastAnswer) return lastAnswer;
  if (timeouts > 0 && deadline - Date.now() <= 0) {
    return {
      kind: 'failed',
      result: 'budget',
      reason: `our DNS lookups ran out of the ${budgetMs} ms this check may take`,
      ...(lastServer === undefined ? {} : { server: lastServer }),
    };
  }
  if (timeouts > 0 || !lastFailure) {
    return {
      kind: 'failed',
      result: 'timeout',
      reason: `no answer from our DNS resolver (${timeouts} ${timeouts === 1 ? 'try' : 'tries'} of ${settings.timeoutMs} ms)`,
      ...(lastServer === undefined ? {} : { server: lastServer }),
    };
  }
  return { kind: 'failed', ...lastFailure };
}

type Interpreted<T extends DnsRecordType> =
  | { kind: 'result'; result: DnsResult<T> }
  | { kind: 'chase'; target: string; cnames: DnsCnameRecord[]; sections?: DnsSections };

function soaOf(buffer: Buffer, message: Message, withRdata: boolean): DnsSoaRecord | undefined {
  const rr = message.authorities.find((r) => r.typeCode === dnsTypeCodes.SOA);
  if (!rr) return undefined;
  try {
    return decodeRecord(buffer, rr, withRdata) as DnsSoaRecord;
  } catch {
    return undefined;
  }
}

/** The answer and authority records of the types the contract decodes, each with its RDATA. */
function sectionsOf(buffer: Buffer, message: Message): DnsSections {
  const decoded = (records: readonly WireRecord[]) =>
    records.filter((rr) => typeNames.has(rr.typeCode)).map((rr) => decodeRecord(buffer, rr, true));
  return { answer: decoded(message.answers), authority: decoded(message.authorities) };
}

/** Turns an answer into a result, or says which name a partial CNAME answer must be followed to. */
function interpret<T extends DnsRecordType>(
  name: string,
  type: T,
  outcome: Extract<Outcome, { kind: 'response' }>,
  dnssec: boolean,
): Interpreted<T> {
  const { message, buffer, server } = outcome;
  const common = { name, type, authenticated: message.ad, server: server.label };
  const rcode = message.rcode;
  if (rcode !== 0 && rcode !== 3) {
    const mnemonic = rcodeName(rcode);
    if (rcode === 2) {
      return {
        kind: 'result',
        result: {
          ...common,
          status: 'servfail',
          rcode: 'SERVFAIL',
          message: 'the DNS servers answered SERVFAIL (server failure)',
        },
      };
    }
    const error: DnsError<T>['error'] =
      rcode === 5 ? 'refused' : rcode === 1 ? 'formerr' : rcode === 4 ? 'notimp' : 'rcode';
    return {
      kind: 'result',
      result: {
        ...common,
        status: 'error',
        error,
        rcode: mnemonic,
        message: `the DNS servers answered ${mnemonic}`,
      },
    };
  }
  try {
    const cnames: DnsCnameRecord[] = [];
    let owner = name;
    if (type !== 'CNAME') {
      const seen = new Set([owner]);
      for (;;) {
        const rr = message.answers.find((r) => r.typeCode === dnsTypeCodes.CNAME && r.name === owner);
        if (!rr) break;
        const cname = decodeRecord(buffer, rr, dnssec) as DnsCnameRecord;
        cnames.push(cname);
        owner = cname.target;
        if (seen.has(owner)) break;
        seen.add(owner);
      }
    }
    const typeCode = dnsTypeCodes[type];
    const records = message.answers
      .filter((rr) => rr.typeCode === typeCode && rr.name === owner)
      .map((rr) => decodeRecord(buffer, rr, dnssec) as DnsRecordOf<T>);
    const sections = dnssec ? { sections: sectionsOf(buffer, message) } : {};
    if (rcode === 0 && records.length > 0) {
      const signatures = message.answers
        .filter((rr) => rr.typeCode === dnsTypeCodes.RRSIG && rr.name === owner)
        .map((rr) => decodeRecord(buffer, rr, dnssec) as DnsRrsigRecord)
        .filter((sig) => sig.typeCovered === type);
      const ttl = Math.min(...records.map((r) => r.ttl), ...cnames.map((r) => r.ttl));
      return {
        kind: 'result',
        result: {
          ...common,
          status: 'ok',
          rcode: 'NOERROR',
          records,
          ttl,
          canonicalName: owner,
          cnames,
          signatures,
          ...sections,
        },
      };
    }
    const soa = soaOf(buffer, message, dnssec);
    // an authoritative server ends its answer at a CNAME leading out of its zones: follow it
    if (rcode === 0 && cnames.length > 0 && soa === undefined)
      return { kind: 'chase', target: owner, cnames, ...sections };
    const negative = {
      ...common,
      canonicalName: owner,
      cnames,
      ttl: soa ? Math.min(soa.ttl, soa.minimum) : 0,
      ...(soa ? { soa } : {}),
      ...sections,
    };
    return {
      kind: 'result',
      result:
        rcode === 3
          ? { ...negative, status: 'nxdomain', rcode: 'NXDOMAIN' }
          : { ...negative, status: 'nodata', rcode: 'NOERROR' },
    };
  } catch (error) {
    return {
      kind: 'result',
      result: {
        ...common,
        status: 'error',
        error: 'malformed',
        rcode: rcodeName(rcode),
        message: `the DNS answer could not be read: ${(error as Error).message}`,
      },
    };
  }
}

function failure<T extends DnsRecordType>(
  name: string,
  type: T,
  outcome: Extract<Outcome, { kind: 'failed' }>,
): DnsResult<T> {
  const common = {
    name,
    type,
    authenticated: false,
    message: outcome.reason,
    ...(outcome.server === undefined ? {} : { server: outcome.server }),
  };
  if (outcome.result === 'timeout' || outcome.result === 'budget') {
    const reason: DnsTimeout<T>['reason'] = outcome.result === 'budget' ? 'budget' : 'no-answer';
    return { ...common, status: 'timeout', reason };
  }
  return { ...common, status: 'error', error: outcome.result };
}

/** One lookup, following CNAMEs that a server left unfollowed. */
async function resolve<T extends DnsRecordType>(
  settings: Settings,
  name: string,
  type: T,
  options: DnsQueryOptions | undefined,
  deadline: number,
  budgetMs: number,
): Promise<DnsResult<T>> {
  const chain: DnsCnameRecord[] = [];
  const dnssec = options?.dnssec === true;
  // the sections of the answers that ended at a CNAME, which the last answer's follow
  const earlier: DnsSections = { answer: [], authority: [] };
  const seen = new Set<string>();
  // a chain followed over several answers is only as validated as its least validated answer
  let authenticated = true;
  let current = name;
  for (let hop = 0; ; hop++) {
    const outcome = await ask(settings, current, type, dnssec, deadline, budgetMs);
    const interpreted: Interpreted<T> =
      outcome.kind === 'failed'
        ? { kind: 'result', result: failure(current, type, outcome) }
        : interpret(current, type, outcome, dnssec);
    if (interpreted.kind === 'result') {
      const result = { ...interpreted.result, name };
      result.authenticated &&= authenticated;
      if ('cnames' in result) result.cnames = [...chain, ...result.cnames];
      if ('sections' in result && result.sections !== undefined) {
        result.sections = {
          answer: [...earlier.answer, ...result.sections.answer],
          authority: [...earlier.authority, ...result.sections.authority],
        };
      }
      return result;
    }
    authenticated &&= outcome.kind === 'response' && outcome.message.ad;
    chain.push(...interpreted.cnames);
    earlier.answer.push(...(interpreted.sections?.answer ?? []));
    earlier.authority.push(...(interpreted.sections?.authority ?? []));
    seen.add(current);
    current = interpreted.target;
    if (seen.has(current) || hop + 1 >= MAX_CNAME_HOPS) {
      const server = outcome.kind === 'response' ? outcome.server.label : undefined;
      return {
        name,
        type,
        authenticated: false,
        status: 'servfail',
        rcode: 'SERVFAIL',
        message: seen.has(current)
          ? `CNAME loop at ${current}`
          : `more than ${MAX_CNAME_HOPS} CNAMEs to follow`,
        ...(server === undefined ? {} : { server }),
      };
    }
  }
}

function invalidName<T extends DnsRecordType>(name: string, type: T): DnsResult<T> {
  return {
    name,
    type,
    authenticated: false,
    status: 'error',
    error: 'invalid-name',
    message: `${JSON.stringify(name)} is not a domain name that can be looked up`,
  };
}

async function resolveAddresses(resolver: Resolver, host: string): Promise<string[]> {
  const literal = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (net.isIP(literal) !== 0) return [literal];
  const results = await Promise.all([resolver.query(host, 'A'), resolver.query(host, 'AAAA')]);
  const addresses = results.flatMap((result) =>
    result.status === 'ok' ? result.records.map((record) => record.address) : [],
  );
  if (addresses.length > 0) return addresses;
  if (results.some((r) => r.status === 'nxdomain')) {
    throw new DnsLookupError('nxdomain', host, results, `${host} does not exist (NXDOMAIN)`);
  }
  // a failure says more than the other family's NODATA: the address may be behind it
  for (const code of ['timeout', 'servfail', 'error'] as const) {
    const failed = results.find((r) => r.status === code);
    if (failed && 'message' in failed) {
      const what = code === 'timeout' ? 'timed out' : 'failed';
      throw new DnsLookupError(code, host, results, `DNS lookup of ${host} ${what}: ${failed.message}`);
    }
  }
  throw new DnsLookupError('nodata', host, results, `${host} has no A or AAAA record`);
}

function positive(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`DNS client: ${what} must be a positive number`);
  return value;
}

export function createDnsClient(options: DnsClientOptions = {}): DnsClient {
  const servers =
    options.servers === undefined
      ? systemServers()
      : options.servers.map((text) => {
          const server = parseDnsServer(text);
          if (!server)
            throw new Error(`DNS client: ${JSON.stringify(text)} is not an ip, ip:port or [ipv6]:port`);
          return server;
        });
  if (servers.length === 0) throw new Error('DNS client: no servers');
  const settings: Settings = {
    servers,
    timeoutMs: positive(options.timeoutMs, DEFAULT_TIMEOUT_MS, 'timeoutMs'),
    attempts: Math.floor(positive(options.attempts, DEFAULT_ATTEMPTS, 'attempts')),
    inFlight: slots(Math.floor(positive(options.maxInFlight, DEFAULT_MAX_IN_FLIGHT, 'maxInFlight'))),
  };
  const defaultBudget = positive(options.budgetMs, DEFAULT_BUDGET_MS, 'budgetMs');
  const defaultCacheSize = Math.floor(positive(options.cacheSize, DEFAULT_CACHE_SIZE, 'cacheSize'));

  const client: DnsClient = {
    servers,
    query(name, type, queryOptions) {
      const normalized = normalizeQueryName(name);
      if (normalized === undefined) return Promise.resolve(invalidName(name, type));
      return resolve(settings, normalized, type, queryOptions, Number.POSITIVE_INFINITY, 0);
    },
    resolveAddresses(host) {
      return resolveAddresses(client, host);
    },
    session(sessionOptions = {}) {
      const budgetMs = positive(sessionOptions.budgetMs, defaultBudget, 'budgetMs');
      const cacheSize = Math.floor(positive(sessionOptions.cacheSize, defaultCacheSize, 'cacheSize'));
      const deadline = Date.now() + budgetMs;
      // answers, failures too, hold for the whole call: one evaluation sees one consistent DNS
      const cache = new Map<string, Promise<DnsResult>>();
      const failures: DnsResult[] = [];
      const session: DnsSession = {
        query<T extends DnsRecordType>(name: string, type: T, queryOptions?: DnsQueryOptions) {
          const normalized = normalizeQueryName(name);
          if (normalized === undefined) return Promise.resolve(invalidName(name, type));
          const key = `${normalized} ${type} ${queryOptions?.dnssec === true ? 'do' : ''}`;
          const cached = cache.get(key);
          if (cached) {
            cache.delete(key);
            cache.set(key, cached);
            return cached as Promise<DnsResult<T>>;
          }
          const pending = resolve(settings, normalized, type, queryOptions, deadline, budgetMs).then(
            (result) => {
              if (isResolverFailure(result)) failures.push(result);
              return result;
            },
          );
          cache.set(key, pending);
          if (cache.size > cacheSize) cache.delete(cache.keys().next().value!);
          return pending;
        },
        resolveAddresses(host) {
          return resolveAddresses(session, host);
        },
        remainingMs() {
          return Math.max(0, deadline - Date.now());
        },
        resolverFailures() {
          return failures;
        },
      };
      return session;
    },
  };
  return client;
}
