// An authoritative DNS server for tests: serves zone fixtures written as plain objects over UDP
// and TCP on one loopback port, with per-name switches for the failures a resolver must survive.
import dgram from 'node:dgram';
import net from 'node:net';
import dnsPacket from 'dns-packet';
import type { Answer, DecodedPacket, OptAnswer, Question } from 'dns-packet';
import { isWithin, normalizeName, parentOf, presentLabel, splitName, wireName } from './names.ts';
import { SignedZones, type SignedRecord } from './signed-zones.ts';

export { normalizeName } from './names.ts';

type OneOrMany<T> = T | readonly T[];
/** Binary RDATA: bytes, or text in the field's zone-file encoding (hex or base64, as noted). */
export type FixtureBytes = Uint8Array | string;
/** A switch for every query of the name (`true`) or only for these types (`['AAAA']`). */
export type TypeSwitch = boolean | readonly string[];

export type RcodeName =
  | 'NOERROR'
  | 'FORMERR'
  | 'SERVFAIL'
  | 'NXDOMAIN'
  | 'NOTIMP'
  | 'REFUSED'
  | 'YXDOMAIN'
  | 'YXRRSET'
  | 'NXRRSET'
  | 'NOTAUTH'
  | 'NOTZONE';

export interface SoaFixture {
  mname?: string;
  rname?: string;
  serial?: number;
  refresh?: number;
  retry?: number;
  expire?: number;
  /** Negative-caching TTL. */
  minimum?: number;
}

export interface TlsaFixture {
  usage: number;
  selector: number;
  matchingType: number;
  /** Hex, as in zone files. */
  certificate: FixtureBytes;
}

/**
 * What one owner name holds. Record types are upper case, switches lower case. A single value may
 * stand for a one-record set (`A: '127.0.0.1'`); rdata names are absolute (`'mx.example.test'`).
 */
export interface DnsNameFixture {
  A?: OneOrMany<string>;
  AAAA?: OneOrMany<string>;
  CNAME?: string;
  DNAME?: string;
  NS?: OneOrMany<string>;
  PTR?: OneOrMany<string>;
  MX?: OneOrMany<{ preference: number; exchange: string }>;
  /**
   * One record per array entry. A string longer than 255 bytes is split into 255-byte
   * character-strings; an array of strings is one record with exactly those strings.
   */
  TXT?: string | readonly (string | readonly string[])[];
  SOA?: SoaFixture;
  SRV?: OneOrMany<{ priority?: number; weight?: number; port: number; target: string }>;
  CAA?: OneOrMany<{ flags?: number; critical?: boolean; tag: string; value: string }>;
  TLSA?: OneOrMany<TlsaFixture>;
  SMIMEA?: OneOrMany<TlsaFixture>;
  /** `key` in base64; `protocol` defaults to 3 (set it to test a broken key). */
  DNSKEY?: OneOrMany<{ flags: number; protocol?: number; algorithm: number; key: FixtureBytes }>;
  CDNSKEY?: OneOrMany<{ flags: number; protocol?: number; algorithm: number; key: FixtureBytes }>;
  /** `digest` in hex. */
  DS?: OneOrMany<{ keyTag: number; algorithm: number; digestType: number; digest: FixtureBytes }>;
  CDS?: OneOrMany<{ keyTag: number; algorithm: number; digestType: number; digest: FixtureBytes }>;
  /** Sent with the set it covers when the query has the DO bit; `signature` in base64. */
  RRSIG?: OneOrMany<{
    typeCovered: string;
    algorithm: number;
    labels: number;
    originalTtl: number;
    expiration: number;
    inception: number;
    keyTag: number;
    signerName: string;
    signature: FixtureBytes;
  }>;
  NSEC?: OneOrMany<{ nextDomain: string; types: readonly string[] }>;
  /** `fingerprint` in hex. */
  SSHFP?: OneOrMany<{ algorithm: number; fingerprintType: number; fingerprint: FixtureBytes }>;
  /** The key in base64. */
  OPENPGPKEY?: OneOrMany<FixtureBytes>;
  /** Any other type: a dns-packet type name with dns-packet's data shape, or `TYPEnnn` with raw RDATA. */
  other?: readonly { type: string; data: unknown }[];

