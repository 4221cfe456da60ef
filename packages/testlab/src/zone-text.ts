// Zone files in presentation format (RFC 1035 §5.1), as dnssec-signzone writes them, read into
// records with their RDATA in wire form, so that the lab serves the octets the signer signed.
import net from 'node:net';
import { normalizeName, wireName } from './names.ts';

export interface ZoneRecord {
  /** Normalized (lower case, no trailing dot, the root as ''). */
  owner: string;
  type: string;
  typeCode: number;
  ttl: number;
  rdata: Buffer;
}

/** The types a lab zone may hold, by mnemonic (RFC 3597 `TYPEnnn` is read for any other). */
export const ZONE_TYPE_CODES: Readonly<Record<string, number>> = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  PTR: 12,
  HINFO: 13,
  MX: 15,
  TXT: 16,
  AAAA: 28,
  SRV: 33,
  NAPTR: 35,
  DNAME: 39,
  DS: 43,
  SSHFP: 44,
  RRSIG: 46,
  NSEC: 47,
  DNSKEY: 48,
  NSEC3: 50,
  NSEC3PARAM: 51,
  TLSA: 52,
  SMIMEA: 53,
  CDS: 59,
  CDNSKEY: 60,
  OPENPGPKEY: 61,
  SVCB: 64,
  HTTPS: 65,
  CAA: 257,
};
const TYPE_NAMES = new Map(Object.entries(ZONE_TYPE_CODES).map(([name, code]) => [code, name]));

export function typeCodeOf(type: string): number | undefined {
  const upper = type.toUpperCase();
  const numbered = /^TYPE(\d{1,5})$/.exec(upper);
  if (numbered) return Number(numbered[1]) <= 0xffff ? Number(numbered[1]) : undefined;
  return ZONE_TYPE_CODES[upper];
}

export function typeNameOf(code: number): string {
  return TYPE_NAMES.get(code) ?? `TYPE${code}`;
}

interface Token {
  text: string;
  quoted: boolean;
}

/** Splits the zone into records' tokens: comments dropped, parentheses joining lines, quotes kept whole. */
function tokenize(text: string): { tokens: Token[]; line: number }[] {
  const entries: { tokens: Token[]; line: number }[] = [];
  let tokens: Token[] = [];
  let depth = 0;
  let line = 1;
  let start = 1;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\n') {
      line++;
      if (depth === 0) {
        if (tokens.length > 0) entries.push({ tokens, line: start });
        tokens = [];
        start = line;
      }
    } else if (char === ';') {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
    } else if (char === '(') {
      depth++;
    } else if (char === ')') {
      if (depth === 0) throw new Error(`zone line ${line}: ")" without "("`);
      depth--;
    } else if (char === '"') {
      let value = '';
      for (i++; i < text.length && text[i] !== '"'; i++) {
        if (text[i] === '\\' && i + 1 < text.length) value += text[i++];
        value += text[i];
      }
      if (i >= text.length) throw new Error(`zone line ${line}: unterminated quote`);
      tokens.push({ text: value, quoted: true });
    } else if (!/\s/.test(char)) {
      let value = '';
      for (; i < text.length && !/[\s;()"]/.test(text[i]!); i++) {
        if (text[i] === '\\' && i + 1 < text.length) value += text[i++];
        value += text[i];
      }
      i--;
      tokens.push({ text: value, quoted: false });
    }
  }
  if (depth !== 0) throw new Error('zone: "(" without ")"');
  if (tokens.length > 0) entries.push({ tokens, line: start });
  return entries;
}

/** A character-string's octets: `\DDD` and `\X` escapes (RFC 1035 §5.1), UTF-8 otherwise. */
function characterString(text: string): Buffer {
  const octets: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') {
      const digits = /^\d{3}/.exec(text.slice(i + 1, i + 4));
      if (digits) {
        octets.push(Number(digits[0]));
        i += 3;
        continue;
      }
      i++;
    }
    octets.push(...Buffer.from(text[i] ?? '', 'utf8'));
  }
  if (octets.length > 255) throw new Error('a character-string is at most 255 octets');
  return Buffer.from(octets);
}

function u8(value: string): Buffer {
  const n = integer(value, 0xff);
  return Buffer.of(n);
}

function u16(value: string | number): Buffer {
  const buffer = Buffer.alloc(2);
  buffer.writeUInt16BE(typeof value === 'number' ? value : integer(value, 0xffff));
  return buffer;
}

function u32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value);
  return buffer;
}

function integer(text: string, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) > max)
    throw new Error(`${JSON.stringify(text)} is not a number up to ${max}`);
  return Number(text);
}

