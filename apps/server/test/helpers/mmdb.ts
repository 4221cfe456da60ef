import { isIPv4 } from 'node:net';

/**
 * A minimal MaxMind DB (.mmdb) writer for tests: no registry package writes the format, and a
 * real GeoLite2 file is neither small nor ours to ship. It follows the MaxMind DB File Format
 * Specification 2.0 (https://maxmind.github.io/MaxMind-DB/) for the one case the tests need:
 *
 * - an IPv4 search tree (`ip_version` 4), 24-bit records, built as a binary trie over the
 *   networks given: node n takes bytes 6n..6n+5, left (bit 0) record first, big-endian;
 * - a record equal to the node count means "no data"; a record above it points into the data
 *   section at `record - nodeCount - 16`;
 * - 16 zero bytes between the tree and the data section;
 * - data values encoded with the control byte (type in the top 3 bits, size in the low 5;
 *   types above 7 as 0 plus an extension byte), maps keyed by UTF-8 strings, no pointers;
 * - the metadata map after the "\xAB\xCD\xEFMaxMind.com" marker.
 *
 * The `maxmind` package reads what this writes; the tests assert lookups through it.
 */

export type MmdbValue = string | number | boolean | MmdbValue[] | { [key: string]: MmdbValue };

/** A typed integer, for metadata fields whose type the reader checks. */
class Uint {
  readonly type: 5 | 6 | 9;
  readonly value: bigint;

  constructor(type: 5 | 6 | 9, value: number | bigint) {
    this.type = type;
    this.value = BigInt(value);
  }
}

type Encodable = MmdbValue | Uint | Encodable[] | { [key: string]: Encodable };

const METADATA_MARKER = Buffer.from('abcdef4d61784d696e642e636f6d', 'hex');

function controlBytes(type: number, size: number): Buffer {
  const extended = type > 7;
  const head = (extended ? 0 : type) << 5;
  let sizeBytes: number[];
  let sizeField: number;
  if (size < 29) {
    sizeField = size;
    sizeBytes = [];
  } else if (size < 29 + 256) {
    sizeField = 29;
    sizeBytes = [size - 29];
  } else if (size < 285 + 65_536) {
    sizeField = 30;
    sizeBytes = [(size - 285) >> 8, (size - 285) & 0xff];
  } else {
    throw new RangeError('value too large for this test writer');
  }
  return Buffer.from([head | sizeField, ...(extended ? [type - 7] : []), ...sizeBytes]);
}

function unsignedBytes(value: bigint): Buffer {
  const bytes: number[] = [];
  for (let rest = value; rest > 0n; rest >>= 8n) bytes.unshift(Number(rest & 0xffn));
  return Buffer.from(bytes);
}

function encode(value: Encodable): Buffer {
  if (value instanceof Uint) {
    const bytes = unsignedBytes(value.value);
    return Buffer.concat([controlBytes(value.type, bytes.length), bytes]);
  }
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([controlBytes(2, bytes.length), bytes]);
  }
  if (typeof value === 'boolean') return controlBytes(14, value ? 1 : 0);
  if (typeof value === 'number') {
    if (Number.isInteger(value) && value >= 0 && value <= 0xffffffff) return encode(new Uint(6, value));
    const bytes = Buffer.alloc(8);
    bytes.writeDoubleBE(value);
    return Buffer.concat([controlBytes(3, 8), bytes]);
  }
  if (Array.isArray(value)) return Buffer.concat([controlBytes(11, value.length), ...value.map(encode)]);
  const entries = Object.entries(value);
  return Buffer.concat([
    controlBytes(7, entries.length),
    ...entries.flatMap(([k, v]) => [encode(k), encode(v)]),
  ]);
}

interface TrieNode {
  children: [TrieNode | number | undefined, TrieNode | number | undefined];
}

function ipv4Bits(address: string): number {
  if (!isIPv4(address)) throw new TypeError(`not an IPv4 address: ${address}`);
  return address.split('.').reduce((sum, octet) => sum * 256 + Number(octet), 0);
}

/**
 * Builds an IPv4 database. Each network (`203.0.113.0/24`) maps to a value such as
 * `{ country: { iso_code: 'RU' } }`; networks must not overlap.
 */
export function buildMmdb(networks: Record<string, MmdbValue>, databaseType = 'rfckit-Test-Country'): Buffer {
  // the data section: each distinct value once, remembered by its offset
  const dataParts: Buffer[] = [];
  let dataLength = 0;
  const root: TrieNode = { children: [undefined, undefined] };

  for (const [cidr, value] of Object.entries(networks)) {
    const [address = '', prefixText = '32'] = cidr.split('/');
    const prefix = Number(prefixText);
    if (!Number.isInteger(prefix) || prefix < 1 || prefix > 32) throw new RangeError(`bad prefix in ${cidr}`);
    const offset = dataLength;
    const bytes = encode(value);
    dataParts.push(bytes);
    dataLength += bytes.length;

    const bits = ipv4Bits(address);
    let node = root;
    for (let depth = 0; depth < prefix - 1; depth++) {
      const bit = (bits >>> (31 - depth)) & 1;
      let child = node.children[bit];
      if (typeof child === 'number') throw new RangeError(`${cidr} overlaps another network`);
      if (child === undefined) {
        child = { children: [undefined, undefined] };
        node.children[bit] = child;
      }
      node = child;
    }
    const lastBit = (bits >>> (32 - prefix)) & 1;
    if (node.children[lastBit] !== undefined) throw new RangeError(`${cidr} overlaps another network`);
    node.children[lastBit] = offset;
  }

  // number the nodes breadth-first; the root is node 0
  const nodes: TrieNode[] = [];
  const numbers = new Map<TrieNode, number>();
  for (const queue = [root]; queue.length > 0;) {
    const node = queue.shift() as TrieNode;
    numbers.set(node, nodes.length);
    nodes.push(node);
    for (const child of node.children) if (typeof child === 'object') queue.push(child);
  }
  const nodeCount = nodes.length;
  if (nodeCount + 16 + dataLength >= 2 ** 24) throw new RangeError('too large for 24-bit records');

  const tree = Buffer.alloc(nodeCount * 6);
  nodes.forEach((node, index) => {
    node.children.forEach((child, side) => {
      const record =
        child === undefined
          ? nodeCount
          : typeof child === 'number'
            ? nodeCount + 16 + child
            : (numbers.get(child) as number);
      tree.writeUIntBE(record, index * 6 + side * 3, 3);
    });
  });

  const metadata = encode({
    node_count: new Uint(6, nodeCount),
    record_size: new Uint(5, 24),
    ip_version: new Uint(5, 4),
    database_type: databaseType,
    languages: ['en'],
    binary_format_major_version: new Uint(5, 2),
    binary_format_minor_version: new Uint(5, 0),
    build_epoch: new Uint(9, 1_700_000_000),
    description: { en: 'rfckit test database' },
  });

  return Buffer.concat([tree, Buffer.alloc(16), ...dataParts, METADATA_MARKER, metadata]);
}