  /** TTL of every record of the name (default 300). */
  ttl?: number;
  /** Never answer. */
  timeout?: TypeSwitch;
  /** Answer SERVFAIL. */
  servfail?: TypeSwitch;
  /** Over UDP, answer with TC set and no records (TCP answers in full). */
  truncate?: TypeSwitch;
  /** Wait this long before answering. */
  latencyMs?: number;
  /** Answer this RCODE with no records. */
  rcode?: RcodeName | number;
  /** Set the AD flag when the query has the DO or AD bit (RFC 6840 §5.8). */
  authenticated?: boolean;
}

export interface DnsQueryInfo {
  /** Lower case, no trailing dot. */
  name: string;
  type: string;
  transport: 'udp' | 'tcp';
  /** How many queries this name has had, this one included. */
  count: number;
}

/**
 * A name whose contents depend on the query, e.g. an address that changes on the second lookup.
 * Returning undefined leaves the name with no records (NODATA).
 */
export type DynamicDnsFixture = (query: DnsQueryInfo) => DnsNameFixture | undefined;

/**
 * Owner names (absolute, trailing dot optional) to what they hold. Zones are implied: a name with
 * an SOA is a zone apex; any other name belongs to the closest enclosing apex, or else to the zone
 * of its last two labels (`example.test`), whose SOA is made up when none is given. Names in no
 * zone are REFUSED; names in a zone but not in the fixture are NXDOMAIN, or NODATA when a listed
 * name lies below them. `*.example.test` is a wildcard (RFC 4592).
 */
export type DnsZones = Record<string, DnsNameFixture | DynamicDnsFixture>;

export interface DnsQueryLogEntry {
  /** Lower case, no trailing dot. */
  name: string;
  type: string;
  transport: 'udp' | 'tcp';
  id: number;
  /** The query carried an OPT record (EDNS0). */
  edns: boolean;
  /** The DO bit (RFC 3225). */
  dnssecOk: boolean;
}

/** The failure switches of a name, for names served from signed zones. */
export type DnsSwitches = Pick<
  DnsNameFixture,
  'timeout' | 'servfail' | 'truncate' | 'latencyMs' | 'rcode' | 'authenticated'
>;

export interface DnsServerOptions {
  zones: DnsZones;
  /**
   * Zones in presentation format with absolute owner names, one record per line (what
   * `dnssec-signzone -O full` writes; see `buildDnssecLab`), signed or not. A name is answered from
   * the deepest of these zones holding it, as a resolver knowing every lab zone would (DS from the
   * parent), with RRSIGs and NSEC/NSEC3 proofs when the query has the DO bit; a fixture zone of
   * `zones` deeper than that zone answers instead.
   */
  signedZones?: readonly string[];
  /** Failure switches by name for names of `signedZones` (fixtures carry their own). */
  switches?: Record<string, DnsSwitches>;
  /** Loopback address to listen on (default 127.0.0.1; `::1` for IPv6). */
  host?: string;
}

export interface LabDnsServer {
  host: string;
  port: number;
  /** `127.0.0.1:port` or `[::1]:port`, the form DNS_SERVERS takes. */
  address: string;
  /** Every question received, in order. */
  readonly queries: DnsQueryLogEntry[];
  /** The logged questions for one name (and type). */
  queriesFor(name: string, type?: string): DnsQueryLogEntry[];
  clearQueries(): void;
  /** Replaces every fixture zone, and the signed zones when `signedZones` is given. */
  setZones(zones: DnsZones, signedZones?: readonly string[]): void;
  /** Sets (or with `undefined` removes) the failure switches of one name of the signed zones. */
  setSwitches(name: string, switches: DnsSwitches | undefined): void;
  /** Sets (or with `undefined` removes) one name. */
  update(name: string, fixture: DnsNameFixture | DynamicDnsFixture | undefined): void;
  close(): Promise<void>;
}

