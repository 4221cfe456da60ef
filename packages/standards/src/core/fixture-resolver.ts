/**
 * A Resolver that answers from plain zone data instead of the network: for unit tests,
 * conformance suites and benchmarks, and — as an overlay over a real Resolver — for checking a
 * pasted record "as if it were published" at a domain (the SPF and DMARC validators do this).
 *
 * The zone data has the shape of the lab DNS server's fixtures (`packages/testlab/src/dns-server.ts`)
 * where the two overlap, so one fixture can feed both: `{ 'example.test': { TXT: ['v=spf1 -all'],
 * A: '192.0.2.1', MX: { preference: 10, exchange: 'mx.example.test' } } }`.
 */
import { splitTxtStrings } from './txt-strings.ts';
import type {
  DnsCnameRecord,
  DnsNsecRecord,
  DnsQueryOptions,
  DnsRrsigRecord,
  DnsRecord,
  DnsRecordOf,
  DnsRecordType,
  DnsResult,
  DnsSoaRecord,
  Resolver,
} from './resolver.ts';

type OneOrMany<T> = T | readonly T[];
/** A switch for every query of the name (`true`) or only for these types (`['AAAA']`). */
export type FixtureTypeSwitch = boolean | readonly string[];

/** A record of any type written as its decoded shape without owner and TTL. */
export type FixtureRecordData = DnsRecord extends infer R
  ? R extends DnsRecord
    ? Omit<R, 'name' | 'ttl'>
    : never
  : never;

/**
 * What one owner name holds. Record types are upper case, switches lower case. A single value may
 * stand for a one-record set (`A: '192.0.2.1'`); names in RDATA are absolute (`'mx.example.test'`).
 * An empty list (`TXT: []`) says "no record of this type here", which matters in an overlay.
 */
export interface FixtureName {
  A?: OneOrMany<string>;
  AAAA?: OneOrMany<string>;
  CNAME?: string;
  NS?: OneOrMany<string>;
  PTR?: OneOrMany<string>;
  MX?: OneOrMany<{ preference: number; exchange: string }>;
  /**
   * One record per array entry. A string longer than 255 octets is split into 255-octet
   * character-strings as a zone file would need; an array of strings is one record with exactly
   * those strings.
   */
  TXT?: string | readonly (string | readonly string[])[];
  SOA?: Partial<Omit<DnsSoaRecord, 'type' | 'name' | 'ttl'>>;
  SRV?: OneOrMany<{ priority?: number; weight?: number; port: number; target: string }>;
  CAA?: OneOrMany<{ flags?: number; critical?: boolean; tag: string; value: string }>;
  /**
   * Any other type, in the Resolver's decoded record shapes (`{ type: 'DS', keyTag: … }`). Records
   * of the types above may be listed here too (signed zones list every record here with its
   * `rdata`); they join those of the named field. RRSIGs listed here are served with the set they
   * cover when a query asks for DNSSEC records.
   */
  other?: readonly FixtureRecordData[];
  /** TTL of every record of the name (default 300). */
  ttl?: number;
  /** Answer with a timeout (as a resolver does when no server answers). */
  timeout?: FixtureTypeSwitch;
  /** Answer SERVFAIL. */
  servfail?: FixtureTypeSwitch;
  /** Wait this long before answering (for benchmarks; tests must not assert on time). */
  latencyMs?: number;
}

/** Owner names (trailing dot optional, any case) to what they hold. `*.example.test` is a wildcard. */
export type FixtureZones = Record<string, FixtureName>;

export interface FixtureQuery {
  name: string;
  type: DnsRecordType;
  /** Whether the fixtures answered (`false`: an overlay passed it to its fallback). */
  answered: boolean;
}

