// Signed zones as a validating resolver's upstream sees them: the lab answers every question about
// a name from the deepest zone it serves that holds the name (DS from the parent, RFC 4035
// §3.1.4.1), with RRSIGs and the NSEC or NSEC3 proofs of RFC 4035 §3.1.3 and RFC 5155 §7.2 when
// the query has the DO bit. Referrals are not needed: every zone is answered from directly.
import { createHash } from 'node:crypto';
import { isWithin, labelsOf, parentOf, presentLabel, splitName, wireName } from './names.ts';
import { base32hexEncode, parseZoneText, typeCodeOf, type ZoneRecord } from './zone-text.ts';

const TYPE = {
  NS: 2,
  CNAME: 5,
  SOA: 6,
  DS: 43,
  RRSIG: 46,
  NSEC: 47,
  NSEC3: 50,
  NSEC3PARAM: 51,
  ANY: 255,
} as const;

export interface SignedRecord {
  owner: string;
  typeCode: number;
  ttl: number;
  rdata: Buffer;
}

export interface SignedAnswer {
  rcode: 0 | 2 | 3;
  /** False for a referral to a zone the lab does not serve. */
  authoritative: boolean;
  answers: SignedRecord[];
  authorities: SignedRecord[];
}

interface RRset {
  ttl: number;
  rdatas: Buffer[];
}

/** RFC 4034 §6.1: labels compared from the right, octets with ASCII letters lower-cased. */
export function compareCanonical(a: string, b: string): number {
  const left = (labelsOf(a) ?? []).reverse();
  const right = (labelsOf(b) ?? []).reverse();
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const order = Buffer.compare(lowerOctets(left[i]!), lowerOctets(right[i]!));
    if (order !== 0) return order;
  }
  return left.length - right.length;
}

function lowerOctets(label: Uint8Array): Buffer {
  return Buffer.from(label.map((octet) => (octet >= 0x41 && octet <= 0x5a ? octet + 0x20 : octet)));
}

/** RFC 5155 §5: the iterated SHA-1 of the canonical owner name with the salt, base32hex. */
export function nsec3HashOf(name: string, salt: Buffer, iterations: number): string {
  const wire = wireName(name);
  let digest = createHash('sha1').update(lowerOctets(wire)).update(salt).digest();
  for (let i = 0; i < iterations; i++) digest = createHash('sha1').update(digest).update(salt).digest();
  return base32hexEncode(digest);
}

function depth(name: string): number {
  return splitName(name).length;
}

/** The ancestor of `name` one label below `encloser` (RFC 5155 §1.3, "next closer name"). */
function nextCloser(name: string, encloser: string): string {
  return splitName(name)
    .slice(-(depth(encloser) + 1))
    .join('.');
}

function wildcardAt(encloser: string): string {
  return encloser === '' ? '*' : `*.${encloser}`;
}

class SignedZone {
  readonly apex: string;
  readonly nodes = new Map<string, Map<number, RRset>>();
  /** RRSIGs by owner and the type they cover. */
  readonly signatures = new Map<string, Map<number, RRset>>();
  /** Delegations inside the zone: owners other than the apex with NS. */
  readonly cuts = new Set<string>();
  /** Every name that exists in the zone, empty non-terminals included. */
  readonly existing = new Set<string>();
  readonly nsecOwners: string[] = [];
  readonly nsec3:
    { salt: Buffer; iterations: number; hashes: string[]; owners: Map<string, string> } | undefined;

