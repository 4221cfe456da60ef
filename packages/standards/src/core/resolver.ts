/**
 * The DNS contract every evaluator (SPF, DMARC, DKIM, MTA-STS, DANE …) is given. The standards
 * package never opens a socket: the server passes in a Resolver that does (`apps/server/src/net/dns.ts`),
 * tests may pass in any object with the same shape.
 *
 * Names in results are lower-case ASCII without the trailing dot (`_dmarc.example.com`); binary
 * fields are in their presentation encoding (hex for digests and certificate data, base64 for keys
 * and signatures, RFC 4034 §2.2 / RFC 6698 §2.2) so that results can be sent as JSON unchanged.
 */

/** The record types a Resolver decodes, with their IANA type codes (RFC 6895 §3.1 registry). */
export const dnsTypeCodes = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  PTR: 12,
  MX: 15,
  TXT: 16,
  AAAA: 28,
  SRV: 33,
  DNAME: 39,
  DS: 43,
  SSHFP: 44,
  RRSIG: 46,
  NSEC: 47,
  DNSKEY: 48,
  NSEC3: 50,
  TLSA: 52,
  SMIMEA: 53,
  CDS: 59,
  CDNSKEY: 60,
  OPENPGPKEY: 61,
  CAA: 257,
} as const;

export type DnsRecordType = keyof typeof dnsTypeCodes;

export const dnsRecordTypes = Object.keys(dnsTypeCodes) as DnsRecordType[];

export function isDnsRecordType(value: string): value is DnsRecordType {
  return Object.hasOwn(dnsTypeCodes, value);
}

interface RecordBase {
  /** Owner name. */
  name: string;
  ttl: number;
  /**
   * The RDATA as received, base64, with any compressed name in it written out in full. Present when
   * DNSSEC records were asked for (`dnssec: true`), so that a validator checks the octets the zone
   * signed (RFC 4034 §6.2) rather than a re-encoding of the decoded fields.
   */
  rdata?: string;
}

export interface DnsARecord extends RecordBase {
  type: 'A';
  address: string;
}

export interface DnsAaaaRecord extends RecordBase {
  type: 'AAAA';
  /** RFC 5952 text form. */
  address: string;
}

/** CNAME, DNAME, NS and PTR: RDATA is one domain name. */
export interface DnsNameRecord<T extends 'CNAME' | 'DNAME' | 'NS' | 'PTR'> extends RecordBase {
  type: T;
  target: string;
}

export type DnsCnameRecord = DnsNameRecord<'CNAME'>;
export type DnsDnameRecord = DnsNameRecord<'DNAME'>;
export type DnsNsRecord = DnsNameRecord<'NS'>;
export type DnsPtrRecord = DnsNameRecord<'PTR'>;

export interface DnsMxRecord extends RecordBase {
  type: 'MX';
  preference: number;
  /** `.` for a null MX (RFC 7505). */
  exchange: string;
}

export interface DnsTxtRecord extends RecordBase {
  type: 'TXT';
  /**
   * The character-strings joined without separator, as SPF (RFC 7208 §3.3), DKIM (RFC 6376 §3.6.2.2)
   * and DMARC read a record that was split over several strings.
   */
  text: string;
  /** Each character-string as sent (UTF-8 decoded; undecodable octets become U+FFFD). */
  strings: string[];
}

export interface DnsSoaRecord extends RecordBase {
  type: 'SOA';
  mname: string;
  /** The mailbox as a name, e.g. `hostmaster.example.com`. */
  rname: string;
  serial: number;
  refresh: number;
  retry: number;
  expire: number;
  /** Negative-caching TTL (RFC 2308 §4). */
  minimum: number;
}

export interface DnsSrvRecord extends RecordBase {
  type: 'SRV';
  priority: number;
  weight: number;
  port: number;
  target: string;
}

export interface DnsCaaRecord extends RecordBase {
  type: 'CAA';
  flags: number;
  /** The issuer-critical bit (RFC 8659 §4.1). */
  critical: boolean;
  tag: string;
  value: string;
}

/** TLSA (RFC 6698) and SMIMEA (RFC 8162) share one RDATA format. */
export interface DnsTlsaRecord<T extends 'TLSA' | 'SMIMEA' = 'TLSA'> extends RecordBase {
  type: T;
  usage: number;
  selector: number;
  matchingType: number;
  /** Certificate association data, lower-case hex. */
  certificate: string;
}

export type DnsSmimeaRecord = DnsTlsaRecord<'SMIMEA'>;

