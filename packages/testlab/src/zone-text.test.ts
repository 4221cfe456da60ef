import { describe, expect, it } from 'vitest';
import { compareCanonical, nsec3HashOf } from './signed-zones.ts';
import { parseZoneText } from './zone-text.ts';

describe('parseZoneText', () => {
  it('writes the NSEC of RFC 4034 §4.3 as the RFC does', () => {
    const [record] = parseZoneText(
      'alfa.example.com. 86400 IN NSEC host.example.com. ( A MX RRSIG NSEC TYPE1234 )\n',
    );
    const expected = Buffer.concat([
      Buffer.from('04686f7374076578616d706c6503636f6d00', 'hex'),
      Buffer.from('0006400100000003', 'hex'),
      Buffer.from('041b', 'hex'),
      Buffer.alloc(26),
      Buffer.from('20', 'hex'),
    ]);
    expect(record).toMatchObject({ owner: 'alfa.example.com', type: 'NSEC', typeCode: 47, ttl: 86400 });
    expect(record!.rdata).toEqual(expected);
  });

  it('reads the types of a signed zone', () => {
    const records = parseZoneText(
      [
        '; as dnssec-signzone -O full writes it',
        '$TTL 60',
        'a.test. IN AAAA 2001:db8::1',
        'a.test. 300 IN TXT "v=spf1 -all" "a\\"b\\059"',
        'a.test. 300 IN RRSIG A 13 2 300 20350101000000 1700000000 12345 Test. AAEC',
        'test. 300 IN NSEC3 1 1 0 - 0P9MHAVEQVM6T7VBL5LOP2U3T2RP3TOM A RRSIG',
        'test. 0 IN NSEC3PARAM 1 0 12 AABBCCDD',
        'test. 300 IN TYPE65534 \\# 3 0a0b0c',
      ].join('\n'),
    );
    const txt = ['0b', Buffer.from('v=spf1 -all').toString('hex'), '04', Buffer.from('a"b;').toString('hex')];
    expect(records.map((r) => [r.owner, r.ttl, r.type, r.rdata.toString('hex')])).toEqual([
      ['a.test', 60, 'AAAA', '20010db8000000000000000000000001'],
      ['a.test', 300, 'TXT', txt.join('')],
      // covers A, algorithm 13, 2 labels, TTL 300, 2035-01-01, 1700000000, tag 12345, signer as written
      ['a.test', 300, 'RRSIG', '00010d020000012c7a432b806553f1003039045465737400000102'],
      // the hash in 20 octets, then the bit map of A and RRSIG
      [
        'test',
        300,
        'NSEC3',
        '0101000000' + '14065368abeed7ec6e9feba96b8c8bc3e8b791f716' + '0006400000000002',
      ],
      ['test', 0, 'NSEC3PARAM', '0100000c04aabbccdd'],
      ['test', 300, 'TYPE65534', '0a0b0c'],
    ]);
  });

  it('names the line of a record it cannot read', () => {
    expect(() => parseZoneText('a.test. 300 IN A 127.0.0.1\n\na.test. 300 IN A 300.0.0.1\n')).toThrow(
      /^zone line 3: "300.0.0.1" is not an IPv4 address$/,
    );
    expect(() => parseZoneText('a.test 300 IN A 127.0.0.1')).toThrow(
      /zone line 1: owner a.test is not an absolute name/,
    );
  });
});

describe('NSEC3 hashes and canonical order', () => {
  it.each([
    ['example', '0p9mhaveqvm6t7vbl5lop2u3t2rp3tom'],
    ['a.example', '35mthgpgcu1qg68fab165klnsnk3dpvl'],
    ['*.w.example', 'r53bq7cc2uvmubfu5ocmm6pers9tk9en'],
  ])('hashes %s as RFC 5155 appendix A does', (name, hash) => {
    expect(nsec3HashOf(name, Buffer.from('aabbccdd', 'hex'), 12)).toBe(hash);
  });

  it('orders names as RFC 4034 §6.1 lists them', () => {
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
    expect([...ordered].reverse().sort(compareCanonical)).toEqual(ordered);
  });
});