const DEFAULT_TTL = 300;
const EDNS_PAYLOAD = 1232;
const MAX_CNAME_CHAIN = 16;
const RECV_BUFFER = 4 * 1024 * 1024;
const RCODES: Record<RcodeName, number> = {
  NOERROR: 0,
  FORMERR: 1,
  SERVFAIL: 2,
  NXDOMAIN: 3,
  NOTIMP: 4,
  REFUSED: 5,
  YXDOMAIN: 6,
  YXRRSET: 7,
  NXRRSET: 8,
  NOTAUTH: 9,
  NOTZONE: 10,
};
const RECORD_TYPES = [
  'A',
  'AAAA',
  'CNAME',
  'DNAME',
  'NS',
  'PTR',
  'MX',
  'TXT',
  'SOA',
  'SRV',
  'CAA',
  'TLSA',
  'SMIMEA',
  'DNSKEY',
  'CDNSKEY',
  'DS',
  'CDS',
  'RRSIG',
  'NSEC',
  'SSHFP',
  'OPENPGPKEY',
] as const;
// types dns-packet has no codec for, sent as raw RDATA under their number
const RAW_TYPE_CODES: Record<string, number> = { SMIMEA: 53, CDS: 59, CDNSKEY: 60, OPENPGPKEY: 61 };
const RAW_TYPE_NAMES = new Map(Object.entries(RAW_TYPE_CODES).map(([name, code]) => [`TYPE${code}`, name]));

/** The question's name (normalized) and where the question ends, read octet for octet. */
function readQuestion(message: Buffer): { name: string; end: number } | undefined {
  const labels: Uint8Array[] = [];
  let at = 12;
  for (;;) {
    const length = message[at];
    // no compression: nothing precedes the first question for a pointer to point at
    if (length === undefined || length > 63 || at + 1 + length > message.length) return undefined;
    if (length === 0) break;
    labels.push(message.subarray(at + 1, at + 1 + length));
    at += 1 + length;
  }
  if (at + 5 > message.length) return undefined;
  return { name: labels.map(presentLabel).join('.'), end: at + 5 };
}

/** One record's wire form with its owner name written by `wireName`, the rest by dns-packet. */
function encodeRecord(rr: Answer): Buffer {
  const alone = dnsPacket.encode({ type: 'response', answers: [{ ...rr, name: '.' } as Answer] });
  // a 12-octet header, then the root name's single zero octet
  return Buffer.concat([wireName(rr.name), alone.subarray(13)]);
}

function many<T>(value: OneOrMany<T> | undefined): readonly T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? (value as readonly T[]) : [value as T];
}

function bytes(value: FixtureBytes, encoding: 'hex' | 'base64'): Buffer {
  if (typeof value !== 'string') return Buffer.from(value);
  const text = value.replace(/\s+/g, '');
  if (encoding === 'hex' && !/^(?:[0-9a-f]{2})*$/i.test(text)) throw new Error(`lab DNS: bad hex ${value}`);
  return Buffer.from(text, encoding);
}

/** Splits a TXT string into character-strings of at most 255 bytes (RFC 1035 §3.3.14). */
export function splitTxt(text: string): Buffer[] {
  const all = Buffer.from(text, 'utf8');
  if (all.length === 0) return [all];
  const parts: Buffer[] = [];
  for (let i = 0; i < all.length; i += 255) parts.push(all.subarray(i, i + 255));
  return parts;
}

function txtRecord(value: string | readonly string[]): Buffer[] {
  if (typeof value === 'string') return splitTxt(value);
  return value.map((part) => {
    const buffer = Buffer.from(part, 'utf8');
    if (buffer.length > 255) throw new Error('lab DNS: a TXT character-string is at most 255 bytes');
    return buffer;
  });
}

interface RR {
  type: string;
  data: unknown;
}

function raw(type: string, rdata: Buffer): RR {
  return { type: `UNKNOWN_${RAW_TYPE_CODES[type] ?? dnsTypeCode(type)}`, data: rdata };
}

function dnsTypeCode(type: string): number {
  const match = /^TYPE(\d+)$/.exec(type);
  return match ? Number(match[1]) : 0;
}

function u16(value: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(value);
  return b;
}