export interface FixtureResolverOptions {
  /**
   * Whether the ancestors of listed names exist as empty non-terminals (NODATA, as in real DNS:
   * `example.test` exists when `mail.example.test` does). Default true. Test suites that say "a
   * name not listed does not exist" (the RFC 7208 suite) turn it off to get NXDOMAIN instead.
   */
  emptyNonTerminals?: boolean;
  /**
   * Overlay mode: a query whose name and type the fixtures do not speak for goes to this
   * Resolver. The fixtures speak for a (name, type) when the name lists that type (an empty list
   * included), has a CNAME, or has a `timeout`/`servfail` switch covering the type. NXDOMAIN is
   * never made up in overlay mode: names the fixtures do not list are the fallback's.
   */
  fallback?: Resolver;
}

export interface FixtureResolver extends Resolver {
  /** Every query received, in order (overlay queries passed on included, `answered: false`). */
  readonly queries: FixtureQuery[];
  clearQueries(): void;
}

const DEFAULT_TTL = 300;
const MAX_CNAME_HOPS = 16;
/** TTL of negative answers, as an SOA minimum would give. */
const NEGATIVE_TTL = 60;

const encoder = new TextEncoder();

const explicitTypes = ['A', 'AAAA', 'CNAME', 'NS', 'PTR', 'MX', 'TXT', 'SOA', 'SRV', 'CAA'] as const;
type ExplicitType = (typeof explicitTypes)[number];

function many<T>(value: OneOrMany<T> | undefined): readonly T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? (value as readonly T[]) : [value as T];
}

/**
 * Lower case, no trailing dot; undefined for a name that cannot be put in a query (an empty label,
 * a label over 63 octets, a name over 255 octets in wire form). Labels may hold any other octets,
 * spaces included, as the DNS allows (RFC 2181 §11); the SPF suite serves such a name.
 */
export function normalizeFixtureName(input: string): string | undefined {
  const name = input.replace(/\.$/, '').toLowerCase();
  if (name === '') return '';
  const ascii = /^\p{ASCII}*$/u.test(name);
  const labels = name.split('.').map((label) => (ascii ? label.length : encoder.encode(label).length));
  if (labels.some((octets) => octets === 0 || octets > 63)) return undefined;
  // RFC 1035 §2.3.4: length octets, label octets and the root octet
  if (labels.reduce((sum, octets) => sum + octets + 1, 1) > 255) return undefined;
  return name;
}

function parentOf(name: string): string | undefined {
  if (name === '') return undefined;
  const dot = name.indexOf('.');
  return dot === -1 ? '' : name.slice(dot + 1);
}

function switchOn(value: FixtureTypeSwitch | undefined, type: string): boolean {
  if (value === undefined || value === false) return false;
  return value === true || value.some((t) => t.toUpperCase() === type);
}

function recordsOf(fixture: FixtureName, type: DnsRecordType, owner: string, apexGuess: string): DnsRecord[] {
  const listed = (fixture.other ?? [])
    .filter((rr) => rr.type === type)
    .map((rr) => ({ ...rr, name: owner, ttl: fixture.ttl ?? DEFAULT_TTL }) as DnsRecord);
  if (!(explicitTypes as readonly string[]).includes(type)) return listed;
  return [...namedRecordsOf(fixture, type, owner, apexGuess), ...listed];
}

