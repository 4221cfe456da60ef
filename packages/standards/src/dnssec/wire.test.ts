import { describe, expect, it } from 'vitest';
import { toHex } from '../core/hex.ts';
import type { DnsRecord } from '../core/resolver.ts';
import { mxRecord, nsecRecord, rrsigRecord } from './test-records.ts';
import {
  canonicalRdata,
  compareCanonicalNames,
  isSubdomain,
  labelCount,
  nameToWire,
  presentRecord,
} from './wire.ts';

function withRdata(record: DnsRecord, bytes: number[]): DnsRecord {
  return { ...record, rdata: btoa(String.fromCharCode(...bytes)) };
}

describe('nameToWire', () => {
  it.each([
    ['.', '00'],
    ['', '00'],
    ['Example.COM', '076578616d706c6503636f6d00'],
    ['a\\.b.example.', '03612e62076578616d706c6500'],
  ])('%s', (name, hex) => {
    expect(toHex(nameToWire(name))).toBe(hex);
  });

  it('throws on a label over 63 octets', () => {
    expect(() => nameToWire(`${'a'.repeat(64)}.example`)).toThrow(/63/);
  });
});

describe('compareCanonicalNames (RFC 4034 §6.1)', () => {
  // the example list of RFC 4034 §6.1, in canonical order
  const ordered = [
    'example',
    'a.example',
    'yljkjljk.a.example',
    'Z.a.example',
    'zABC.a.EXAMPLE',
    'z.example',
    '\\001.z.example',
    '*.z.example',
    '\\200.z.example',
  ];
  it('sorts the RFC example list into the RFC order', () => {
    const shuffled = [...ordered].reverse();
    shuffled.sort(compareCanonicalNames);
    expect(shuffled).toEqual(ordered);
  });

  it('ignores case and the trailing dot', () => {
    expect(compareCanonicalNames('WWW.Example.com.', 'www.example.com')).toBe(0);
    expect(compareCanonicalNames('.', 'com')).toBeLessThan(0);
  });
});

describe('labelCount (RFC 4034 §3.1.3)', () => {
  it.each([
    ['.', 0],
    ['com', 1],
    ['www.example.com', 3],
    ['*.example.com', 2],
    ['a.*.example.com', 4],
  ])('%s has %i', (name, count) => {
    expect(labelCount(name)).toBe(count);
  });
});

describe('isSubdomain', () => {
  it.each([
    ['www.example.com', 'example.com', true],
    ['example.com', 'example.com', true],
    ['EXAMPLE.com', 'example.COM.', true],
    ['anything', '.', true],
    ['badexample.com', 'example.com', false],
    ['com', 'example.com', false],
  ])('%s under %s: %s', (name, zone, expected) => {
    expect(isSubdomain(name, zone)).toBe(expected);
  });
});

describe('canonicalRdata (RFC 4034 §6.2, RFC 6840 §5.1)', () => {
  it('lower-cases the MX exchange', () => {
    const mx = withRdata(
      mxRecord('example.com', 300, 10, 'mail.example.com'),
      [0, 10, 4, 0x4d, 0x41, 0x49, 0x4c, 0],
    );
    expect(toHex(canonicalRdata(mx) ?? new Uint8Array())).toBe('000a046d61696c00');
  });

  it("keeps the case of NSEC's next name", () => {
    const nsec = withRdata(nsecRecord('a.example', 'B.example', ['A']), [1, 0x42, 0, 0, 1, 0x40]);
    expect(toHex(canonicalRdata(nsec) ?? new Uint8Array())).toBe('014200000140');
  });

  it('lower-cases the RRSIG signer and leaves the signature alone', () => {
    const rrsig = withRdata(rrsigRecord('example', 'A 8 1 300 1 1 1 example. AA=='), [
      ...new Array<number>(18).fill(0),
      1,
      0x45,
      0,
      0x45,
    ]);
    expect(toHex(canonicalRdata(rrsig) ?? new Uint8Array()).slice(36)).toBe('01650045');
  });

  it('is undefined without RDATA', () => {
    const { rdata: _none, ...bare } = mxRecord('example.com', 300, 10, 'mail.example.com');
    expect(canonicalRdata(bare)).toBeUndefined();
  });
});

describe('presentRecord', () => {
  it.each<[DnsRecord, string]>([
    [mxRecord('example.com', 300, 10, 'mail.example.com'), 'example.com. 300 IN MX 10 mail.example.com.'],
    [
      nsecRecord('a.example', 'b.example', ['A', 'RRSIG', 'NSEC']),
      'a.example. 3600 IN NSEC b.example. A RRSIG NSEC',
    ],
    [
      rrsigRecord('example', 'A 8 1 300 20300101000000 20000101000000 9033 example. AA=='),
      'example. 300 IN RRSIG A 8 1 300 20300101000000 20000101000000 9033 example. AA==',
    ],
    [
      { type: 'DS', name: '', ttl: 1, keyTag: 20326, algorithm: 8, digestType: 2, digest: 'e06d' },
      '. 1 IN DS 20326 8 2 E06D',
    ],
  ])('%j', (record, line) => {
    expect(presentRecord(record)).toBe(line);
  });
});