/** DNSKEY (RFC 4034 §2) and CDNSKEY (RFC 7344) share one RDATA format. */
export interface DnsDnskeyRecord<T extends 'DNSKEY' | 'CDNSKEY' = 'DNSKEY'> extends RecordBase {
  type: T;
  flags: number;
  protocol: number;
  algorithm: number;
  /** Public key, base64. */
  key: string;
}

export type DnsCdnskeyRecord = DnsDnskeyRecord<'CDNSKEY'>;

/** DS (RFC 4034 §5) and CDS (RFC 7344) share one RDATA format. */
export interface DnsDsRecord<T extends 'DS' | 'CDS' = 'DS'> extends RecordBase {
  type: T;
  keyTag: number;
  algorithm: number;
  digestType: number;
  /** Lower-case hex. */
  digest: string;
}

export type DnsCdsRecord = DnsDsRecord<'CDS'>;

export interface DnsRrsigRecord extends RecordBase {
  type: 'RRSIG';
  /** Type mnemonic, or `TYPEnnn` (RFC 3597 §5) for one this contract does not name. */
  typeCovered: string;
  algorithm: number;
  labels: number;
  originalTtl: number;
  /** Seconds since the epoch (RFC 4034 §3.1.5). */
  expiration: number;
  inception: number;
  keyTag: number;
  signerName: string;
  /** Base64. */
  signature: string;
}

export interface DnsNsecRecord extends RecordBase {
  type: 'NSEC';
  nextDomain: string;
  types: string[];
}

export interface DnsNsec3Record extends RecordBase {
  type: 'NSEC3';
  hashAlgorithm: number;
  flags: number;
  iterations: number;
  /** Lower-case hex; empty for no salt. */
  salt: string;
  /** The next hashed owner name, lower-case base32hex without padding (RFC 5155 §3.3). */
  nextHashedOwner: string;
  types: string[];
}

export interface DnsSshfpRecord extends RecordBase {
  type: 'SSHFP';
  algorithm: number;
  fingerprintType: number;
  /** Lower-case hex. */
  fingerprint: string;
}

export interface DnsOpenpgpkeyRecord extends RecordBase {
  type: 'OPENPGPKEY';
  /** The transferable public key (RFC 7929 §2.1), base64. */
  key: string;
}

export type DnsRecord =
  | DnsARecord
  | DnsAaaaRecord
  | DnsCnameRecord
  | DnsDnameRecord
  | DnsNsRecord
  | DnsPtrRecord
  | DnsMxRecord
  | DnsTxtRecord
  | DnsSoaRecord
  | DnsSrvRecord
  | DnsCaaRecord
  | DnsTlsaRecord
  | DnsSmimeaRecord
  | DnsDnskeyRecord
  | DnsCdnskeyRecord
  | DnsDsRecord
  | DnsCdsRecord
  | DnsRrsigRecord
  | DnsNsecRecord
  | DnsNsec3Record
  | DnsSshfpRecord
  | DnsOpenpgpkeyRecord;

/** The decoded record shape of one type: `DnsRecordOf<'MX'>` is `DnsMxRecord`. */
export type DnsRecordOf<T extends DnsRecordType> = Extract<DnsRecord, { type: T }>;

interface ResultBase<T extends DnsRecordType> {
  /** The name asked for, normalised (lower case, A-labels, no trailing dot). */
  name: string;
  type: T;
  /** The AD flag of the response: the resolver validated it with DNSSEC (RFC 4035 §3.2.3). */
  authenticated: boolean;
  /** Which server answered or was last tried, as `address:port`; absent when no query was sent. */
  server?: string;
}

/** The name has records of the type (after following CNAMEs). */
export interface DnsAnswer<T extends DnsRecordType> extends ResultBase<T> {
  status: 'ok';
  rcode: 'NOERROR';
  records: DnsRecordOf<T>[];
  /** The smallest TTL of the records and of the CNAMEs followed to reach them. */
  ttl: number;
  /** Owner name of the records: the name asked for unless CNAMEs were followed. */
  canonicalName: string;
  /** The CNAME records followed, in order. */
  cnames: DnsCnameRecord[];
  /** RRSIGs over the records, when DNSSEC records were asked for (`dnssec: true`). */
  signatures: DnsRrsigRecord[];
  /** Every record of the answer and authority sections, when `dnssec: true` was asked. */
  sections?: DnsSections;
}

/**
 * The records of a response that a validator needs (RFC 4035 §3.1): the answer section (the
 * records, CNAMEs and their RRSIGs) and the authority section (SOA, NSEC/NSEC3 proofs of denial or
 * of a wildcard expansion, and their RRSIGs). Records of types this contract does not decode are
 * left out. When CNAMEs were followed over several responses, the sections of all of them, in order.
 */