function namedRecordsOf(
  fixture: FixtureName,
  type: DnsRecordType,
  owner: string,
  apexGuess: string,
): DnsRecord[] {
  const ttl = fixture.ttl ?? DEFAULT_TTL;
  const base = { name: owner, ttl };
  switch (type) {
    case 'A':
    case 'AAAA':
      return many(fixture[type]).map((address) => ({ ...base, type, address }));
    case 'NS':
    case 'PTR':
      return many(fixture[type]).map((target) => ({ ...base, type, target: stripDot(target) }));
    case 'CNAME':
      return fixture.CNAME === undefined ? [] : [{ ...base, type, target: stripDot(fixture.CNAME) }];
    case 'MX':
      return many(fixture.MX).map((mx) => ({
        ...base,
        type,
        preference: mx.preference,
        exchange: mx.exchange === '.' ? '.' : stripDot(mx.exchange),
      }));
    case 'TXT': {
      const txt = fixture.TXT;
      if (txt === undefined) return [];
      const entries = typeof txt === 'string' ? [txt] : txt;
      return entries.map((entry) => {
        const strings = typeof entry === 'string' ? splitTxtStrings(entry) : [...entry];
        return { ...base, type, text: strings.join(''), strings };
      });
    }
    case 'SOA':
      if (fixture.SOA === undefined) return [];
      return [
        {
          ...base,
          type,
          mname: fixture.SOA.mname ?? `ns.${apexGuess}`,
          rname: fixture.SOA.rname ?? `hostmaster.${apexGuess}`,
          serial: fixture.SOA.serial ?? 1,
          refresh: fixture.SOA.refresh ?? 3600,
          retry: fixture.SOA.retry ?? 600,
          expire: fixture.SOA.expire ?? 86400,
          minimum: fixture.SOA.minimum ?? 60,
        },
      ];
    case 'SRV':
      return many(fixture.SRV).map((srv) => ({
        ...base,
        type,
        priority: srv.priority ?? 0,
        weight: srv.weight ?? 0,
        port: srv.port,
        target: stripDot(srv.target),
      }));
    case 'CAA':
      return many(fixture.CAA).map((caa) => {
        const critical = caa.critical ?? ((caa.flags ?? 0) & 128) !== 0;
        return {
          ...base,
          type,
          flags: (caa.flags ?? 0) | (critical ? 128 : 0),
          critical,
          tag: caa.tag,
          value: caa.value,
        };
      });
    default:
      return [];
  }
}

function stripDot(name: string): string {
  return name.replace(/\.$/, '').toLowerCase();
}

