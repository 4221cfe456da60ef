// Bounds-checked big-endian reading and writing of the TLS presentation language
// (RFC 8446 §3, RFC 5246 §4): integers of 1-3 bytes and length-prefixed vectors.

/** Reads forward through bytes; every read returns undefined instead of running past the end. */
export class ByteReader {
  readonly bytes: Uint8Array;
  offset: number;
  private readonly end: number;

  constructor(bytes: Uint8Array, offset = 0, end = bytes.length) {
    this.bytes = bytes;
    this.offset = offset;
    this.end = Math.min(end, bytes.length);
  }

  get remaining(): number {
    return this.end - this.offset;
  }

  u8(): number | undefined {
    if (this.remaining < 1) return undefined;
    return this.bytes[this.offset++];
  }

  u16(): number | undefined {
    if (this.remaining < 2) return undefined;
    const value = ((this.bytes[this.offset] ?? 0) << 8) | (this.bytes[this.offset + 1] ?? 0);
    this.offset += 2;
    return value;
  }

  u24(): number | undefined {
    if (this.remaining < 3) return undefined;
    const b = this.bytes;
    const o = this.offset;
    this.offset += 3;
    return ((b[o] ?? 0) << 16) | ((b[o + 1] ?? 0) << 8) | (b[o + 2] ?? 0);
  }

  take(length: number): Uint8Array | undefined {
    if (length < 0 || this.remaining < length) return undefined;
    const slice = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return slice;
  }

  /** A vector with a `prefix`-byte length (RFC 8446 §3.4). */
  vector(prefix: 1 | 2 | 3): Uint8Array | undefined {
    const start = this.offset;
    const length = prefix === 1 ? this.u8() : prefix === 2 ? this.u16() : this.u24();
    const body = length === undefined ? undefined : this.take(length);
    if (body === undefined) this.offset = start;
    return body;
  }

  rest(): Uint8Array {
    const slice = this.bytes.subarray(this.offset, this.end);
    this.offset = this.end;
    return slice;
  }
}

/** Appends to a growing buffer. */
export class ByteWriter {
  private chunks: number[] = [];

  get length(): number {
    return this.chunks.length;
  }

  u8(value: number): this {
    this.chunks.push(value & 0xff);
    return this;
  }

  u16(value: number): this {
    return this.u8(value >>> 8).u8(value);
  }

  u24(value: number): this {
    return this.u8(value >>> 16).u16(value);
  }

  bytes(bytes: ArrayLike<number>): this {
    for (let i = 0; i < bytes.length; i++) this.chunks.push((bytes[i] ?? 0) & 0xff);
    return this;
  }

  /** A vector with a `prefix`-byte length in front of what `fill` writes. */
  vector(prefix: 1 | 2 | 3, fill: (writer: ByteWriter) => void): this {
    const inner = new ByteWriter();
    fill(inner);
    const length = inner.length;
    if (prefix === 1) this.u8(length);
    else if (prefix === 2) this.u16(length);
    else this.u24(length);
    for (const b of inner.chunks) this.chunks.push(b);
    return this;
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.chunks);
  }
}

/** Bits in a big-endian unsigned integer, leading zero bits not counted (a DH prime's size). */
export function bitLength(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] ?? 0;
    if (b !== 0) return (bytes.length - i - 1) * 8 + (32 - Math.clz32(b));
  }
  return 0;
}