export interface DnsSections {
  answer: DnsRecord[];
  authority: DnsRecord[];
}

interface NegativeBase<T extends DnsRecordType> extends ResultBase<T> {
  canonicalName: string;
  cnames: DnsCnameRecord[];
  /** The SOA in the authority section, when the server sent one. */
  soa?: DnsSoaRecord;
  /** How long the answer may be cached: min(SOA TTL, SOA minimum) (RFC 2308 §5); 0 without an SOA. */
  ttl: number;
  /** Every record of the answer and authority sections, when `dnssec: true` was asked. */
  sections?: DnsSections;
}

/** RCODE 3: the name (or the end of its CNAME chain) does not exist (RFC 8020). */
export interface DnsNxdomain<T extends DnsRecordType> extends NegativeBase<T> {
  status: 'nxdomain';
  rcode: 'NXDOMAIN';
}

/** NOERROR with no record of the type: the name exists, perhaps with other types (RFC 2308 §2.2). */
export interface DnsNodata<T extends DnsRecordType> extends NegativeBase<T> {
  status: 'nodata';
  rcode: 'NOERROR';
}

/** RCODE 2 from every server asked. */
export interface DnsServfail<T extends DnsRecordType> extends ResultBase<T> {
  status: 'servfail';
  rcode: 'SERVFAIL';
  message: string;
}

/** No usable answer in time: `no-answer` after every attempt, `budget` when the caller's time ran out first. */
export interface DnsTimeout<T extends DnsRecordType> extends ResultBase<T> {
  status: 'timeout';
  reason: 'no-answer' | 'budget';
  message: string;
}

/**
 * Any other failure: `refused`, `formerr`, `notimp` and `rcode` (some other RCODE) come from the
 * server; `network` is a socket error (connection refused, unreachable); `malformed` an answer that
 * could not be decoded; `invalid-name` a name that cannot be asked for (no query is sent).
 */
export interface DnsError<T extends DnsRecordType> extends ResultBase<T> {
  status: 'error';
  error: 'refused' | 'formerr' | 'notimp' | 'rcode' | 'network' | 'malformed' | 'invalid-name';
  /** The RCODE mnemonic when a server answered, e.g. `REFUSED`, `BADVERS`. */
  rcode?: string;
  message: string;
}

export type DnsResult<T extends DnsRecordType = DnsRecordType> =
  DnsAnswer<T> | DnsNxdomain<T> | DnsNodata<T> | DnsServfail<T> | DnsTimeout<T> | DnsError<T>;

export type DnsStatus = DnsResult['status'];

export interface DnsQueryOptions {
  /** Set the DO bit (RFC 3225) so that RRSIGs come back in `signatures`. */
  dnssec?: boolean;
}

/** What an evaluator is given to look names up with. Never rejects: every failure is a result. */
export interface Resolver {
  query<T extends DnsRecordType>(name: string, type: T, options?: DnsQueryOptions): Promise<DnsResult<T>>;
}

/**
 * True for the outcomes that say nothing about the name — SERVFAIL, timeout and the other errors —
 * which SPF maps to `temperror` (RFC 7208 §5) and DMARC to "try later" (RFC 7489 §6.6.3).
 */
export function isTemporaryDnsFailure(
  result: DnsResult,
): result is DnsServfail<DnsRecordType> | DnsTimeout<DnsRecordType> | DnsError<DnsRecordType> {
  return result.status === 'servfail' || result.status === 'timeout' || result.status === 'error';
}

/** One sentence on what a lookup found, for diagnostics: "_dmarc.example.com has no TXT record". */
export function describeDnsResult(result: DnsResult): string {
  const subject = `${result.name} ${result.type}`;
  switch (result.status) {
    case 'ok':
      return `${subject}: ${result.records.length} record${result.records.length === 1 ? '' : 's'}`;
    case 'nxdomain':
      return result.cnames.length > 0
        ? `${result.name} is an alias of ${result.canonicalName}, which does not exist (NXDOMAIN)`
        : `${result.name} does not exist (NXDOMAIN)`;
    case 'nodata':
      return result.cnames.length > 0
        ? `${result.name} is an alias of ${result.canonicalName}, which has no ${result.type} record`
        : `${result.name} has no ${result.type} record`;
    case 'servfail':
    case 'timeout':
    case 'error':
      return `${subject} lookup failed: ${result.message}`;
  }
}
