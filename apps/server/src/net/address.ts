import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Why an address is not one the server may connect to on a user's behalf. */
export type AddressCategory =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'benchmarking'
  | 'reserved'
  | 'nat64'
  | 'tunnel';

export interface BlockedAddress {
  category: AddressCategory;
  /** Human wording, e.g. `loopback address`, `IPv4-mapped form of 10.0.0.1 (private address)`. */
  reason: string;
}

interface Range {
  cidr: [Address, number];
  category: AddressCategory;
  reason: string;
}

function range(cidr: string, category: AddressCategory, reason: string): Range {
  return { cidr: ipaddr.parseCIDR(cidr), category, reason };
}

// IANA IPv4 Special-Purpose Address Registry (RFC 6890 and successors): everything not globally reachable
const v4Ranges: readonly Range[] = [
  range('0.0.0.0/8', 'unspecified', 'unspecified ("this network") address'),
  range('10.0.0.0/8', 'private', 'private address'),
  range('100.64.0.0/10', 'cgnat', 'carrier-grade NAT (shared) address'),
  range('127.0.0.0/8', 'loopback', 'loopback address'),
  range('169.254.0.0/16', 'link-local', 'link-local address'),
  range('172.16.0.0/12', 'private', 'private address'),
  range('192.0.0.0/24', 'reserved', 'reserved (IETF protocol assignment) address'),
  range('192.0.2.0/24', 'documentation', 'documentation address'),
  range('192.88.99.0/24', 'reserved', 'reserved (former 6to4 relay) address'),
  range('192.168.0.0/16', 'private', 'private address'),
  range('198.18.0.0/15', 'benchmarking', 'benchmarking address'),
  range('198.51.100.0/24', 'documentation', 'documentation address'),
  range('203.0.113.0/24', 'documentation', 'documentation address'),
  range('224.0.0.0/4', 'multicast', 'multicast address'),
  range('255.255.255.255/32', 'broadcast', 'broadcast address'),
  range('240.0.0.0/4', 'reserved', 'reserved address'),
];

// IANA IPv6 Special-Purpose Address Registry; forms embedding IPv4 are handled before this table
const v6Ranges: readonly Range[] = [
  range('::/128', 'unspecified', 'unspecified address'),
  range('::1/128', 'loopback', 'loopback address'),
  range('fc00::/7', 'private', 'unique local (private) address'),
  range('fe80::/10', 'link-local', 'link-local address'),
  range('fec0::/10', 'private', 'site-local (private) address'),
  range('ff00::/8', 'multicast', 'multicast address'),
  range('100::/64', 'reserved', 'discard-only address'),
  range('2001:db8::/32', 'documentation', 'documentation address'),
  range('3fff::/20', 'documentation', 'documentation address'),
  range('2001:2::/48', 'benchmarking', 'benchmarking address'),
  range('2001::/23', 'reserved', 'reserved (IETF protocol assignment) address'),
  range('5f00::/16', 'reserved', 'reserved (segment routing) address'),
];

const globalUnicast = ipaddr.parseCIDR('2000::/3');
const nat64WellKnown = ipaddr.parseCIDR('64:ff9b::/96');
const nat64LocalUse = ipaddr.parseCIDR('64:ff9b:1::/48');
const sixToFour = ipaddr.parseCIDR('2002::/16');
const teredo = ipaddr.parseCIDR('2001::/32');
const ipv4Compatible = ipaddr.parseCIDR('::/96');
const ipv4Translated = ipaddr.parseCIDR('::ffff:0:0:0/96');

function v4FromBytes(bytes: readonly number[]): ipaddr.IPv4 {
  return new ipaddr.IPv4(bytes.slice(0, 4));
}

function inRange(address: Address, [base, bits]: [Address, number]): boolean {
  return address.kind() === base.kind() && address.match(base, bits);
}

function classifyV4(address: ipaddr.IPv4): BlockedAddress | undefined {
  const hit = v4Ranges.find((entry) => inRange(address, entry.cidr));
  return hit === undefined ? undefined : { category: hit.category, reason: hit.reason };
}

