/**
 * IP addresses as SPF reads them: `ip4-network` with the strict `qnum` grammar of RFC 7208 §5.6
 * (no leading zeros, no omitted parts), `ip6-network` per RFC 4291 §2.2, prefix matching, and the
 * forms the macros need (RFC 7208 §7.3). IPv4-mapped IPv6 client addresses are IPv4 (RFC 7208 §5).
 */

export interface IpAddress {
  version: 4 | 6;
  /** 4 or 16 octets, network order. */
  bytes: Uint8Array;
}

// qnum = DIGIT / %x31-39 DIGIT / "1" 2DIGIT / "2" %x30-34 DIGIT / "25" %x30-35
const QNUM = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9][0-9]|[0-9])';
const IP4_NETWORK = new RegExp(`^${QNUM}\\.${QNUM}\\.${QNUM}\\.${QNUM}$`);

/** `ip4-network` (RFC 7208 §5.6): four decimal octets without leading zeros. */
export function parseIp4(text: string): IpAddress | undefined {
  if (!IP4_NETWORK.test(text)) return undefined;
  return { version: 4, bytes: Uint8Array.from(text.split('.').map(Number)) };
}

/** An IPv6 address in any RFC 4291 §2.2 text form, with an embedded IPv4 tail allowed. */
export function parseIp6(text: string): IpAddress | undefined {
  let body = text;
  const tail: number[] = [];
  if (body.includes('.')) {
    const colon = body.lastIndexOf(':');
    if (colon === -1) return undefined;
    const v4 = parseIp4(body.slice(colon + 1));
    if (v4 === undefined) return undefined;
    tail.push(((v4.bytes[0] ?? 0) << 8) | (v4.bytes[1] ?? 0), ((v4.bytes[2] ?? 0) << 8) | (v4.bytes[3] ?? 0));
    // keep "::" intact when the IPv4 part follows it directly
    body = body.slice(0, colon + 1);
    if (!body.endsWith('::')) body = body.slice(0, -1);
  }
  const halves = body.split('::');
  if (halves.length > 2) return undefined;
  const group = /^[0-9A-Fa-f]{1,4}$/;
  const readGroups = (part: string): number[] | undefined => {
    if (part === '') return [];
    const groups = part.split(':');
    if (!groups.every((g) => group.test(g))) return undefined;
    return groups.map((g) => parseInt(g, 16));
  };
  const head = readGroups(halves[0] ?? '');
  if (head === undefined) return undefined;
  let words: number[];
  if (halves.length === 2) {
    const rest = readGroups(halves[1] ?? '');
    if (rest === undefined) return undefined;
    const known = head.length + rest.length + tail.length;
    if (known > 7) return undefined;
    words = [...head, ...new Array<number>(8 - known).fill(0), ...rest, ...tail];
  } else {
    words = [...head, ...tail];
    if (words.length !== 8) return undefined;
  }
  const bytes = new Uint8Array(16);
  words.forEach((word, i) => {
    bytes[i * 2] = word >> 8;
    bytes[i * 2 + 1] = word & 0xff;
  });
  return { version: 6, bytes };
}

function isIp4Mapped(bytes: Uint8Array): boolean {
  for (let i = 0; i < 10; i++) if (bytes[i] !== 0) return false;
  return bytes[10] === 0xff && bytes[11] === 0xff;
}

/**
 * The SMTP client's address: IPv4 dotted quad or IPv6 text. An IPv4-mapped IPv6 address
 * (`::ffff:192.0.2.1`) is returned as the IPv4 address it carries (RFC 7208 §5).
 */
export function parseClientIp(text: string): IpAddress | undefined {
  const trimmed = text.trim();
  const v4 = parseIp4(trimmed);
  if (v4 !== undefined) return v4;
  const v6 = parseIp6(trimmed);
  if (v6 === undefined) return undefined;
  if (isIp4Mapped(v6.bytes)) return { version: 4, bytes: v6.bytes.slice(12) };
  return v6;
}

/** Whether `ip` lies in `network`/`prefix`; addresses of the other family never do. */
export function ipInNetwork(ip: IpAddress, network: IpAddress, prefix: number): boolean {
  if (ip.version !== network.version) return false;
  const whole = Math.floor(prefix / 8);
  for (let i = 0; i < whole; i++) if (ip.bytes[i] !== network.bytes[i]) return false;
  const bits = prefix % 8;
  if (bits === 0) return true;
  const mask = (0xff << (8 - bits)) & 0xff;
  return ((ip.bytes[whole] ?? 0) & mask) === ((network.bytes[whole] ?? 0) & mask);
}

/** The network address: `ip` with the bits after `prefix` cleared. */
export function networkAddress(ip: IpAddress, prefix: number): IpAddress {
  const bytes = ip.bytes.slice();
  for (let i = 0; i < bytes.length; i++) {
    const keep = Math.max(0, Math.min(8, prefix - i * 8));
    bytes[i] = (bytes[i] ?? 0) & ((0xff << (8 - keep)) & 0xff);
  }
  return { version: ip.version, bytes };
}

/** Dotted quad, or the RFC 5952 form of an IPv6 address (lower case, longest zero run as `::`). */
export function formatIp(ip: IpAddress): string {
  if (ip.version === 4) return [...ip.bytes].join('.');
  const words: number[] = [];
  for (let i = 0; i < 16; i += 2) words.push(((ip.bytes[i] ?? 0) << 8) | (ip.bytes[i + 1] ?? 0));
  // RFC 5952 §4.2: the longest run of two or more zero words (the first when tied) becomes "::"
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = words.map((w) => w.toString(16));
  if (bestStart === -1) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/**
 * The `i` macro's form (RFC 7208 §7.3): the dotted quad for IPv4; for IPv6 the 32 nibbles in lower
 * case separated by dots, most significant first (`2.0.0.1.0.d.b.8…`).
 */
export function dottedIp(ip: IpAddress): string {
  if (ip.version === 4) return [...ip.bytes].join('.');
  const nibbles: string[] = [];
  for (const byte of ip.bytes) nibbles.push((byte >> 4).toString(16), (byte & 0xf).toString(16));
  return nibbles.join('.');
}

/** The name to query PTR records at: `4.3.2.1.in-addr.arpa` or the nibbles under `ip6.arpa`. */
export function reverseName(ip: IpAddress): string {
  return `${dottedIp(ip).split('.').reverse().join('.')}.${ip.version === 4 ? 'in-addr' : 'ip6'}.arpa`;
}

/** Parses an address the DNS returned (A or AAAA text form); IPv4-mapped AAAA stays IPv6. */
export function parseAnswerAddress(text: string): IpAddress | undefined {
  return parseIp4(text) ?? parseIp6(text);
}
