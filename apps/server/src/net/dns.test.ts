import { describe, expect, it } from 'vitest';
import { normalizeQueryName, parseDnsServer } from './dns.ts';

describe('parseDnsServer', () => {
  it.each([
    ['192.0.2.53', { host: '192.0.2.53', port: 53, family: 4, label: '192.0.2.53:53' }],
    ['127.0.0.1:5353', { host: '127.0.0.1', port: 5353, family: 4, label: '127.0.0.1:5353' }],
    [' 127.0.0.1:5353 ', { host: '127.0.0.1', port: 5353, family: 4, label: '127.0.0.1:5353' }],
    ['::1', { host: '::1', port: 53, family: 6, label: '[::1]:53' }],
    ['2001:db8::53', { host: '2001:db8::53', port: 53, family: 6, label: '[2001:db8::53]:53' }],
    ['[::1]', { host: '::1', port: 53, family: 6, label: '[::1]:53' }],
    ['[2001:db8::53]:5300', { host: '2001:db8::53', port: 5300, family: 6, label: '[2001:db8::53]:5300' }],
  ])('reads %s', (text, expected) => {
    expect(parseDnsServer(text)).toEqual(expected);
  });

  it.each([
    '',
    'dns.example.com',
    'dns.example.com:53',
    '127.0.0.1:0',
    '127.0.0.1:65536',
    '[127.0.0.1]:53',
    '300.0.0.1',
    '::1:53x',
  ])('refuses %j', (text) => {
    expect(parseDnsServer(text)).toBeUndefined();
  });
});

describe('normalizeQueryName', () => {
  it.each([
    ['Example.COM.', 'example.com'],
    ['_dmarc.example.com', '_dmarc.example.com'],
    ['*.example.com', '*.example.com'],
    ['.', '.'],
    ['', '.'],
    ['bücher.example', 'xn--bcher-kva.example'],
    [`${'a'.repeat(63)}.example`, `${'a'.repeat(63)}.example`],
    // RFC 2181 §11: a label may hold any octet; printable ASCII stays, others are escaped
    ['macro%percent  space%20url-space.example.com', 'macro%percent\\032\\032space%20url-space.example.com'],
    ['with space.example', 'with\\032space.example'],
    ['a\\.b.example', 'a\\.b.example'],
    ['back\\\\slash.example', 'back\\\\slash.example'],
    ['\\065\\032B.Example', 'a\\032b.example'],
    ['\\s.example', 's.example'],
    ['\\000\\255.example', '\\000\\255.example'],
    // not a host name, so no IDNA: the characters' UTF-8 octets
    ['bü cher.example', 'b\\195\\188\\032cher.example'],
    [`${'\\032'.repeat(63)}.example`, `${'\\032'.repeat(63)}.example`],
  ])('%j asks for %j', (input, expected) => {
    expect(normalizeQueryName(input)).toBe(expected);
  });

  it.each([
    'a..b',
    '.leading',
    `${'a'.repeat(64)}.example`,
    `${'abcd.'.repeat(51)}com`,
    `${'\\032'.repeat(64)}.example`,
    `${'a b.'.repeat(63)}com`,
    'bad\\256.example',
    'ends.in\\',
    'a.\\12.example',
  ])('refuses %j', (input) => {
    expect(normalizeQueryName(input)).toBeUndefined();
  });
});