  constructor(records: readonly ZoneRecord[]) {
    const soa = records.filter((r) => r.typeCode === TYPE.SOA);
    if (soa.length !== 1) throw new Error(`a signed zone needs one SOA, this one has ${soa.length}`);
    this.apex = soa[0]!.owner;
    let nsec3Param: Buffer | undefined;
    const nsec3Owners: string[] = [];
    for (const record of records) {
      if (!isWithin(record.owner, this.apex)) {
        throw new Error(`${record.owner || '.'} lies outside the zone ${this.apex || '.'}`);
      }
      const isSignature = record.typeCode === TYPE.RRSIG;
      const key = isSignature ? record.rdata.readUInt16BE(0) : record.typeCode;
      const byOwner = isSignature ? this.signatures : this.nodes;
      const sets = byOwner.get(record.owner) ?? new Map<number, RRset>();
      byOwner.set(record.owner, sets);
      const set = sets.get(key) ?? { ttl: record.ttl, rdatas: [] };
      if (!set.rdatas.some((rdata) => rdata.equals(record.rdata))) set.rdatas.push(record.rdata);
      sets.set(key, set);
      if (record.typeCode === TYPE.NS && record.owner !== this.apex) this.cuts.add(record.owner);
      if (record.typeCode === TYPE.NSEC) this.nsecOwners.push(record.owner);
      if (record.typeCode === TYPE.NSEC3) nsec3Owners.push(record.owner);
      if (record.typeCode === TYPE.NSEC3PARAM && record.owner === this.apex) nsec3Param = record.rdata;
      // NSEC3 owners are hashes, not names of the zone's tree
      if (record.typeCode === TYPE.NSEC3 || (isSignature && key === TYPE.NSEC3)) continue;
      for (let n: string | undefined = record.owner; n !== undefined; n = parentOf(n)) {
        this.existing.add(n);
        if (n === this.apex) break;
      }
    }
    this.nsecOwners.sort(compareCanonical);
    if (nsec3Param !== undefined) {
      const saltLength = nsec3Param[4]!;
      const owners = new Map(nsec3Owners.map((owner) => [splitName(owner)[0]!, owner]));
      this.nsec3 = {
        iterations: nsec3Param.readUInt16BE(2),
        salt: nsec3Param.subarray(5, 5 + saltLength),
        hashes: [...owners.keys()].sort(),
        owners,
      };
    }
  }

  set(owner: string, typeCode: number): SignedRecord[] {
    const set = this.nodes.get(owner)?.get(typeCode);
    return set ? set.rdatas.map((rdata) => ({ owner, typeCode, ttl: set.ttl, rdata })) : [];
  }

  /** The RRSIGs over one set, under the owner they are served with (a wildcard's expansion). */
  signaturesOf(owner: string, typeCode: number, servedAs = owner): SignedRecord[] {
    const set = this.signatures.get(owner)?.get(typeCode);
    return set
      ? set.rdatas.map((rdata) => ({ owner: servedAs, typeCode: TYPE.RRSIG, ttl: set.ttl, rdata }))
      : [];
  }

  /** The deepest delegation at or above `name` inside this zone. */
  cutAbove(name: string): string | undefined {
    for (let n: string | undefined = name; n !== undefined && n !== this.apex; n = parentOf(n)) {
      if (this.cuts.has(n)) return n;
    }
    return undefined;
  }

  /** The NSEC owned by `name`, or else the one whose span covers it (RFC 4034 §4.1.1). */
  nsecFor(name: string): string | undefined {
    let found: string | undefined;
    for (const owner of this.nsecOwners) {
      const order = compareCanonical(owner, name);
      if (order === 0) return owner;
      if (order < 0) found = owner;
    }
    return found ?? this.nsecOwners.at(-1);
  }

  /** The NSEC3 owner whose hash equals `name`'s, or with `cover` the one whose span covers it. */
  nsec3For(name: string, mode: 'match' | 'cover'): string | undefined {
    if (!this.nsec3) return undefined;
    const hash = nsec3HashOf(name, this.nsec3.salt, this.nsec3.iterations);
    if (mode === 'match') return this.nsec3.owners.get(hash);
    let found: string | undefined;
    for (const candidate of this.nsec3.hashes) if (candidate < hash) found = candidate;
    return this.nsec3.owners.get(found ?? this.nsec3.hashes.at(-1) ?? '');
  }
}