/** The records of one type, in dns-packet's shapes. */
function rrset(fixture: DnsNameFixture, type: string, apex: string): RR[] {
  switch (type) {
    case 'A':
    case 'AAAA':
    case 'NS':
    case 'PTR':
      return many(fixture[type]).map((data) => ({ type, data }));
    case 'CNAME':
    case 'DNAME':
      return fixture[type] === undefined ? [] : [{ type, data: fixture[type] }];
    case 'MX':
      return many(fixture.MX).map((data) => ({ type, data }));
    case 'TXT': {
      const txt = fixture.TXT;
      if (txt === undefined) return [];
      const records = typeof txt === 'string' ? [txt] : txt;
      return records.map((record) => ({ type, data: txtRecord(record) }));
    }
    case 'SOA':
      return fixture.SOA === undefined ? [] : [{ type, data: soaData(fixture.SOA, apex) }];
    case 'SRV':
      return many(fixture.SRV).map((srv) => ({
        type,
        data: { priority: srv.priority ?? 0, weight: srv.weight ?? 0, port: srv.port, target: srv.target },
      }));
    case 'CAA':
      return many(fixture.CAA).map((caa) => ({
        type,
        data: { flags: (caa.flags ?? 0) | (caa.critical ? 128 : 0), tag: caa.tag, value: caa.value },
      }));
    case 'TLSA':
      return many(fixture.TLSA).map((tlsa) => ({
        type,
        data: { ...tlsa, certificate: bytes(tlsa.certificate, 'hex') },
      }));
    case 'SMIMEA':
      return many(fixture.SMIMEA).map((tlsa) =>
        raw(
          type,
          Buffer.concat([
            Buffer.from([tlsa.usage, tlsa.selector, tlsa.matchingType]),
            bytes(tlsa.certificate, 'hex'),
          ]),
        ),
      );
    case 'DNSKEY':
    case 'CDNSKEY':
      // raw, so that a protocol other than 3 can be served
      return many(fixture[type]).map((key) =>
        raw(
          type === 'DNSKEY' ? 'TYPE48' : type,
          Buffer.concat([
            u16(key.flags),
            Buffer.from([key.protocol ?? 3, key.algorithm]),
            bytes(key.key, 'base64'),
          ]),
        ),
      );
    case 'DS':
    case 'CDS':
      return many(fixture[type]).map((ds) =>
        raw(
          type === 'DS' ? 'TYPE43' : type,
          Buffer.concat([
            u16(ds.keyTag),
            Buffer.from([ds.algorithm, ds.digestType]),
            bytes(ds.digest, 'hex'),
          ]),
        ),
      );
    case 'RRSIG':
      return many(fixture.RRSIG).map((sig) => ({
        type,
        data: {
          typeCovered: sig.typeCovered,
          algorithm: sig.algorithm,
          labels: sig.labels,
          originalTTL: sig.originalTtl,
          expiration: sig.expiration,
          inception: sig.inception,
          keyTag: sig.keyTag,
          signersName: sig.signerName,
          signature: bytes(sig.signature, 'base64'),
        },
      }));
    case 'NSEC':
      return many(fixture.NSEC).map((nsec) => ({
        type,
        data: { nextDomain: nsec.nextDomain, rrtypes: [...nsec.types] },
      }));
    case 'SSHFP':
      return many(fixture.SSHFP).map((fp) =>
        raw(
          'TYPE44',
          Buffer.concat([Buffer.from([fp.algorithm, fp.fingerprintType]), bytes(fp.fingerprint, 'hex')]),
        ),
      );
    case 'OPENPGPKEY':
      return many(fixture.OPENPGPKEY).map((key) => raw(type, bytes(key, 'base64')));
    default:
      return (fixture.other ?? [])
        .filter((rr) => rr.type.toUpperCase() === type)
        .map((rr) =>
          /^TYPE\d+$/.test(type) ? raw(type, bytes(rr.data as FixtureBytes, 'hex')) : { type, data: rr.data },
        );
  }
}

function typesOf(fixture: DnsNameFixture): string[] {
  const types: string[] = RECORD_TYPES.filter((type) => fixture[type] !== undefined);
  for (const rr of fixture.other ?? []) types.push(rr.type.toUpperCase());
  return [...new Set(types)];
}

function soaData(soa: SoaFixture, apex: string) {
  const suffix = apex === '' ? '' : `.${apex}`;
  return {
    mname: soa.mname ?? `ns${suffix}`,
    rname: soa.rname ?? `hostmaster${suffix}`,
    serial: soa.serial ?? 1,
    refresh: soa.refresh ?? 3600,
    retry: soa.retry ?? 600,
    expire: soa.expire ?? 86400,
    minimum: soa.minimum ?? 60,
  };
}

