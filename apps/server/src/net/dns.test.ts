import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildDnssecLab,
  dnssecLabNames as names,
  startDnsServer,
  type DnssecLab,
  type LabDnsServer,
} from '@rfckit/testlab';
import { createDnsClient, normalizeQueryName, parseDnsServer, type DnsClient } from './dns.ts';

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

describe('DNS client with DNSSEC records, on the signed lab', () => {
  let lab: DnssecLab;
  let server: LabDnsServer;
  let dns: DnsClient;

  beforeAll(async () => {
    lab = await buildDnssecLab({
      extraRecords: { [names.secure]: [`out.${names.secure}. 300 IN CNAME www.example.test.`] },
    });
    server = await startDnsServer({
      zones: { 'www.example.test': { A: '127.0.0.9' } },
      signedZones: lab.zones,
    });
    dns = createDnsClient({ servers: [server.address], timeoutMs: 300, attempts: 1 });
  }, 60_000);
  afterAll(() => server?.close());

  it('gives every record its RDATA and the answer section, RRSIGs included', async () => {
    const result = await dns.query(`www.${names.secure}`, 'A', { dnssec: true });
    if (result.status !== 'ok') throw new Error(result.status);
    expect(result.records).toMatchObject([{ address: '127.0.0.1', rdata: 'fwAAAQ==' }]);
    expect(result.signatures).toHaveLength(1);
    const [signature] = result.signatures;
    expect(signature).toMatchObject({ typeCovered: 'A', algorithm: 13, labels: 3, signerName: names.secure });
    // the RRSIG RDATA: type covered 1, algorithm 13, 3 labels, and the signer's name in full
    const rdata = Buffer.from(signature!.rdata!, 'base64');
    expect([...rdata.subarray(0, 4)]).toEqual([0, 1, 13, 3]);
    expect(rdata.subarray(18, 31)).toEqual(Buffer.from('\x06secure\x04test\x00', 'latin1'));
    expect(result.sections?.answer.map((r) => r.type)).toEqual(['A', 'RRSIG']);
    expect(result.sections?.authority).toEqual([]);
  });

  it('leaves RDATA, sections and signatures out without the DO bit', async () => {
    const result = await dns.query(`www.${names.secure}`, 'A');
    expect(result).toMatchObject({ status: 'ok', signatures: [] });
    expect(result).not.toHaveProperty('sections');
    if (result.status === 'ok') expect(result.records[0]).not.toHaveProperty('rdata');
  });

  it('brings the NSEC3 records of an NXDOMAIN proof, each with its RRSIG', async () => {
    const result = await dns.query(`missing.${names.nsec3}`, 'A', { dnssec: true });
    if (result.status !== 'nxdomain') throw new Error(result.status);
    expect(result.soa?.rdata).toBeDefined();
    const authority = result.sections?.authority ?? [];
    const nsec3 = authority.filter((r) => r.type === 'NSEC3');
    // closest encloser (the apex), next closer and wildcard: two or three records, one may serve twice
    expect(nsec3.length).toBeGreaterThanOrEqual(2);
    for (const record of nsec3) {
      expect(record).toMatchObject({ hashAlgorithm: 1, iterations: 0, salt: '' });
      expect(authority).toContainEqual(
        expect.objectContaining({ type: 'RRSIG', name: record.name, typeCovered: 'NSEC3' }),
      );
    }
    expect(authority.filter((r) => r.type === 'SOA')).toHaveLength(1);
  });

  it('has the parent answer DS, and prove an unsigned delegation with NSEC', async () => {
    const ds = await dns.query(names.secure, 'DS', { dnssec: true });
    if (ds.status !== 'ok') throw new Error(ds.status);
    expect(ds.records).toMatchObject([{ algorithm: 13, digestType: 2 }]);
    expect(ds.signatures).toMatchObject([{ signerName: 'test' }]);

    const none = await dns.query(names.unsigned, 'DS', { dnssec: true });
    if (none.status !== 'nodata') throw new Error(none.status);
    const nsec = none.sections?.authority.find((r) => r.type === 'NSEC');
    expect(nsec).toMatchObject({ name: names.unsigned });
    expect(nsec?.type === 'NSEC' && nsec.types).toContain('NS');
    expect(nsec?.type === 'NSEC' && nsec.types).not.toContain('DS');
  });

  it('serves a wildcard answer under the name asked, with the RRSIG as signed and the NSEC of no closer match', async () => {
    const result = await dns.query(names.wildcard, 'A', { dnssec: true });
    if (result.status !== 'ok') throw new Error(result.status);
    expect(result.records).toMatchObject([{ name: names.wildcard, address: '127.0.0.1' }]);
    // RFC 4034 §3.1.3: the labels of *.wild.rsa.test, fewer than the owner's
    expect(result.signatures).toMatchObject([{ labels: 3, algorithm: 8 }]);
    expect(result.sections?.authority.map((r) => r.type)).toEqual(['NSEC', 'RRSIG']);
  });

  it('keeps the sections of every answer along a CNAME chain followed over two responses', async () => {
    const result = await dns.query(`out.${names.secure}`, 'A', { dnssec: true });
    if (result.status !== 'ok') throw new Error(result.status);
    expect(result.records).toMatchObject([{ address: '127.0.0.9' }]);
    expect(result.cnames).toMatchObject([{ target: 'www.example.test' }]);
    expect(result.cnames[0]?.rdata).toBeDefined();
    expect(result.sections?.answer.map((r) => `${r.name} ${r.type}`)).toEqual([
      `out.${names.secure} CNAME`,
      `out.${names.secure} RRSIG`,
      'www.example.test A',
    ]);
  });

  it('refers a name below a zone the lab does not serve to it, with the DS that secures it', async () => {
    const parentsOnly = lab.zones.filter((zone) => /^(?:\.|test\.)\s+\d+\s+IN\s+SOA\s/m.test(zone));
    expect(parentsOnly).toHaveLength(2);
    const referring = await startDnsServer({ zones: {}, signedZones: parentsOnly });
    try {
      const client = createDnsClient({ servers: [referring.address], timeoutMs: 1000, attempts: 1 });
      const result = await client.query(`www.${names.secure}`, 'A', { dnssec: true });
      expect(result).toMatchObject({ status: 'nodata', authenticated: false });
      if (result.status !== 'nodata') return;
      expect(result).not.toHaveProperty('soa');
      expect(result.sections?.authority.map((r) => `${r.name} ${r.type}`)).toEqual([
        `${names.secure} NS`,
        `${names.secure} DS`,
        `${names.secure} RRSIG`,
      ]);
    } finally {
      await referring.close();
    }
  });

  it('fails a signed name as its switches say', async () => {
    server.setSwitches(names.secure, { timeout: ['DNSKEY'] });
    server.setSwitches(`www.${names.nsec3}`, { servfail: true });
    try {
      expect(await dns.query(names.secure, 'DNSKEY', { dnssec: true })).toMatchObject({ status: 'timeout' });
      expect(await dns.query(names.secure, 'A', { dnssec: true })).toMatchObject({ status: 'ok' });
      expect(await dns.query(`www.${names.nsec3}`, 'A', { dnssec: true })).toMatchObject({
        status: 'servfail',
      });
    } finally {
      server.setSwitches(names.secure, undefined);
      server.setSwitches(`www.${names.nsec3}`, undefined);
    }
  });
});
