import { describe, expect, it } from 'vitest';
import {
  dottedIp,
  formatIp,
  ipInNetwork,
  networkAddress,
  parseClientIp,
  parseIp4,
  parseIp6,
  reverseName,
} from './ip.ts';

describe('parseIp4 (RFC 7208 §5.6 ip4-network)', () => {
  it.each([
    ['192.0.2.1', [192, 0, 2, 1]],
    ['0.0.0.0', [0, 0, 0, 0]],
    ['255.255.255.255', [255, 255, 255, 255]],
  ])('reads %s', (text, bytes) => {
    expect([...(parseIp4(text)?.bytes ?? [])]).toEqual(bytes);
  });

  it.each(['192.0.2', '192.0.2.01', '256.0.0.1', '1.2.3.4.5', '1.2.3.4:25', ' 1.2.3.4', '1.2.3.-1', ''])(
    'rejects %j',
    (text) => {
      expect(parseIp4(text)).toBeUndefined();
    },
  );
});

describe('parseIp6 (RFC 4291 §2.2)', () => {
  it.each([
    ['2001:db8::1', '2001:db8::1'],
    ['2001:DB8:0:0:8:800:200C:417A', '2001:db8::8:800:200c:417a'],
    ['::', '::'],
    ['::1', '::1'],
    ['1::', '1::'],
    ['::1.1.1.1', '::101:101'],
    ['CAFE:BABE::192.168.218.40', 'cafe:babe::c0a8:da28'],
    ['1:2:3:4:5:6:1.2.3.4', '1:2:3:4:5:6:102:304'],
    ['1:0:0:1:0:0:0:1', '1:0:0:1::1'],
    ['1:0:0:0:1:0:0:1', '1::1:0:0:1'],
    ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'],
  ])('reads %s as %s (RFC 5952 form)', (text, formatted) => {
    const ip = parseIp6(text);
    expect(ip).toBeDefined();
    expect(formatIp(ip!)).toBe(formatted);
  });

  it.each([
    ':CAFE::BABE',
    '::CAFE::BABE',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7',
    '12345::',
    'g::1',
    '::1.2.3',
    '1.2.3.4',
  ])('rejects %j', (text) => {
    expect(parseIp6(text)).toBeUndefined();
  });
});

describe('parseClientIp', () => {
  it('reads an IPv4-mapped IPv6 address as IPv4 (RFC 7208 §5)', () => {
    const ip = parseClientIp('::FFFF:1.2.3.4');
    expect(ip?.version).toBe(4);
    expect(formatIp(ip!)).toBe('1.2.3.4');
    expect(parseClientIp('::ffff:c000:0201')?.version).toBe(4);
    expect(parseClientIp('::1.2.3.4')?.version).toBe(6);
    expect(parseClientIp('not an address')).toBeUndefined();
  });
});

describe('prefix matching', () => {
  const ip = parseClientIp('192.0.2.130')!;
  it.each([
    ['192.0.2.0', 24, true],
    ['192.0.2.128', 25, true],
    ['192.0.2.0', 25, false],
    ['10.0.0.0', 0, true],
    ['192.0.2.130', 32, true],
    ['192.0.2.131', 32, false],
    ['192.0.2.131', 31, true],
  ] as const)('192.0.2.130 in %s/%i: %s', (network, prefix, expected) => {
    expect(ipInNetwork(ip, parseIp4(network)!, prefix)).toBe(expected);
  });

  it('never matches the other family, even with /0', () => {
    expect(ipInNetwork(ip, parseIp6('::')!, 0)).toBe(false);
    expect(ipInNetwork(parseIp6('2001:db8::1')!, parseIp6('2001:db8::')!, 32)).toBe(true);
    expect(ipInNetwork(parseIp6('2001:db9::1')!, parseIp6('2001:db8::')!, 32)).toBe(false);
  });

  it('clears host bits', () => {
    expect(formatIp(networkAddress(parseIp4('192.0.2.130')!, 25))).toBe('192.0.2.128');
    expect(formatIp(networkAddress(parseIp6('2001:db8:ffff::1')!, 33))).toBe('2001:db8:8000::');
  });
});

describe('macro and PTR forms (RFC 7208 §7.3, §5.5)', () => {
  it('writes IPv4 dotted and IPv6 as dotted nibbles', () => {
    expect(dottedIp(parseIp4('192.0.2.3')!)).toBe('192.0.2.3');
    // RFC 7208 §7.4: 2001:db8::cb01
    expect(dottedIp(parseIp6('2001:db8::cb01')!)).toBe(
      '2.0.0.1.0.d.b.8.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.c.b.0.1',
    );
  });

  it('names the reverse zone entries', () => {
    expect(reverseName(parseIp4('192.0.2.3')!)).toBe('3.2.0.192.in-addr.arpa');
    expect(reverseName(parseIp6('2001:db8::1')!)).toBe(
      '1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa',
    );
  });
});