function switchOn(value: TypeSwitch | undefined, type: string): boolean {
  if (value === undefined || value === false) return false;
  return value === true || value.some((t) => t.toUpperCase() === type);
}

/** Where each name sits: the fixtures, the zone apexes and every name that exists (empty non-terminals too). */
class ZoneIndex {
  readonly fixtures = new Map<string, DnsNameFixture | DynamicDnsFixture>();
  readonly apexes = new Set<string>();
  readonly existing = new Set<string>();

  constructor(zones: DnsZones) {
    for (const [key, fixture] of Object.entries(zones)) {
      const name = normalizeName(key);
      if (this.fixtures.has(name)) throw new Error(`lab DNS: ${name} is listed twice`);
      this.fixtures.set(name, fixture);
      if (typeof fixture !== 'function' && fixture.SOA !== undefined) this.apexes.add(name);
    }
    for (const name of this.fixtures.keys()) {
      let apex = this.zoneOf(name);
      if (apex === undefined) {
        apex = splitName(name).slice(-2).join('.');
        this.apexes.add(apex);
      }
      // every name between the record and its apex exists, as an empty non-terminal at least
      for (let n: string | undefined = name; n !== undefined && isWithin(n, apex); n = parentOf(n)) {
        this.existing.add(n);
        if (n === apex) break;
      }
    }
  }

  /** The closest enclosing apex, if any. */
  zoneOf(name: string): string | undefined {
    for (let n: string | undefined = name; n !== undefined; n = parentOf(n)) {
      if (this.apexes.has(n)) return n;
    }
    return undefined;
  }
}

interface Built {
  rcode: number;
  answers: Answer[];
  authorities: Answer[];
  authoritative: boolean;
}

