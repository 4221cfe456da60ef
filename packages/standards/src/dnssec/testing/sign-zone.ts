/**
 * A small DNSSEC signer for tests and benchmarks: makes keys with Web Crypto (ECDSA P-256,
 * algorithm 13, and Ed25519, algorithm 15), signs RRsets in canonical form (RFC 4034 §3.1.8.1,
 * §6) and builds NSEC (RFC 4034 §4) or NSEC3 (RFC 5155 §7.1) chains, so that a chain validator
 * meets zones signed the way a real signer signs them. Every record it returns carries `rdata`.
 */
import { decodeBase64 } from '../../core/base64.ts';
import type { CryptoProvider } from '../../core/crypto.ts';
import type { FixtureZones } from '../../core/fixture-resolver.ts';
import { toHex } from '../../core/hex.ts';
import {
  type DnsDnskeyRecord,
  type DnsDsRecord,
  type DnsNsec3Record,
  type DnsNsecRecord,
  type DnsRecord,
  type DnsRrsigRecord,
} from '../../core/resolver.ts';
import { nsec3Hash } from '../denial.ts';
import { keyTag } from '../key-tag.ts';
import {
  compareCanonicalNames,
  compareOctets,
  labelCount,
  nameToWire,
  typeCode as knownTypeCode,
} from '../wire.ts';

export type TestAlgorithm = 13 | 15;

export interface SigningKey {
  zone: string;
  record: DnsDnskeyRecord;
  keyTag: number;
  privateKey: CryptoKey;
}

const subtle = globalThis.crypto.subtle;
const encoder = new TextEncoder();

function toBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

function fromBase64(text: string): Uint8Array {
  const decoded = decodeBase64(text);
  if (!decoded.ok) throw new Error(`sign-zone: bad base64: ${decoded.error}`);
  return decoded.bytes;
}