/** RFC 4035 §3.1.3 / RFC 5155 §7.2: the NSEC or NSEC3 owners that prove an answer, before their records. */
function proofOwners(
  zone: SignedZone,
  name: string,
  kind: 'nodata' | 'nxdomain' | 'wildcard' | 'wildcard-nodata',
  encloser: string,
): string[] {
  const owners: (string | undefined)[] = [];
  if (zone.nsec3 === undefined) {
    // the NSEC at the name (NODATA) or covering it; for NXDOMAIN also the one covering the wildcard
    owners.push(zone.nsecFor(name));
    if (kind === 'nxdomain' || kind === 'wildcard-nodata') owners.push(zone.nsecFor(wildcardAt(encloser)));
  } else if (kind === 'nodata') {
    const match = zone.nsec3For(name, 'match');
    if (match !== undefined) owners.push(match);
    else {
      // RFC 5155 §7.2.4: no NSEC3 of its own (an opt-out span): the closest provable encloser
      let candidate = parentOf(name);
      while (candidate !== undefined && zone.nsec3For(candidate, 'match') === undefined)
        candidate = parentOf(candidate);
      if (candidate !== undefined) {
        owners.push(zone.nsec3For(candidate, 'match'), zone.nsec3For(nextCloser(name, candidate), 'cover'));
      }
    }
  } else {
    const closer = nextCloser(name, encloser);
    if (kind !== 'wildcard') owners.push(zone.nsec3For(encloser, 'match'));
    owners.push(zone.nsec3For(closer, 'cover'));
    if (kind === 'nxdomain') owners.push(zone.nsec3For(wildcardAt(encloser), 'cover'));
    if (kind === 'wildcard-nodata') owners.push(zone.nsec3For(wildcardAt(encloser), 'match'));
  }
  return [...new Set(owners.filter((owner): owner is string => owner !== undefined))];
}

function proofRecords(zone: SignedZone, owners: readonly string[]): SignedRecord[] {
  const type = zone.nsec3 === undefined ? TYPE.NSEC : TYPE.NSEC3;
  return owners.flatMap((owner) => [...zone.set(owner, type), ...zone.signaturesOf(owner, type)]);
}

const MAX_CNAME_HOPS = 16;

/** The zones of a lab hierarchy, answering as a resolver that knows them all would. */
export class SignedZones {
  private readonly zones = new Map<string, SignedZone>();

  constructor(texts: readonly string[]) {
    for (const text of texts) {
      const zone = new SignedZone(parseZoneText(text));
      if (this.zones.has(zone.apex)) throw new Error(`lab DNS: the zone ${zone.apex || '.'} is given twice`);
      this.zones.set(zone.apex, zone);
    }
  }

  get apexes(): string[] {
    return [...this.zones.keys()];
  }

  /** The apex of the deepest zone holding `name`, or undefined when the lab serves none. */
  apexOf(name: string): string | undefined {
    for (let n: string | undefined = name; n !== undefined; n = parentOf(n)) {
      if (this.zones.has(n)) return n;
    }
    return undefined;
  }

  /** The zone that answers: the deepest holding the name, except that the parent answers DS. */
  private zoneFor(name: string, typeCode: number): SignedZone | undefined {
    const apex = this.apexOf(name);
    if (apex === undefined) return undefined;
    if (typeCode === TYPE.DS && apex === name && name !== '') {
      const parent = this.apexOf(parentOf(name)!);
      if (parent !== undefined) return this.zones.get(parent);
    }
    return this.zones.get(apex);
  }