/** The IPv4 addresses an IPv6 address carries (mapped, compatible, translated, NAT64, 6to4, Teredo). */
function embeddedV4(address: ipaddr.IPv6): { form: string; v4: ipaddr.IPv4[] } | undefined {
  const bytes = address.toByteArray();
  const last = v4FromBytes(bytes.slice(12));
  if (address.isIPv4MappedAddress()) return { form: 'IPv4-mapped form', v4: [last] };
  if (inRange(address, ipv4Translated)) return { form: 'IPv4-translated form', v4: [last] };
  if (inRange(address, nat64WellKnown) || inRange(address, nat64LocalUse))
    return { form: 'NAT64 form', v4: [last] };
  if (inRange(address, sixToFour)) return { form: '6to4 form', v4: [v4FromBytes(bytes.slice(2, 6))] };
  if (inRange(address, teredo)) {
    // RFC 4380 §4: the server's address in clear, the client's inverted in the last 32 bits
    const client = v4FromBytes(bytes.slice(12).map((byte) => byte ^ 0xff));
    return { form: 'Teredo form', v4: [v4FromBytes(bytes.slice(4, 8)), client] };
  }
  // ::/128 and ::1 are themselves, not IPv4-compatible forms
  if (inRange(address, ipv4Compatible) && !address.match(ipaddr.parse('::'), 127))
    return { form: 'IPv4-compatible form', v4: [last] };
  return undefined;
}

function classifyV6(address: ipaddr.IPv6): BlockedAddress | undefined {
  const embedded = embeddedV4(address);
  if (embedded !== undefined) {
    for (const v4 of embedded.v4) {
      const inner = classifyV4(v4);
      if (inner !== undefined)
        return { category: inner.category, reason: `${embedded.form} of ${v4.toString()} (${inner.reason})` };
    }
    // forms that only ever live inside one network, or are deprecated, are refused whatever they carry
    if (inRange(address, nat64LocalUse)) return { category: 'nat64', reason: 'local-use NAT64 address' };
    if (inRange(address, teredo)) return { category: 'tunnel', reason: 'Teredo tunnel address' };
    if (inRange(address, ipv4Compatible))
      return { category: 'reserved', reason: 'deprecated IPv4-compatible IPv6 address' };
    // mapped and translated forms of a public address reach that address: judge them as it
    return undefined;
  }
  const hit = v6Ranges.find((entry) => inRange(address, entry.cidr));
  if (hit !== undefined) return { category: hit.category, reason: hit.reason };
  if (!inRange(address, globalUnicast))
    return { category: 'reserved', reason: 'reserved address (outside global unicast 2000::/3)' };
  return undefined;
}

/** Parses an IP address literal (no brackets, no zone); undefined when it is not one. */
export function parseAddress(text: string): Address | undefined {
  // ipaddr.isValid accepts "127.1" and other classful forms: only the four-part and IPv6 forms count here
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  // a zone (`fe80::1%eth0`) names an interface of this machine: never a remote host
  if (!text.includes(':') || text.includes('%')) return undefined;
  // ipaddr.js reads `::127.0.0.1` as `::ffff:127.0.0.1`; the URL parser's canonical form is exact
  const url = URL.parse(`http://[${text}]/`);
  if (url === null) return undefined;
  const canonicalText = url.hostname.slice(1, -1);
  return ipaddr.IPv6.isValid(canonicalText) ? ipaddr.IPv6.parse(canonicalText) : undefined;
}

/** The canonical text of an address; IPv4-mapped IPv6 keeps its dotted tail (`::ffff:127.0.0.1`). */
function canonical(address: Address): string {
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress())
    return `::ffff:${(address as ipaddr.IPv6).toIPv4Address().toString()}`;
  return address.toString();
}

/**
 * Says why the server must not connect to `address` (an IPv4 or IPv6 literal), or undefined
 * when it is a globally reachable unicast address.
 */
export function classifyAddress(address: string): BlockedAddress | undefined {
  const parsed = parseAddress(address);
  if (parsed === undefined) return { category: 'reserved', reason: 'not an IP address' };
  return parsed.kind() === 'ipv4' ? classifyV4(parsed as ipaddr.IPv4) : classifyV6(parsed as ipaddr.IPv6);
}

/** One parsed OUTBOUND_ALLOW entry. */
export type Cidr = [Address, number];

/**
 * Parses a comma-separated CIDR list such as `127.0.0.0/8, ::1/128` (a bare address is a
 * single-host range). Throws an Error naming the first bad entry.
 */