function fromHex(hex: string): Uint8Array {
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

function u16(n: number): number[] {
  return [(n >> 8) & 0xff, n & 0xff];
}

function u32(n: number): number[] {
  return [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
}

function concat(...parts: (Uint8Array | readonly number[])[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function typeCode(type: string): number {
  const code = knownTypeCode(type);
  if (code === undefined) throw new Error(`sign-zone: unknown type ${type}`);
  return code;
}

/** RFC 4034 §4.1.2 type bitmap: windows of up to 32 octets. */
function typeBitmap(types: readonly string[]): Uint8Array {
  const codes = [...new Set(types.map(typeCode))].sort((a, b) => a - b);
  const windows = new Map<number, number[]>();
  for (const code of codes) {
    const bits = windows.get(code >> 8) ?? [];
    const low = code & 0xff;
    while (bits.length <= low >> 3) bits.push(0);
    bits[low >> 3] = (bits[low >> 3] ?? 0) | (0x80 >> (low & 7));
    windows.set(code >> 8, bits);
  }
  return concat(...[...windows].map(([window, bits]) => [window, bits.length, ...bits]));
}

const base32hex = '0123456789abcdefghijklmnopqrstuv';

function fromBase32hex(text: string): Uint8Array {
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const c of text.toLowerCase()) {
    buffer = (buffer << 5) | base32hex.indexOf(c);
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push((buffer >> bits) & 0xff);
    }
  }
  return Uint8Array.from(out);
}

/** Uncompressed RDATA of the record types the test zones hold (RFC 1035 §3.3, RFC 4034, RFC 5155). */
export function encodeRdata(record: DnsRecord): Uint8Array {
  switch (record.type) {
    case 'A':
      return Uint8Array.from(record.address.split('.').map(Number));
    case 'AAAA': {
      const [head = '', tail = ''] = record.address.split('::');
      const left = head === '' ? [] : head.split(':');
      const right = tail === '' ? [] : tail.split(':');
      const groups = record.address.includes('::')
        ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
        : left;
      return concat(...groups.map((g) => u16(parseInt(g, 16))));
    }
    case 'NS':
    case 'CNAME':
    case 'PTR':
    case 'DNAME':
      return nameToWire(record.target);
    case 'MX':
      return concat(u16(record.preference), nameToWire(record.exchange));
    case 'TXT':
      return concat(
        ...record.strings.map((s) => {
          const bytes = encoder.encode(s);
          return concat([bytes.length], bytes);
        }),
      );
    case 'SOA':
      return concat(
        nameToWire(record.mname),
        nameToWire(record.rname),
        u32(record.serial),
        u32(record.refresh),
        u32(record.retry),
        u32(record.expire),
        u32(record.minimum),
      );
    case 'DNSKEY':
    case 'CDNSKEY':
      return concat(u16(record.flags), [record.protocol, record.algorithm], fromBase64(record.key));
    case 'DS':
    case 'CDS':
      return concat(u16(record.keyTag), [record.algorithm, record.digestType], fromHex(record.digest));
    case 'RRSIG':
      return concat(rrsigHeader(record), fromBase64(record.signature));
    case 'NSEC':
      return concat(nameToWire(record.nextDomain), typeBitmap(record.types));
    case 'NSEC3': {
      const salt = fromHex(record.salt);
      const next = fromBase32hex(record.nextHashedOwner);
      return concat(
        [record.hashAlgorithm, record.flags],
        u16(record.iterations),
        [salt.length],
        salt,
        [next.length],
        next,
        typeBitmap(record.types),
      );
    }
    default:
      throw new Error(`sign-zone: no encoder for ${record.type}`);
  }
}

/** The record as a resolver returns it with `dnssec: true`: its RDATA attached. */
export function withRdata<R extends DnsRecord>(record: R): R {
  return { ...record, rdata: toBase64(encodeRdata(record)) };
}

function rrsigHeader(sig: Omit<DnsRrsigRecord, 'signature'>): Uint8Array {
  return concat(
    u16(typeCode(sig.typeCovered)),
    [sig.algorithm, sig.labels],
    u32(sig.originalTtl),
    u32(sig.expiration),
    u32(sig.inception),
    u16(sig.keyTag),
    nameToWire(sig.signerName),
  );
}

const keyParams = {
  13: { name: 'ECDSA', namedCurve: 'P-256' },
  15: { name: 'Ed25519' },
} as const;

export async function generateKey(
  zone: string,
  algorithm: TestAlgorithm,
  role: 'KSK' | 'ZSK',
  ttl = 3600,
): Promise<SigningKey> {
  const pair = (await subtle.generateKey(keyParams[algorithm], true, ['sign', 'verify'])) as CryptoKeyPair;
  const raw = new Uint8Array(await subtle.exportKey('raw', pair.publicKey));
  // RFC 6605 §4: the point without the 0x04 uncompressed-form prefix; RFC 8080 §3: the 32 octets
  const publicKey = algorithm === 13 ? raw.slice(1) : raw;
  const record = withRdata<DnsDnskeyRecord>({
    name: zone,
    ttl,
    type: 'DNSKEY',
    flags: role === 'KSK' ? 257 : 256,
    protocol: 3,
    algorithm,
    key: toBase64(publicKey),
  });
  return { zone, record, keyTag: keyTag(encodeRdata(record)), privateKey: pair.privateKey };
}

/** DS of a key (RFC 4034 §5.1.4), SHA-256 unless asked otherwise. */
export async function dsOf(
  key: SigningKey,
  crypto: CryptoProvider,
  digestType: 1 | 2 | 4 = 2,
): Promise<DnsDsRecord> {
  const hash = ({ 1: 'SHA-1', 2: 'SHA-256', 4: 'SHA-384' } as const)[digestType];
  const digest = await crypto.digest(hash, concat(nameToWire(key.zone), encodeRdata(key.record)));
  return withRdata<DnsDsRecord>({
    name: key.zone,
    ttl: 3600,
    type: 'DS',
    keyTag: key.keyTag,
    algorithm: key.record.algorithm,
    digestType,
    digest: toHex(digest),
  });
}

export interface SignatureWindow {
  inception: number;
  expiration: number;
}

/** RRSIG over one RRset (RFC 4034 §3.1.8.1): RRSIG RDATA without signature, then the canonical RRs. */
export async function signRrset(
  rrset: readonly DnsRecord[],
  key: SigningKey,
  window: SignatureWindow,
): Promise<DnsRrsigRecord> {
  const first = rrset[0];
  if (first === undefined) throw new Error('sign-zone: empty RRset');
  const owner = first.name;
  const header: Omit<DnsRrsigRecord, 'signature'> = {
    name: owner,
    ttl: first.ttl,
    type: 'RRSIG',
    typeCovered: first.type,
    algorithm: key.record.algorithm,
    labels: labelCount(owner),
    originalTtl: first.ttl,
    expiration: window.expiration,
    inception: window.inception,
    keyTag: key.keyTag,
    signerName: key.zone,
  };
  const ownerWire = nameToWire(owner);
  const rdatas = rrset.map(encodeRdata).sort(compareOctets);
  const data = concat(
    rrsigHeader(header),
    ...rdatas.map((rdata) =>
      concat(ownerWire, u16(typeCode(first.type)), u16(1), u32(first.ttl), u16(rdata.length), rdata),
    ),
  );
  const params = key.record.algorithm === 13 ? { name: 'ECDSA', hash: 'SHA-256' } : { name: 'Ed25519' };
  const signature = new Uint8Array(await subtle.sign(params, key.privateKey, data));
  return withRdata<DnsRrsigRecord>({ ...header, signature: toBase64(signature) });
}

export interface ZoneSpec {
  /** Apex, lower case, '' for the root. */
  zone: string;
  /** Every record of the zone except DNSKEY, RRSIG, NSEC and NSEC3: SOA and NS at the apex, delegations (NS, DS) and data. */
  records: readonly DnsRecord[];
  /** The KSKs sign the DNSKEY set, the ZSKs everything else. A key used for both may be in both lists. */
  ksks: readonly SigningKey[];
  zsks: readonly SigningKey[];
  window: SignatureWindow;
  denial?: 'nsec' | { nsec3: { iterations: number; salt: string; optOut: boolean } };
}

/**
 * Signs a zone: its DNSKEY set (with the KSKs), every authoritative RRset (with the ZSKs; NS at a
 * delegation and glue are not signed, RFC 4035 §2.2), and a denial chain.
 */
export async function signZone(spec: ZoneSpec, crypto: CryptoProvider): Promise<DnsRecord[]> {
  const zone = spec.zone;
  const keys = [...new Map([...spec.ksks, ...spec.zsks].map((k) => [k.keyTag, k])).values()];
  const records = [...spec.records.map(withRdata), ...keys.map((k) => k.record)];
  const cuts = new Set(records.filter((r) => r.type === 'NS' && r.name !== zone).map((r) => r.name));
  const belowCut = (name: string) => [...cuts].some((cut) => name !== cut && name.endsWith(`.${cut}`));
  const sets = new Map<string, DnsRecord[]>();
  for (const r of records) {
    if (belowCut(r.name)) continue;
    const k = `${r.name}\u0000${r.type}`;
    sets.set(k, [...(sets.get(k) ?? []), r]);
  }
  const out: DnsRecord[] = [...records];
  const signSet = async (set: DnsRecord[]) => {
    const first = set[0] as DnsRecord;
    const signers = first.type === 'DNSKEY' ? spec.ksks : spec.zsks;
    for (const key of signers) out.push(await signRrset(set, key, spec.window));
  };
  const owners = new Map<string, Set<string>>();
  for (const set of sets.values()) {
    const first = set[0] as DnsRecord;
    owners.set(first.name, (owners.get(first.name) ?? new Set()).add(first.type));
    if (cuts.has(first.name) && first.type !== 'DS') continue;
    await signSet(set);
  }
  const denial = spec.denial ?? 'nsec';
  const ordered = [...owners.keys()].sort(compareCanonicalNames);
  if (denial === 'nsec') {
    for (const [i, owner] of ordered.entries()) {
      const types = [...(owners.get(owner) ?? [])];
      // the NSEC is signed, so its owner always has an RRSIG (RFC 4035 §2.3)
      const nsec = withRdata<DnsNsecRecord>({
        name: owner,
        ttl: 3600,
        type: 'NSEC',
        nextDomain: ordered[(i + 1) % ordered.length] ?? zone,
        types: [...types, 'NSEC', 'RRSIG'],
      });
      out.push(nsec);
      await signSet([nsec]);
    }
    return out;
  }
  const { iterations, salt, optOut } = denial.nsec3;
  // RFC 5155 §7.1: every name, empty non-terminals included; opt-out leaves out insecure delegations
  const names = new Set<string>();
  for (const owner of ordered) {
    const insecureCut = cuts.has(owner) && !(owners.get(owner)?.has('DS') ?? false);
    if (optOut && insecureCut) continue;
    for (let n = owner; n !== zone; n = n.slice(n.indexOf('.') + 1)) {
      names.add(n);
      if (!n.includes('.')) break;
    }
    names.add(zone);
  }
  const hashed = await Promise.all(
    [...names].map(async (name) => ({ name, hash: await nsec3Hash(name, salt, iterations, crypto) })),
  );
  hashed.sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0));
  for (const [i, { name, hash }] of hashed.entries()) {
    const types = [...(owners.get(name) ?? [])];
    const signedHere = types.length > 0 && (!cuts.has(name) || types.includes('DS'));
    const nsec3 = withRdata<DnsNsec3Record>({
      name: zone === '' ? hash : `${hash}.${zone}`,
      ttl: 3600,
      type: 'NSEC3',
      hashAlgorithm: 1,
      flags: optOut ? 1 : 0,
      iterations,
      salt,
      nextHashedOwner: (hashed[(i + 1) % hashed.length] as { hash: string }).hash,
      types: [...types, ...(signedHere ? ['RRSIG'] : [])],
    });
    out.push(nsec3);
    await signSet([nsec3]);
  }
  return out;
}

/** Records as fixture-resolver zones: each owner's records under `other`, RDATA included. */
export function fixtureZonesOf(records: readonly DnsRecord[]): FixtureZones {
  const zones: Record<string, { other: DnsRecord[] }> = {};
  for (const r of records) (zones[r.name === '' ? '.' : r.name] ??= { other: [] }).other.push(r);
  return zones;
}