  /**
   * The answer to one question, or undefined when no zone holds the name. `servedElsewhere` says
   * which names another part of the lab answers: a CNAME leading there ends the answer.
   */
  answer(
    qname: string,
    qtype: string,
    dnssecOk: boolean,
    servedElsewhere: (name: string) => boolean = () => false,
  ): SignedAnswer | undefined {
    // a type the lab cannot name has no records anywhere: NODATA
    const typeCode = typeCodeOf(qtype) ?? (qtype === 'ANY' ? TYPE.ANY : -1);
    if (this.apexOf(qname) === undefined) return undefined;
    const answers: SignedRecord[] = [];
    const authorities: SignedRecord[] = [];
    const signed = (records: SignedRecord[]) =>
      dnssecOk ? records : records.filter((r) => r.typeCode !== TYPE.RRSIG || typeCode === TYPE.RRSIG);
    const negative = (zone: SignedZone, rcode: 0 | 3, proof: string[]): SignedAnswer => {
      const soa = [...zone.set(zone.apex, TYPE.SOA), ...zone.signaturesOf(zone.apex, TYPE.SOA)];
      const denial = dnssecOk ? proofRecords(zone, proof) : [];
      return {
        rcode,
        authoritative: true,
        answers: signed(answers),
        authorities: signed([...soa, ...denial]),
      };
    };
    const seen = new Set<string>();
    let name = qname;
    for (let hop = 0; hop < MAX_CNAME_HOPS; hop++) {
      seen.add(name);
      const zone = hop > 0 && servedElsewhere(name) ? undefined : this.zoneFor(name, typeCode);
      // a CNAME leading out of the lab ends the answer there, as an authoritative server's would
      if (zone === undefined)
        return { rcode: 0, authoritative: true, answers: signed(answers), authorities: [] };
      const cut = zone.cutAbove(name);
      if (cut !== undefined && !(typeCode === TYPE.DS && cut === name)) {
        // RFC 4035 §3.1.4: a referral to a zone the lab does not serve, with its DS or the proof of none
        const ds = zone.set(cut, TYPE.DS);
        const proof =
          ds.length > 0
            ? [...ds, ...zone.signaturesOf(cut, TYPE.DS)]
            : dnssecOk
              ? proofRecords(zone, proofOwners(zone, cut, 'nodata', cut))
              : [];
        return {
          rcode: 0,
          authoritative: false,
          answers: signed(answers),
          authorities: signed([...zone.set(cut, TYPE.NS), ...proof]),
        };
      }
      let owner = name;
      let node = zone.nodes.get(name);
      let encloser = name;
      const wildcardProof: string[] = [];
      if (node === undefined && !zone.existing.has(name)) {
        encloser = parentOf(name)!;
        while (!zone.existing.has(encloser) && encloser !== zone.apex) encloser = parentOf(encloser)!;
        const wildcard = wildcardAt(encloser);
        node = zone.nodes.get(wildcard);
        if (node === undefined) return negative(zone, 3, proofOwners(zone, name, 'nxdomain', encloser));
        owner = wildcard;
        wildcardProof.push(...proofOwners(zone, name, 'wildcard', encloser));
      }
      if (node === undefined) return negative(zone, 0, proofOwners(zone, name, 'nodata', name));
      const withProof = () => {
        if (dnssecOk) authorities.push(...proofRecords(zone, wildcardProof));
      };
      const serve = (type: number) =>
        [...zone.set(owner, type), ...zone.signaturesOf(owner, type)].map((r) => ({ ...r, owner: name }));
      const cname = zone.set(owner, TYPE.CNAME)[0];
      if (cname !== undefined && typeCode !== TYPE.CNAME && typeCode !== TYPE.ANY) {
        answers.push(...serve(TYPE.CNAME));
        withProof();
        const target = readWireName(cname.rdata);
        if (seen.has(target)) break;
        name = target;
        continue;
      }
      const types = typeCode === TYPE.ANY ? [...node.keys()] : [typeCode];
      const found =
        typeCode === TYPE.RRSIG ? allSignatures(zone, owner, name) : types.flatMap((type) => serve(type));
      if (found.length === 0) {
        const proof =
          owner === name
            ? proofOwners(zone, name, 'nodata', name)
            : proofOwners(zone, name, 'wildcard-nodata', encloser);
        return negative(zone, 0, proof);
      }
      answers.push(...found);
      withProof();
      return { rcode: 0, authoritative: true, answers: signed(answers), authorities: signed(authorities) };
    }
    return { rcode: 2, authoritative: true, answers: [], authorities: [] };
  }
}

function allSignatures(zone: SignedZone, owner: string, servedAs: string): SignedRecord[] {
  return [...(zone.signatures.get(owner)?.keys() ?? [])].flatMap((covered) =>
    zone.signaturesOf(owner, covered, servedAs),
  );
}

/** An uncompressed name at the start of RDATA, in the lab's normalized form. */
function readWireName(rdata: Buffer): string {
  const labels: string[] = [];
  for (let at = 0; at < rdata.length && rdata[at]! > 0; at += rdata[at]! + 1) {
    labels.push(presentLabel(rdata.subarray(at + 1, at + 1 + rdata[at]!)));
  }
  return labels.join('.');
}