/** An RRSIG time: `YYYYMMDDHHmmSS` in UTC or seconds since the epoch (RFC 4034 §3.2). */
function signatureTime(text: string): number {
  const stamp = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(text);
  if (!stamp) return integer(text, 0xffffffff);
  const [, y, mo, d, h, mi, s] = stamp.map(Number) as number[];
  return Date.UTC(y!, mo! - 1, d!, h!, mi!, s!) / 1000;
}

function hex(text: string): Buffer {
  if (text === '-' || text === '') return Buffer.alloc(0);
  if (!/^(?:[0-9a-f]{2})+$/i.test(text)) throw new Error(`${JSON.stringify(text)} is not hex`);
  return Buffer.from(text, 'hex');
}

function base64(text: string): Buffer {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw new Error('bad base64');
  return Buffer.from(text, 'base64');
}

const BASE32HEX = '0123456789abcdefghijklmnopqrstuv';
export function base32hexDecode(text: string): Buffer {
  const octets: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of text.toLowerCase().replace(/=+$/, '')) {
    const digit = BASE32HEX.indexOf(char);
    if (digit < 0) throw new Error(`${JSON.stringify(text)} is not base32hex`);
    value = ((value << 5) | digit) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      octets.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(octets);
}

export function base32hexEncode(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += BASE32HEX[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32HEX[(value << (5 - bits)) & 31];
  return out;
}

/** The NSEC/NSEC3 type bit maps (RFC 4034 §4.1.2). */
function typeBitmap(types: readonly string[]): Buffer {
  const windows = new Map<number, number[]>();
  for (const name of types) {
    const code = typeCodeOf(name);
    if (code === undefined) throw new Error(`unknown type ${name}`);
    const bits = windows.get(code >> 8) ?? [];
    bits.push(code & 0xff);
    windows.set(code >> 8, bits);
  }
  const parts: Buffer[] = [];
  for (const window of [...windows.keys()].sort((a, b) => a - b)) {
    const bits = windows.get(window)!;
    const map = Buffer.alloc((Math.max(...bits) >> 3) + 1);
    for (const bit of bits) map[bit >> 3]! |= 0x80 >> (bit & 7);
    parts.push(Buffer.of(window, map.length), map);
  }
  return Buffer.concat(parts);
}

function ipv4(text: string): Buffer {
  if (net.isIPv4(text)) return Buffer.from(text.split('.').map(Number));
  throw new Error(`${JSON.stringify(text)} is not an IPv4 address`);
}

function ipv6(text: string): Buffer {
  if (!net.isIPv6(text)) throw new Error(`${JSON.stringify(text)} is not an IPv6 address`);
  const [head = '', tail = ''] = text.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  let left = groups(head);
  let right = text.includes('::') ? groups(tail) : [];
  const last = (text.includes('::') ? right : left).at(-1);
  const v4 = last?.includes('.') ? ipv4(last) : undefined;
  if (v4) {
    const words = [v4.readUInt16BE(0).toString(16), v4.readUInt16BE(2).toString(16)];
    if (text.includes('::')) right = [...right.slice(0, -1), ...words];
    else left = [...left.slice(0, -1), ...words];
  }
  const zeros = Array<string>(8 - left.length - right.length).fill('0');
  return Buffer.concat([...left, ...zeros, ...right].map((word) => u16(parseInt(word, 16))));
}

/** RDATA in wire form from its presentation tokens. */
function encodeRdata(type: string, fields: readonly Token[]): Buffer {
  const f = fields.map((t) => t.text);
  const need = (count: number) => {
    if (f.length < count) throw new Error(`${type} needs ${count} fields`);
  };
  if (f[0] === '\\#') {
    // RFC 3597 §5: \# length hex
    const data = hex(f.slice(2).join(''));
    if (data.length !== integer(f[1] ?? '', 0xffff)) throw new Error('\\# length does not match the data');
    return data;
  }
  switch (type) {
    case 'A':
      need(1);
      return ipv4(f[0]!);
    case 'AAAA':
      need(1);
      return ipv6(f[0]!);
    case 'NS':
    case 'CNAME':
    case 'DNAME':
    case 'PTR':
      need(1);
      return wireName(f[0]!);
    case 'MX':
      need(2);
      return Buffer.concat([u16(f[0]!), wireName(f[1]!)]);
    case 'TXT':
    case 'HINFO':
      return Buffer.concat(
        fields.flatMap((t) => {
          const octets = characterString(t.text);
          return [Buffer.of(octets.length), octets];
        }),
      );
    case 'SOA':
      need(7);
      return Buffer.concat([
        wireName(f[0]!),
        wireName(f[1]!),
        ...f.slice(2, 7).map((n) => u32(integer(n, 0xffffffff))),
      ]);
    case 'SRV':
      need(4);
      return Buffer.concat([u16(f[0]!), u16(f[1]!), u16(f[2]!), wireName(f[3]!)]);
    case 'DS':
    case 'CDS':
      need(4);
      return Buffer.concat([u16(f[0]!), u8(f[1]!), u8(f[2]!), hex(f.slice(3).join(''))]);
    case 'SSHFP':
      need(3);
      return Buffer.concat([u8(f[0]!), u8(f[1]!), hex(f.slice(2).join(''))]);
    case 'DNSKEY':
    case 'CDNSKEY':
      need(4);
      return Buffer.concat([u16(f[0]!), u8(f[1]!), u8(f[2]!), base64(f.slice(3).join(''))]);
    case 'RRSIG': {
      need(9);
      const covered = typeCodeOf(f[0]!);
      if (covered === undefined) throw new Error(`unknown type ${f[0]}`);
      return Buffer.concat([
        u16(covered),
        u8(f[1]!),
        u8(f[2]!),
        u32(integer(f[3]!, 0xffffffff)),
        u32(signatureTime(f[4]!)),
        u32(signatureTime(f[5]!)),
        u16(f[6]!),
        wireName(f[7]!),
        base64(f.slice(8).join('')),
      ]);
    }
    case 'NSEC':
      need(1);
      return Buffer.concat([wireName(f[0]!), typeBitmap(f.slice(1))]);
    case 'NSEC3': {
      need(5);
      const salt = hex(f[3]!);
      const next = base32hexDecode(f[4]!);
      return Buffer.concat([
        u8(f[0]!),
        u8(f[1]!),
        u16(f[2]!),
        Buffer.of(salt.length),
        salt,
        Buffer.of(next.length),
        next,
        typeBitmap(f.slice(5)),
      ]);
    }
    case 'NSEC3PARAM': {
      need(4);
      const salt = hex(f[3]!);
      return Buffer.concat([u8(f[0]!), u8(f[1]!), u16(f[2]!), Buffer.of(salt.length), salt]);
    }
    case 'TLSA':
    case 'SMIMEA':
      need(4);
      return Buffer.concat([u8(f[0]!), u8(f[1]!), u8(f[2]!), hex(f.slice(3).join(''))]);
    case 'OPENPGPKEY':
      return base64(f.join(''));
    case 'CAA': {
      need(3);
      const tag = Buffer.from(f[1]!, 'ascii');
      return Buffer.concat([u8(f[0]!), Buffer.of(tag.length), tag, characterString(f[2]!)]);
    }
    default:
      throw new Error(`${type} in presentation format is not read by the lab; write it as \\# (RFC 3597)`);
  }
}

const CLASSES = new Set(['IN', 'CH', 'HS', 'CS']);

/**
 * Reads a zone whose owner names are absolute (the `-O full` output of dnssec-signzone, one record
 * per line): `owner [ttl] [class] type rdata`, `;` comments, parentheses across lines. `$TTL` sets
 * the default TTL; other directives are refused. Errors name the line.
 */
export function parseZoneText(text: string): ZoneRecord[] {
  const records: ZoneRecord[] = [];
  let defaultTtl = 3600;
  for (const { tokens, line } of tokenize(text)) {
    try {
      const head = tokens[0]!.text;
      if (head.startsWith('$')) {
        if (head.toUpperCase() !== '$TTL') throw new Error(`${head} is not supported: write absolute names`);
        defaultTtl = integer(tokens[1]?.text ?? '', 0x7fffffff);
        continue;
      }
      if (head === '@' || !head.endsWith('.')) throw new Error(`owner ${head} is not an absolute name`);
      let at = 1;
      let ttl = defaultTtl;
      for (let i = 0; i < 2; i++) {
        const token = tokens[at]?.text ?? '';
        if (/^\d+$/.test(token)) {
          ttl = integer(token, 0x7fffffff);
          at++;
        } else if (CLASSES.has(token.toUpperCase())) {
          if (token.toUpperCase() !== 'IN') throw new Error('only class IN is served');
          at++;
        }
      }
      const type = (tokens[at]?.text ?? '').toUpperCase();
      const typeCode = typeCodeOf(type);
      if (typeCode === undefined) throw new Error(`unknown type ${JSON.stringify(type)}`);
      const name = typeNameOf(typeCode);
      records.push({
        owner: normalizeName(head),
        type: name,
        typeCode,
        ttl,
        rdata: encodeRdata(name, tokens.slice(at + 1)),
      });
    } catch (error) {
      throw new Error(`zone line ${line}: ${(error as Error).message}`, { cause: error });
    }
  }
  return records;
}