function lists(fixture: FixtureName, type: DnsRecordType): boolean {
  if ((explicitTypes as readonly string[]).includes(type) && fixture[type as ExplicitType] !== undefined)
    return true;
  return (fixture.other ?? []).some((rr) => rr.type === type);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Makes a Resolver over zone data. Names not listed are NXDOMAIN (or NODATA for the ancestors of
 * listed names, see `emptyNonTerminals`), listed names without the type asked for are NODATA,
 * CNAMEs are followed, and `timeout`/`servfail` switches give those failures. With `fallback`, it
 * is an overlay that answers only what the fixtures list and passes everything else on.
 */
export function createFixtureResolver(
  zones: FixtureZones,
  options: FixtureResolverOptions = {},
): FixtureResolver {
  const fixtures = new Map<string, FixtureName>();
  for (const [key, fixture] of Object.entries(zones)) {
    const owner = normalizeFixtureName(key);
    if (owner === undefined) throw new Error(`fixture resolver: bad owner name ${JSON.stringify(key)}`);
    if (fixtures.has(owner)) throw new Error(`fixture resolver: ${owner} is listed twice`);
    fixtures.set(owner, fixture);
  }
  const existing = new Set<string>(fixtures.keys());
  if (options.emptyNonTerminals ?? true) {
    for (const name of fixtures.keys()) {
      for (let n = parentOf(name); n !== undefined && n !== ''; n = parentOf(n)) existing.add(n);
    }
  }
  // a wildcard's parent is its closest encloser (RFC 4592 §3.3.1), so it exists
  for (const name of fixtures.keys()) if (name.startsWith('*.')) existing.add(name.slice(2));
  const fallback = options.fallback;
  const queries: FixtureQuery[] = [];

  /** The fixture a name resolves to: its own, a wildcard's (RFC 4592 §3.3.1), or none. */
  function lookup(name: string): FixtureName | undefined {
    const own = fixtures.get(name);
    if (own !== undefined) return own;
    if (existing.has(name)) return {};
    let encloser = parentOf(name);
    while (encloser !== undefined && encloser !== '' && !existing.has(encloser))
      encloser = parentOf(encloser);
    if (encloser === undefined) return undefined;
    return fixtures.get(encloser === '' ? '*' : `*.${encloser}`);
  }

  // fixtures do not change: each answer is built once
  const built = new Map<string, DnsRecord[]>();
  function cachedRecords(fixture: FixtureName, type: DnsRecordType, owner: string): DnsRecord[] {
    const key = `${owner} ${type}`;
    let records = built.get(key);
    if (records === undefined) {
      records = recordsOf(fixture, type, owner, owner);
      built.set(key, records);
    }
    return [...records];
  }

  function speaksFor(name: string, type: DnsRecordType): boolean {
    const fixture = lookup(name);
    if (fixture === undefined) return false;
    return (
      lists(fixture, type) ||
      lists(fixture, 'CNAME') ||
      switchOn(fixture.timeout, type) ||
      switchOn(fixture.servfail, type)
    );
  }

  /** The zone a name's data belongs to: the closest enclosing name listing an SOA. */
  function apexOf(name: string | undefined): string | undefined {
    for (let n = name; n !== undefined; n = parentOf(n)) {
      const fixture = fixtures.get(n);
      if (fixture !== undefined && lists(fixture, 'SOA')) return n;
    }
    return undefined;
  }

  function signaturesAt(owner: string, covered: string, signer?: string): DnsRrsigRecord[] {
    const fixture = lookup(owner);
    if (fixture === undefined) return [];
    return (recordsOf(fixture, 'RRSIG', owner, owner) as DnsRrsigRecord[]).filter(
      (sig) => sig.typeCovered === covered && (signer === undefined || sig.signerName === signer),
    );
  }

  /**
   * The zone's NSEC and NSEC3 records with their RRSIGs, as the authority section of a denial. At
   * a delegation the owner holds both sides' NSEC: the parent's has no SOA bit (RFC 4035 §2.3).
   * A real server sends only the records that prove the case; a validator must pick them itself.
   */
  function denialRecords(zone: string): DnsRecord[] {
    const out: DnsRecord[] = [];
    for (const [owner, fixture] of fixtures) {
      if (zone !== '' && owner !== zone && !owner.endsWith(`.${zone}`)) continue;
      const nsecs = (recordsOf(fixture, 'NSEC', owner, owner) as DnsNsecRecord[]).filter(
        (nsec) =>
          apexOf(nsec.types.includes('SOA') || !lists(fixture, 'SOA') ? owner : parentOf(owner)) === zone,
      );
      const nsec3s = parentOf(owner) === zone ? recordsOf(fixture, 'NSEC3', owner, owner) : [];
      if (nsecs.length > 0) out.push(...nsecs, ...signaturesAt(owner, 'NSEC', zone));
      if (nsec3s.length > 0) out.push(...nsec3s, ...signaturesAt(owner, 'NSEC3', zone));
    }
    return out;
  }

  /** What a DO-bit answer adds (RFC 4035 §3.1): RRSIGs, the SOA and the proofs of denial. */
  function withDnssec<T extends DnsRecordType>(
    result: DnsResult<T>,
    owner: string,
    expanded: boolean,
  ): DnsResult<T> {
    if (result.status !== 'ok' && result.status !== 'nodata' && result.status !== 'nxdomain') return result;
    const answer: DnsRecord[] = result.cnames.flatMap((cname) => [
      cname,
      ...signaturesAt(cname.name, 'CNAME'),
    ]);
    const zone = apexOf(result.type === 'DS' ? parentOf(owner) : owner);
    if (result.status === 'ok') {
      const signatures = signaturesAt(owner, result.type);
      answer.push(...result.records, ...signatures);
      const authority = expanded && zone !== undefined ? denialRecords(zone) : [];
      return { ...result, signatures, sections: { answer, authority } };
    }
    if (zone === undefined) return { ...result, sections: { answer, authority: [] } };
    const soa = recordsOf(fixtures.get(zone) ?? {}, 'SOA', zone, zone) as DnsSoaRecord[];
    const authority = [...soa, ...signaturesAt(zone, 'SOA', zone), ...denialRecords(zone)];
    return { ...result, ...(soa[0] ? { soa: soa[0] } : {}), sections: { answer, authority } };
  }

  async function resolve<T extends DnsRecordType>(
    asked: string,
    type: T,
    queryOptions: DnsQueryOptions | undefined,
  ): Promise<DnsResult<T>> {
    const result = await resolveUnsigned(asked, type, queryOptions);
    if (queryOptions?.dnssec !== true || result.status === 'error') return result;
    const owner = 'canonicalName' in result ? result.canonicalName : result.name;
    const expanded = !fixtures.has(owner) && !existing.has(owner);
    return withDnssec(result, owner, expanded);
  }

  async function resolveUnsigned<T extends DnsRecordType>(
    asked: string,
    type: T,
    queryOptions: DnsQueryOptions | undefined,
  ): Promise<DnsResult<T>> {
    const start = normalizeFixtureName(asked);
    if (start === undefined) {
      queries.push({ name: asked, type, answered: true });
      return {
        name: asked,
        type,
        authenticated: false,
        status: 'error',
        error: 'invalid-name',
        message: `${JSON.stringify(asked)} is not a domain name that can be looked up`,
      };
    }
    const chain: DnsCnameRecord[] = [];
    const seen = new Set<string>();
    let current = start;
    for (let hop = 0; ; hop++) {
      if (fallback !== undefined && !speaksFor(current, type)) {
        queries.push({ name: current, type, answered: false });
        const passed = await fallback.query(current, type, queryOptions);
        if (chain.length === 0) return passed;
        const joined = { ...passed, name: start };
        if ('cnames' in joined) joined.cnames = [...chain, ...joined.cnames];
        return joined;
      }
      queries.push({ name: current, type, answered: true });
      const fixture = lookup(current);
      if (fixture?.latencyMs !== undefined && fixture.latencyMs > 0) await sleep(fixture.latencyMs);
      const base = { name: start, type, authenticated: false } as const;
      if (fixture !== undefined && switchOn(fixture.timeout, type)) {
        return {
          ...base,
          status: 'timeout',
          reason: 'no-answer',
          message: `no answer for ${current} ${type}`,
        };
      }
      if (fixture !== undefined && switchOn(fixture.servfail, type)) {
        return { ...base, status: 'servfail', rcode: 'SERVFAIL', message: `${current} ${type}: SERVFAIL` };
      }
      if (fixture === undefined) {
        return {
          ...base,
          status: 'nxdomain',
          rcode: 'NXDOMAIN',
          canonicalName: current,
          cnames: chain,
          ttl: NEGATIVE_TTL,
        };
      }
      const records = cachedRecords(fixture, type, current) as DnsRecordOf<T>[];
      if (records.length > 0) {
        const ttl = Math.min(...records.map((r) => r.ttl), ...chain.map((r) => r.ttl));
        return {
          ...base,
          status: 'ok',
          rcode: 'NOERROR',
          records,
          ttl,
          canonicalName: current,
          cnames: chain,
          signatures: [],
        };
      }
      if (!lists(fixture, 'CNAME') || type === 'CNAME') {
        return {
          ...base,
          status: 'nodata',
          rcode: 'NOERROR',
          canonicalName: current,
          cnames: chain,
          ttl: NEGATIVE_TTL,
        };
      }
      const cname = recordsOf(fixture, 'CNAME', current, current)[0] as DnsCnameRecord;
      chain.push(cname);
      seen.add(current);
      current = cname.target;
      if (seen.has(current) || hop + 1 >= MAX_CNAME_HOPS) {
        return {
          ...base,
          status: 'servfail',
          rcode: 'SERVFAIL',
          message: seen.has(current)
            ? `CNAME loop at ${current}`
            : `more than ${MAX_CNAME_HOPS} CNAMEs to follow`,
        };
      }
    }
  }

  return {
    queries,
    clearQueries() {
      queries.length = 0;
    },
    query(name, type, queryOptions) {
      return resolve(name, type, queryOptions);
    },
  };
}

/**
 * An overlay: the fixtures answer the names and types they list, `fallback` everything else. Used
 * to evaluate a pasted record as if published: `overlayResolver({ 'example.com': { TXT: [pasted] } }, dns)`.
 */
export function overlayResolver(zones: FixtureZones, fallback: Resolver): FixtureResolver {
  return createFixtureResolver(zones, { fallback });
}
