import { describe, expect, it } from 'vitest';
import {
  classifyAddress,
  createAddressPolicy,
  isLocalhostName,
  parseCidrList,
  parseHostInput,
  parseUrlHost,
  type AddressCategory,
} from './address.ts';

describe('classifyAddress', () => {
  // [address, category, words the reason must contain]
  const refused: [string, AddressCategory, string][] = [
    ['127.0.0.1', 'loopback', 'loopback address'],
    ['127.255.255.254', 'loopback', 'loopback address'],
    ['::1', 'loopback', 'loopback address'],
    ['10.0.0.1', 'private', 'private address'],
    ['10.255.255.255', 'private', 'private address'],
    ['172.16.0.1', 'private', 'private address'],
    ['172.31.255.255', 'private', 'private address'],
    ['192.168.1.1', 'private', 'private address'],
    ['fc00::1', 'private', 'unique local'],
    ['fdff:ffff::1', 'private', 'unique local'],
    ['fec0::1', 'private', 'site-local'],
    ['169.254.169.254', 'link-local', 'link-local address'],
    ['fe80::1', 'link-local', 'link-local address'],
    ['febf::1', 'link-local', 'link-local address'],
    ['100.64.0.1', 'cgnat', 'carrier-grade NAT'],
    ['100.127.255.255', 'cgnat', 'carrier-grade NAT'],
    ['224.0.0.1', 'multicast', 'multicast address'],
    ['239.255.255.250', 'multicast', 'multicast address'],
    ['ff02::1', 'multicast', 'multicast address'],
    ['0.0.0.0', 'unspecified', 'unspecified'],
    ['0.1.2.3', 'unspecified', 'unspecified'],
    ['::', 'unspecified', 'unspecified address'],
    ['255.255.255.255', 'broadcast', 'broadcast address'],
    ['192.0.2.10', 'documentation', 'documentation address'],
    ['198.51.100.7', 'documentation', 'documentation address'],
    ['203.0.113.200', 'documentation', 'documentation address'],
    ['2001:db8::1', 'documentation', 'documentation address'],
    ['3fff::1', 'documentation', 'documentation address'],
    ['198.18.0.1', 'benchmarking', 'benchmarking address'],
    ['198.19.255.255', 'benchmarking', 'benchmarking address'],
    ['2001:2::1', 'benchmarking', 'benchmarking address'],
    ['192.0.0.8', 'reserved', 'IETF protocol assignment'],
    ['192.88.99.1', 'reserved', '6to4 relay'],
    ['240.0.0.1', 'reserved', 'reserved address'],
    ['100::1', 'reserved', 'discard-only'],
    ['2001:10::1', 'reserved', 'IETF protocol assignment'],
    ['5f00::1', 'reserved', 'segment routing'],
    ['4000::1', 'reserved', 'outside global unicast'],
    // IPv4 carried inside IPv6
    ['::ffff:127.0.0.1', 'loopback', 'IPv4-mapped form of 127.0.0.1 (loopback address)'],
    ['::ffff:7f00:1', 'loopback', 'IPv4-mapped form of 127.0.0.1'],
    ['::ffff:a9fe:a9fe', 'link-local', 'IPv4-mapped form of 169.254.169.254'],
    ['::ffff:0:0', 'unspecified', 'IPv4-mapped form of 0.0.0.0'],
    ['::127.0.0.1', 'loopback', 'IPv4-compatible form of 127.0.0.1'],
    ['::ffff:0:a00:1', 'private', 'IPv4-translated form of 10.0.0.1'],
    ['64:ff9b::7f00:1', 'loopback', 'NAT64 form of 127.0.0.1'],
    ['64:ff9b::192.168.0.1', 'private', 'NAT64 form of 192.168.0.1'],
    ['64:ff9b:1::a9fe:a9fe', 'link-local', 'NAT64 form of 169.254.169.254'],
    ['2002:7f00:1::1', 'loopback', '6to4 form of 127.0.0.1'],
    ['2002:c0a8:101::', 'private', '6to4 form of 192.168.1.1'],
    // Teredo: server 65.54.227.120 in clear, client 127.0.0.1 inverted (0x80ff:fffe)
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback', 'Teredo form of 127.0.0.1'],
    ['2001:0:a00:1::', 'private', 'Teredo form of 10.0.0.1'],
    // deprecated or local-only forms are refused even around a public address
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'tunnel', 'Teredo tunnel address'],
    ['64:ff9b:1::808:808', 'nat64', 'local-use NAT64'],
    ['::8.8.8.8', 'reserved', 'IPv4-compatible'],
  ];

  it.each(refused)('refuses %s as %s', (address, category, words) => {
    const verdict = classifyAddress(address);
    expect(verdict?.category).toBe(category);
    expect(verdict?.reason).toContain(words);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.167.255.255',
    '169.253.255.255',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2a00:1450:4001::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('allows the public address %s', (address) => {
    expect(classifyAddress(address)).toBeUndefined();
  });

  it.each(['127.1', '2130706433', 'localhost', 'fe80::1%eth0', '1.2.3.4.5', ''])(
    'refuses %s, which is no address literal',
    (text) => {
      expect(classifyAddress(text)?.reason).toBe('not an IP address');
    },
  );
});

describe('createAddressPolicy', () => {
  it('refuses special addresses by default and says why', () => {
    const policy = createAddressPolicy();
    expect(policy.check('127.0.0.1')).toEqual({
      address: '127.0.0.1',
      allowed: false,
      blocked: { category: 'loopback', reason: 'loopback address' },
    });
    expect(policy.check('8.8.4.4')).toEqual({ address: '8.8.4.4', allowed: true });
  });

  it('lets OUTBOUND_ALLOW ranges through, including IPv4-mapped forms of them', () => {
    const policy = createAddressPolicy(parseCidrList('127.0.0.0/8, fd00::/8'));
    expect(policy.allow).toEqual(['127.0.0.0/8', 'fd00::/8']);
    expect(policy.check('127.0.0.1')).toMatchObject({ allowed: true, exemptedBy: '127.0.0.0/8' });
    expect(policy.check('127.9.8.7')).toMatchObject({ allowed: true, exemptedBy: '127.0.0.0/8' });
    expect(policy.check('::ffff:7f00:1')).toMatchObject({
      address: '::ffff:127.0.0.1',
      allowed: true,
      exemptedBy: '127.0.0.0/8',
    });
    expect(policy.check('fd12::1')).toMatchObject({ allowed: true, exemptedBy: 'fd00::/8' });
    expect(policy.check('::1')).toMatchObject({ allowed: false, blocked: { category: 'loopback' } });
    expect(policy.check('10.0.0.1')).toMatchObject({ allowed: false, blocked: { category: 'private' } });
    expect(policy.check('fc00::1')).toMatchObject({ allowed: false });
  });

  it('takes single addresses as host ranges', () => {
    const policy = createAddressPolicy(parseCidrList('127.0.0.2'));
    expect(policy.check('127.0.0.2').allowed).toBe(true);
    expect(policy.check('127.0.0.1').allowed).toBe(false);
  });
});

describe('parseCidrList', () => {
  it('ignores blanks and spaces', () => {
    expect(
      parseCidrList(' 10.0.0.0/8 ,, ::1/128 ').map(([base, bits]) => `${base.toString()}/${bits}`),
    ).toEqual(['10.0.0.0/8', '::1/128']);
  });

  it.each(['127.0.0.0/33', '127.1/8', 'example.org', '10.0.0.0/x', '::1/129', '10.0.0.0/8/8'])(
    'rejects %s',
    (entry) => {
      expect(() => parseCidrList(`127.0.0.0/8,${entry}`)).toThrow(
        `"${entry}" is not an IP address or CIDR range`,
      );
    },
  );
});

describe('hosts as the URL parser reads them', () => {
  // the numeric IPv4 forms a browser accepts all end up as dotted decimal in URL.hostname
  it.each([
    ['http://127.0.0.1/', '127.0.0.1'],
    ['http://2130706433/', '127.0.0.1'],
    ['http://0177.0.0.1/', '127.0.0.1'],
    ['http://0x7f000001/', '127.0.0.1'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://127.1/', '127.0.0.1'],
    ['http://0300.0250.1/', '192.168.0.1'],
    ['http://0xa9fea9fe/', '169.254.169.254'],
    ['http://[::1]/', '::1'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:127.0.0.1'],
    ['http://[0:0:0:0:0:ffff:7f00:1]/', '::ffff:127.0.0.1'],
  ])('%s is the address %s', (url, address) => {
    const host = parseUrlHost(new URL(url).hostname);
    expect(host).toEqual({ kind: 'address', address });
    expect(classifyAddress(address)).toBeDefined();
  });

  it('reads names lower-case, punycoded, without the trailing dot', () => {
    expect(parseUrlHost(new URL('http://WWW.Example.ORG./').hostname)).toEqual({
      kind: 'name',
      name: 'www.example.org',
    });
    expect(parseUrlHost(new URL('http://bücher.example/').hostname)).toEqual({
      kind: 'name',
      name: 'xn--bcher-kva.example',
    });
  });

  it('parses hosts typed without a scheme', () => {
    expect(parseHostInput('0x7f.1')).toEqual({ kind: 'address', address: '127.0.0.1' });
    expect(parseHostInput('::1')).toEqual({ kind: 'address', address: '::1' });
    expect(parseHostInput('[::ffff:a00:1]')).toEqual({ kind: 'address', address: '::ffff:10.0.0.1' });
    expect(parseHostInput(' Example.org ')).toEqual({ kind: 'name', name: 'example.org' });
    for (const bad of ['', 'a b', 'example.org/path', 'user@example.org', 'example.org:443', '1.2.3.4.5'])
      expect(parseHostInput(bad)).toBeUndefined();
  });

  it('knows localhost names', () => {
    expect(isLocalhostName('localhost')).toBe(true);
    expect(isLocalhostName('app.localhost')).toBe(true);
    expect(isLocalhostName('localhost.example.org')).toBe(false);
    expect(isLocalhostName('notlocalhost')).toBe(false);
  });
});
