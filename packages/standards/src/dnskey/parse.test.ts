import { describe, expect, it } from 'vitest';
import { toHex } from '../core/hex.ts';
import { parseDnskey } from './parse.ts';

const ed25519 = 'l02Woi0iS8Aa25FQkUd9RMzZHJpBoRQwAQEX1SxZJA4=';

describe('parseDnskey', () => {
  it('returns the fields with their places in the input', () => {
    const input = `example.com. 3600 IN DNSKEY 257 3 ED25519 ${ed25519}`;
    const { record, diagnostics } = parseDnskey(input);
    expect(diagnostics).toEqual([]);
    expect(record).toMatchObject({ ttl: 3600, flags: 257, protocol: 3, algorithm: 15 });
    expect(record?.ownerName?.text).toBe('example.com.');
    expect(record?.publicKey.length).toBe(32);
    const at = (span: { start: number; end: number } | undefined) =>
      span && input.slice(span.start, span.end);
    expect(at(record?.spans.owner)).toBe('example.com.');
    expect(at(record?.spans.ttl)).toBe('3600');
    expect(at(record?.spans.flags)).toBe('257');
    expect(at(record?.spans.protocol)).toBe('3');
    expect(at(record?.spans.algorithm)).toBe('ED25519');
    expect(at(record?.spans.publicKey)).toBe(ed25519);
  });

  it('joins a key split across lines (RFC 4034 §2.2)', () => {
    const { record } = parseDnskey(`257 3 15 (\n  ${ed25519.slice(0, 20)}\n  ${ed25519.slice(20)} )`);
    // First and last octets of the RFC 8080 §6.1 key, decoded with Python's base64 module.
    expect(toHex(record?.publicKey.subarray(0, 2) ?? new Uint8Array())).toBe('974d');
    expect(toHex(record?.publicKey.subarray(30) ?? new Uint8Array())).toBe('240e');
  });

  it('checks syntax only: protocol 2 and flags 0 still parse', () => {
    const { record, diagnostics } = parseDnskey(`0 2 15 ${ed25519}`);
    expect(diagnostics).toEqual([]);
    expect(record).toMatchObject({ flags: 0, protocol: 2, ownerName: null, ttl: null });
  });
});