export function parseCidrList(raw: string): Cidr[] {
  return raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      try {
        if (entry.includes('/')) {
          const [base, bits] = entry.split('/');
          if (parseAddress(base ?? '') === undefined || !/^\d{1,3}$/.test(bits ?? '')) throw new Error('bad');
          return ipaddr.parseCIDR(entry);
        }
        const address = parseAddress(entry);
        if (address === undefined) throw new Error('bad');
        return [address, address.kind() === 'ipv4' ? 32 : 128];
      } catch {
        throw new Error(`"${entry}" is not an IP address or CIDR range such as 127.0.0.0/8`);
      }
    });
}

export interface AddressVerdict {
  /** The address as checked, in its canonical text form. */
  address: string;
  allowed: boolean;
  /** Set when refused. */
  blocked?: BlockedAddress;
  /** Set when the address is special but an OUTBOUND_ALLOW range exempts it. */
  exemptedBy?: string;
}

export interface AddressPolicy {
  /** The OUTBOUND_ALLOW ranges, as text. */
  readonly allow: readonly string[];
  check(address: string): AddressVerdict;
}

/**
 * The outbound address rule (docs/architecture.md §6): refuse every address `classifyAddress` blocks
 * unless one of the `allow` ranges (OUTBOUND_ALLOW) contains it. An IPv4-mapped address is
 * also matched as the IPv4 address it maps, so `127.0.0.0/8` exempts `::ffff:127.0.0.1`.
 */
export function createAddressPolicy(allow: readonly Cidr[] = []): AddressPolicy {
  const allowText = allow.map(([base, bits]) => `${base.toString()}/${bits}`);
  return {
    allow: allowText,
    check(text) {
      const parsed = parseAddress(text);
      if (parsed === undefined)
        return {
          address: text,
          allowed: false,
          blocked: { category: 'reserved', reason: 'not an IP address' },
        };
      const address = canonical(parsed);
      const blocked = classifyAddress(address);
      if (blocked === undefined) return { address, allowed: true };
      const candidates: Address[] = [parsed];
      if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
        candidates.push((parsed as ipaddr.IPv6).toIPv4Address());
      const index = allow.findIndex((cidr) => candidates.some((candidate) => inRange(candidate, cidr)));
      const exemptedBy = allowText[index];
      if (exemptedBy !== undefined) return { address, allowed: true, exemptedBy };
      return { address, allowed: false, blocked };
    },
  };
}

/** Brackets IPv6 literals for display and URLs. */
export function formatAddress(address: string): string {
  return address.includes(':') ? `[${address}]` : address;
}

export type ParsedHost = { kind: 'address'; address: string } | { kind: 'name'; name: string };

/**
 * Reads a URL's host as the WHATWG URL parser left it: IPv4 in any numeric form (decimal
 * `2130706433`, octal `0177.0.0.1`, hex `0x7f000001`, short `127.1`) is already dotted
 * decimal there, IPv6 is bracketed and compressed. Names are lower-case, punycoded, and
 * lose one trailing dot.
 */
export function parseUrlHost(hostname: string): ParsedHost {
  if (hostname.startsWith('[') && hostname.endsWith(']')) {
    const inner = hostname.slice(1, -1);
    const address = parseAddress(inner);
    if (address !== undefined) return { kind: 'address', address: canonical(address) };
  }
  const address = parseAddress(hostname);
  if (address !== undefined) return { kind: 'address', address: canonical(address) };
  return { kind: 'name', name: hostname.toLowerCase().replace(/\.$/, '') };
}

/**
 * Parses a host a user typed without a scheme (`example.org`, `0x7f.1`, `[::1]`) the way a
 * browser would in a URL; undefined when no URL could have it as its host.
 */
export function parseHostInput(input: string): ParsedHost | undefined {
  const trimmed = input.trim();
  if (trimmed === '' || /[/?#@\s\\]/.test(trimmed)) return undefined;
  const bare = trimmed.includes(':') && !trimmed.startsWith('[') ? `[${trimmed}]` : trimmed;
  const url = URL.parse(`http://${bare}/`);
  if (url === null || url.port !== '') return undefined;
  return parseUrlHost(url.hostname);
}

/** RFC 6761 §6.3: `localhost` and names under it always mean the loopback addresses. */
export function isLocalhostName(name: string): boolean {
  return name === 'localhost' || name.endsWith('.localhost');
}