export async function startDnsServer(options: DnsServerOptions): Promise<LabDnsServer> {
  const host = options.host ?? '127.0.0.1';
  if (host !== '::1' && !host.startsWith('127.')) {
    throw new Error(`lab DNS: ${host} is not a loopback address`);
  }
  let index = new ZoneIndex(options.zones);
  let signedZones = new SignedZones(options.signedZones ?? []);
  const signedSwitches = new Map(
    Object.entries(options.switches ?? {}).map(([name, switches]) => [normalizeName(name), switches]),
  );
  const queries: DnsQueryLogEntry[] = [];
  const counts = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  const sockets = new Set<net.Socket>();
  let closed = false;

  function fixtureAt(name: string, info: Omit<DnsQueryInfo, 'count' | 'name'>): DnsNameFixture | undefined {
    const entry = index.fixtures.get(name);
    if (typeof entry !== 'function') return entry;
    const count = (counts.get(name) ?? 0) + 1;
    counts.set(name, count);
    return entry({ ...info, name, count });
  }

  /** The SOA of a negative answer, its TTL capped by the SOA minimum as servers do (RFC 2308 §3). */
  function soaOf(apex: string): Answer {
    const at = index.fixtures.get(apex);
    const data = soaData(typeof at === 'object' && at.SOA !== undefined ? at.SOA : {}, apex);
    const ttl = Math.min(typeof at === 'object' && at.ttl !== undefined ? at.ttl : DEFAULT_TTL, data.minimum);
    return { type: 'SOA', name: apex, ttl, data } as Answer;
  }

  function toAnswers(owner: string, rrs: RR[], ttl: number): Answer[] {
    return rrs.map((rr) => ({ ...rr, name: owner, ttl }) as Answer);
  }

  /** The fixture a name resolves to: its own, a wildcard's, or none (with whether the name exists). */
  function lookup(
    name: string,
    apex: string,
    info: Omit<DnsQueryInfo, 'count' | 'name'>,
  ): { fixture?: DnsNameFixture; exists: boolean } {
    if (index.fixtures.has(name)) return { fixture: fixtureAt(name, info) ?? {}, exists: true };
    if (index.existing.has(name) || name === apex) return { exists: true };
    // RFC 4592 §3.3.1: a wildcard at the closest encloser synthesises the name
    let encloser = parentOf(name);
    while (encloser !== undefined && !index.existing.has(encloser) && encloser !== apex) {
      encloser = parentOf(encloser);
    }
    const wildcard = encloser === undefined ? undefined : encloser === '' ? '*' : `*.${encloser}`;
    if (wildcard !== undefined && index.fixtures.has(wildcard)) {
      return { fixture: fixtureAt(wildcard, info) ?? {}, exists: true };
    }
    return { exists: false };
  }

  function answer(
    qname: string,
    qtype: string,
    first: { fixture?: DnsNameFixture; exists: boolean },
    dnssecOk: boolean,
    transport: 'udp' | 'tcp',
  ): Built {
    const answers: Answer[] = [];
    const seen = new Set<string>();
    let name = qname;
    let apex = index.zoneOf(qname);
    if (apex === undefined) return { rcode: RCODES.REFUSED, answers, authorities: [], authoritative: false };
    let { fixture, exists } = first;
    for (let hop = 0; hop < MAX_CNAME_CHAIN; hop++) {
      seen.add(name);
      if (!exists) {
        return { rcode: RCODES.NXDOMAIN, answers, authorities: [soaOf(apex)], authoritative: true };
      }
      const ttl = fixture?.ttl ?? DEFAULT_TTL;
      const signatures = (type: string): RR[] =>
        dnssecOk && fixture
          ? rrset(fixture, 'RRSIG', apex!).filter(
              (sig) => (sig.data as { typeCovered: string }).typeCovered.toUpperCase() === type,
            )
          : [];
      if (fixture?.CNAME !== undefined && qtype !== 'CNAME' && qtype !== 'ANY') {
        answers.push(...toAnswers(name, [...rrset(fixture, 'CNAME', apex), ...signatures('CNAME')], ttl));
        const target = normalizeName(fixture.CNAME);
        const targetApex = index.zoneOf(target);
        // a target outside every zone ends the answer here, as an authoritative server's would
        if (targetApex === undefined || seen.has(target)) {
          return { rcode: RCODES.NOERROR, answers, authorities: [], authoritative: true };
        }
        name = target;
        apex = targetApex;
        const found = lookup(target, apex, { type: qtype, transport });
        fixture = found.fixture;
        exists = found.exists;
        continue;
      }
      const types = qtype === 'ANY' ? (fixture ? typesOf(fixture) : []) : [qtype];
      let rrs: RR[] = [];
      for (const type of types) {
        if (!fixture) break;
        // the apex always has an SOA, made up when the fixture gives none
        const set =
          type === 'SOA' && name === apex && fixture.SOA === undefined
            ? [{ type: 'SOA', data: soaData({}, apex) }]
            : rrset(fixture, type, apex);
        rrs = rrs.concat(set, set.length > 0 && type !== 'RRSIG' ? signatures(type) : []);
      }
      if (!fixture && qtype === 'SOA' && name === apex) rrs = [{ type: 'SOA', data: soaData({}, apex) }];
      if (rrs.length === 0) {
        return { rcode: RCODES.NOERROR, answers, authorities: [soaOf(apex)], authoritative: true };
      }
      answers.push(...toAnswers(name, rrs, ttl));
      return { rcode: RCODES.NOERROR, answers, authorities: [], authoritative: true };
    }
    return { rcode: RCODES.SERVFAIL, answers: [], authorities: [], authoritative: true };
  }

  /** Whether a signed zone answers for the name: the deeper zone does, a signed one on a tie. */
  function servedBySigned(name: string): boolean {
    const signedApex = signedZones.apexOf(name);
    const apex = index.zoneOf(name);
    return (
      signedApex !== undefined &&
      (apex === undefined || splitName(signedApex).length >= splitName(apex).length)
    );
  }

  function signedReply(qname: string, qtype: string, dnssecOk: boolean): Built {
    const reply = signedZones.answer(qname, qtype, dnssecOk, (name) => !servedBySigned(name));
    if (reply === undefined)
      return { rcode: RCODES.NOTIMP, answers: [], authorities: [], authoritative: false };
    const toAnswer = (record: SignedRecord) =>
      ({
        name: record.owner,
        type: `UNKNOWN_${record.typeCode}`,
        ttl: record.ttl,
        data: record.rdata,
      }) as unknown as Answer;
    return {
      rcode: reply.rcode,
      answers: reply.answers.map(toAnswer),
      authorities: reply.authorities.map(toAnswer),
      authoritative: reply.authoritative,
    };
  }

  /** Answers one query message through `send`, or stays silent (the `timeout` switch, a stray response). */
  function respond(message: Buffer, transport: 'udp' | 'tcp', send: (reply: Buffer) => void): void {
    let query: DecodedPacket;
    try {
      query = dnsPacket.decode(message);
    } catch {
      if (message.length >= 12) {
        send(dnsPacket.encode({ type: 'response', id: message.readUInt16BE(0), flags: RCODES.FORMERR }));
      }
      return;
    }
    if (query.flag_qr) return;
    const opt = query.additionals?.find((rr): rr is OptAnswer => rr.type === 'OPT');
    const dnssecOk = opt?.flag_do ?? false;
    const opcodeBits = (query.flags ?? 0) & 0x7800;
    const questions = query.questions ?? [];
    const question: Question | undefined = questions[0];
    const base = {
      type: 'response' as const,
      id: query.id ?? 0,
      questions,
      additionals: opt
        ? [
            {
              type: 'OPT',
              name: '.',
              udpPayloadSize: EDNS_PAYLOAD,
              flags: dnssecOk ? dnsPacket.DNSSEC_OK : 0,
            } as Answer,
          ]
        : [],
    };
    const rd = (query.flags ?? 0) & dnsPacket.RECURSION_DESIRED;
    if (question === undefined || questions.length !== 1) {
      send(dnsPacket.encode({ ...base, flags: opcodeBits | rd | RCODES.FORMERR }));
      return;
    }
    // dns-packet reads names as UTF-8 text: the lab reads the question's octets itself
    const raw = readQuestion(message);
    if (raw === undefined) {
      send(dnsPacket.encode({ ...base, flags: opcodeBits | rd | RCODES.FORMERR }));
      return;
    }
    const qname = raw.name;
    /** A reply with the question as asked, octet for octet, and records by `encodeRecord`. */
    const encodeReply = (flags: number, sections: { answers?: Answer[]; authorities?: Answer[] } = {}) => {
      const answers = sections.answers ?? [];
      const authorities = sections.authorities ?? [];
      const header = Buffer.alloc(12);
      header.writeUInt16BE(query.id ?? 0, 0);
      header.writeUInt16BE(0x8000 | (flags & 0x7fff), 2);
      header.writeUInt16BE(1, 4);
      header.writeUInt16BE(answers.length, 6);
      header.writeUInt16BE(authorities.length, 8);
      header.writeUInt16BE(base.additionals.length, 10);
      return Buffer.concat([
        header,
        message.subarray(12, raw.end),
        ...[...answers, ...authorities, ...base.additionals].map(encodeRecord),
      ]);
    };
    const numbered = question.type.startsWith('UNKNOWN_') ? `TYPE${question.type.slice(8)}` : question.type;
    const qtype = RAW_TYPE_NAMES.get(numbered) ?? numbered;
    queries.push({
      name: qname,
      type: qtype,
      transport,
      id: query.id ?? 0,
      edns: opt !== undefined,
      dnssecOk,
    });
    if (opcodeBits !== 0) {
      send(encodeReply(opcodeBits | rd | RCODES.NOTIMP));
      return;
    }
    if (opt && opt.ednsVersion > 0) {
      // BADVERS (16): upper bits in the OPT record, RFC 6891 §6.1.3
      const badvers = { type: 'OPT', name: '.', udpPayloadSize: EDNS_PAYLOAD, extendedRcode: 1, flags: 0 };
      send(dnsPacket.encode({ ...base, flags: rd, additionals: [badvers as Answer] }));
      return;
    }

    const apex = index.zoneOf(qname);
    const fromSigned = servedBySigned(qname);
    const first =
      apex === undefined || fromSigned ? { exists: false } : lookup(qname, apex, { type: qtype, transport });
    const switches = fromSigned ? (signedSwitches.get(qname) ?? {}) : (first.fixture ?? {});
    if (switchOn(switches.timeout, qtype)) return;

    let built: Built;
    if (switchOn(switches.servfail, qtype)) {
      built = { rcode: RCODES.SERVFAIL, answers: [], authorities: [], authoritative: false };
    } else if (switches.rcode !== undefined) {
      const rcode = typeof switches.rcode === 'number' ? switches.rcode : RCODES[switches.rcode];
      built = { rcode: rcode & 0xf, answers: [], authorities: [], authoritative: true };
    } else if (fromSigned) {
      built = signedReply(qname, qtype, dnssecOk);
    } else {
      built = answer(qname, qtype, first, dnssecOk, transport);
    }
    const ad =
      switches.authenticated && (dnssecOk || query.flag_ad) && built.rcode !== RCODES.SERVFAIL
        ? dnsPacket.AUTHENTIC_DATA
        : 0;
    const flags = rd | ad | (built.authoritative ? dnsPacket.AUTHORITATIVE_ANSWER : 0) | built.rcode;
    let reply = encodeReply(flags, { answers: built.answers, authorities: built.authorities });
    if (transport === 'udp') {
      const limit = opt ? Math.max(512, opt.udpPayloadSize) : 512;
      if (switchOn(switches.truncate, qtype) || reply.length > limit) {
        reply = encodeReply(flags | dnsPacket.TRUNCATED_RESPONSE);
      }
    }
    const latency = switches.latencyMs ?? 0;
    if (latency > 0) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!closed) send(reply);
      }, latency);
      timers.add(timer);
    } else {
      send(reply);
    }
  }

  const tcp = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 2) {
        const length = pending.readUInt16BE(0);
        if (pending.length < 2 + length) break;
        const message = pending.subarray(2, 2 + length);
        pending = pending.subarray(2 + length);
        respond(message, 'tcp', (reply) => {
          if (!socket.destroyed) socket.write(Buffer.concat([u16(reply.length), reply]));
        });
      }
    });
  });

  // UDP takes a free port first; TCP then needs the same number, which another process may hold
  let udp: dgram.Socket | undefined;
  let port = 0;
  for (let attempt = 0; udp === undefined; attempt++) {
    const socket = dgram.createSocket(host === '::1' ? 'udp6' : 'udp4');
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(0, host, () => {
        socket.off('error', reject);
        resolve();
      });
    });
    // a burst of queries (the benchmark sends 1,000 at once) overflows the default 208 KiB buffer
    try {
      socket.setRecvBufferSize(RECV_BUFFER);
    } catch {
      // capped by net.core.rmem_max: the default it is
    }
    port = socket.address().port;
    const listening = await new Promise<boolean>((resolve, reject) => {
      const onError = (error: NodeJS.ErrnoException) => {
        if (error.code === 'EADDRINUSE' && attempt < 20) resolve(false);
        else reject(error);
      };
      tcp.once('error', onError);
      tcp.listen(port, host, () => {
        tcp.off('error', onError);
        resolve(true);
      });
    });
    if (listening) udp = socket;
    else await new Promise<void>((resolve) => socket.close(() => resolve()));
  }
  const udpSocket = udp;
  udpSocket.on('message', (message, remote) => {
    respond(message, 'udp', (reply) => {
      if (!closed) udpSocket.send(reply, remote.port, remote.address);
    });
  });
  // a reply to a client that went away (ICMP unreachable) is not the lab's problem
  udpSocket.on('error', () => {});

  return {
    host,
    port,
    address: host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`,
    queries,
    queriesFor(name, type) {
      const wanted = normalizeName(name);
      return queries.filter(
        (q) => q.name === wanted && (type === undefined || q.type === type.toUpperCase()),
      );
    },
    clearQueries() {
      queries.length = 0;
    },
    setZones(zones, signed) {
      index = new ZoneIndex(zones);
      if (signed !== undefined) signedZones = new SignedZones(signed);
      counts.clear();
    },
    setSwitches(name, switches) {
      if (switches === undefined) signedSwitches.delete(normalizeName(name));
      else signedSwitches.set(normalizeName(name), switches);
    },
    update(name, fixture) {
      const zones: DnsZones = Object.fromEntries(index.fixtures);
      const key = normalizeName(name);
      if (fixture === undefined) delete zones[key];
      else zones[key] = fixture;
      index = new ZoneIndex(zones);
    },
    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const socket of sockets) socket.destroy();
      await Promise.all([
        new Promise<void>((resolve) => udpSocket.close(() => resolve())),
        new Promise<void>((resolve) => tcp.close(() => resolve())),
      ]);
    },
  };
}
