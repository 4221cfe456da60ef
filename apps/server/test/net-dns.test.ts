import dgram from 'node:dgram';
import { getServers } from 'node:dns';
import dnsPacket from 'dns-packet';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDnsServer, type DnsZones, type LabDnsServer } from '@rfckit/testlab';
import { createDnsClient, DnsLookupError, type DnsClient } from '../src/net/dns.ts';

const longDkim =
  'v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxKLxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo9z+40RQzuVaE8AkAFmxZzow3x+VJYKdx/F7L0IPVVkqNwxgNAhh4RcLn0HF4R7ORRhWlS6HJcNO+5Ajk3v/Xr7OhsXaJt8Oj/IhwC1f7DF18bGCkk6f4jk7pTL4lrAEF/Dvv4Pay9S+nOIDz4Fr4BHS1IDAIMRyxobvf7QIDAQAB';
const dnskey =
  'AwEAAagAIKlVZrpC6Ia7gEzahOR+9W29euxhJhVVLOyQbSEW0O8gcCjFFVQUTf6v58fLjwBd0YI0EzrAcQqBGCzh/RStIoO8g0NfnfL2MTJRkxoXbfDaUeVPQuYEhg37NZWAJQ9VnMVDxP/VHL496M/QZxkjf5/Efucp2gaDX6RS6CXpoY68LsvPVjR0ZSwzz1apAzvN9dlzEheX7ICJBBtuA6G3LQpzW5hOA2hzCTMjJPJ8LbqF6dsV6DoBQzgul0sGIcGOYl7OyQdXfZ57relSQageu+ipAdTTJ25AsRTAoub8ONGcLmqrAmRLKBP1dfwhYB4N7knNnulqQxA+Uk1ihz0=';
const pgpKey = Buffer.from('an OpenPGP transferable public key').toString('base64');
const rrsigSignature = Buffer.alloc(64, 9).toString('base64');

const zones: DnsZones = {
  'example.test': {
    A: '127.0.0.1',
    AAAA: '::1',
    MX: [
      { preference: 10, exchange: 'MX1.example.test' },
      { preference: 20, exchange: 'mx2.example.test' },
    ],
    TXT: ['v=spf1 ip4:127.0.0.1 -all', ['first half, ', 'second half']],
    NS: ['ns1.example.test', 'ns2.example.test'],
    SOA: { mname: 'ns1.example.test', rname: 'dns-admin.example.test', serial: 2026112301, minimum: 120 },
    CAA: [
      { tag: 'issue', value: 'letsencrypt.org' },
      { tag: 'iodef', value: 'mailto:security@example.test', critical: true },
    ],
    DNSKEY: { flags: 257, algorithm: 8, key: dnskey },
    CDNSKEY: { flags: 257, algorithm: 8, key: dnskey },
    DS: {
      keyTag: 20326,
      algorithm: 8,
      digestType: 2,
      digest: 'E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D',
    },
    CDS: {
      keyTag: 20326,
      algorithm: 8,
      digestType: 2,
      digest: 'E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D',
    },
  },
  'sel._domainkey.example.test': { TXT: longDkim },
  'www.example.test': { CNAME: 'web.example.test' },
  'web.example.test': { A: ['127.0.0.2', '127.0.0.3'], AAAA: '::2', ttl: 60 },
  'alias.example.test': { CNAME: 'www.example.test', ttl: 30 },
  'dangling.example.test': { CNAME: 'missing.example.test' },
  'outside.example.test': { CNAME: 'host.not-in-the-lab.invalid' },
  'loop-a.example.test': { CNAME: 'loop-b.example.test' },
  'loop-b.example.test': { CNAME: 'loop-a.example.test' },
  '_xmpp-server._tcp.example.test': {
    SRV: [
      { priority: 5, weight: 0, port: 5269, target: 'xmpp.example.test' },
      { priority: 10, weight: 60, port: 5270, target: 'backup.example.test' },
    ],
  },
  '_25._tcp.mx1.example.test': {
    TLSA: {
      usage: 3,
      selector: 1,
      matchingType: 1,
      certificate: '0C72AC70B745AC19998811B131D662C9AC69DBDBE7CB23E5B514B56664C5D3D6',
    },
  },
  'hash._smimecert.example.test': { SMIMEA: { usage: 3, selector: 0, matchingType: 0, certificate: '3082' } },
  'hash._openpgpkey.example.test': { OPENPGPKEY: pgpKey },
  'ssh.example.test': { SSHFP: { algorithm: 4, fingerprintType: 2, fingerprint: 'AB'.repeat(32) } },
  '1.0.0.127.in-addr.arpa': { PTR: 'localhost.example.test' },
  'ent.deep.example.test': { A: '127.0.0.4' },
  // RFC 2181 §11: labels with any octets, as SPF macros make them (RFC 7208 §7.3)
  'macro%percent  space%20url-space.example.test': { A: '192.0.2.7' },
  'dot\\.in-label.example.test': { TXT: 'one label with a dot' },
  'dot.in-label.example.test': { TXT: 'two labels' },
  'bü cher.example.test': { TXT: 'UTF-8 octets' },
  '\\000\\255.example.test': { TXT: 'no text at all' },
  'v6only.example.test': { AAAA: ['::3', '::4'] },
  'textonly.example.test': { TXT: 'no address here' },
  'broken.example.test': { A: '127.0.0.1', servfail: true },
  'refusing.example.test': { rcode: 'REFUSED' },
  'silent.example.test': { A: '127.0.0.1', timeout: true },
  'half-silent.example.test': { A: '127.0.0.5', timeout: ['AAAA'] },
  'big.example.test': { TXT: 'fits easily, but the lab truncates it over UDP', truncate: true },
  'huge.example.test': { TXT: Array.from({ length: 20 }, (_, i) => `record ${i} ${'x'.repeat(100)}`) },
  'signed.example.test': {
    A: '127.0.0.6',
    authenticated: true,
    RRSIG: [
      {
        typeCovered: 'A',
        algorithm: 13,
        labels: 3,
        originalTtl: 300,
        expiration: 1_900_000_000,
        inception: 1_700_000_000,
        keyTag: 4242,
        signerName: 'example.test',
        signature: rrsigSignature,
      },
    ],
  },
  'insecure.example.test': { A: '127.0.0.7' },
};

let lab: LabDnsServer;
let dns: DnsClient;
beforeAll(async () => {
  lab = await startDnsServer({ zones });
  dns = createDnsClient({ servers: [lab.address], timeoutMs: 300, attempts: 2 });
});
afterAll(async () => {
  await lab.close();
});
beforeEach(() => {
  lab.clearQueries();
});

/** A UDP socket on loopback that reads queries and, by default, never answers. */
async function fakeServer(
  reply: (query: dnsPacket.DecodedPacket, send: (message: Buffer) => void) => void = () => {},
) {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  let received = 0;
  socket.on('message', (message, remote) => {
    received++;
    reply(dnsPacket.decode(message), (out) => socket.send(out, remote.port, remote.address));
  });
  return {
    address: `127.0.0.1:${socket.address().port}`,
    received: () => received,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

describe('DNS client: record types', () => {
  it('reads A and AAAA', async () => {
    expect(await dns.query('example.test', 'A')).toMatchObject({
      status: 'ok',
      rcode: 'NOERROR',
      name: 'example.test',
      records: [{ type: 'A', name: 'example.test', address: '127.0.0.1', ttl: 300 }],
      ttl: 300,
      authenticated: false,
      server: lab.address,
    });
    const aaaa = await dns.query('example.test', 'AAAA');
    expect(aaaa.status === 'ok' && aaaa.records.map((r) => r.address)).toEqual(['::1']);
  });

  it('reads MX, NS, SOA and CAA', async () => {
    const mx = await dns.query('example.test', 'MX');
    expect(
      mx.status === 'ok' && mx.records.map(({ preference, exchange }) => ({ preference, exchange })),
    ).toEqual([
      { preference: 10, exchange: 'mx1.example.test' },
      { preference: 20, exchange: 'mx2.example.test' },
    ]);
    const ns = await dns.query('example.test', 'NS');
    expect(ns.status === 'ok' && ns.records.map((r) => r.target)).toEqual([
      'ns1.example.test',
      'ns2.example.test',
    ]);
    expect(await dns.query('example.test', 'SOA')).toMatchObject({
      status: 'ok',
      records: [
        {
          type: 'SOA',
          mname: 'ns1.example.test',
          rname: 'dns-admin.example.test',
          serial: 2026112301,
          refresh: 3600,
          retry: 600,
          expire: 86400,
          minimum: 120,
        },
      ],
    });
    const caa = await dns.query('example.test', 'CAA');
    expect(
      caa.status === 'ok' &&
        caa.records.map(({ flags, critical, tag, value }) => ({ flags, critical, tag, value })),
    ).toEqual([
      { flags: 0, critical: false, tag: 'issue', value: 'letsencrypt.org' },
      { flags: 128, critical: true, tag: 'iodef', value: 'mailto:security@example.test' },
    ]);
  });

  it('reads TXT records, one per record, with split strings joined', async () => {
    const txt = await dns.query('example.test', 'TXT');
    expect(txt.status === 'ok' && txt.records.map(({ text, strings }) => ({ text, strings }))).toEqual([
      { text: 'v=spf1 ip4:127.0.0.1 -all', strings: ['v=spf1 ip4:127.0.0.1 -all'] },
      { text: 'first half, second half', strings: ['first half, ', 'second half'] },
    ]);
  });

  it('joins a TXT record longer than 255 bytes', async () => {
    const result = await dns.query('sel._domainkey.example.test', 'TXT');
    expect(result.status).toBe('ok');
    if (result.status !== 'ok') return;
    const [record] = result.records;
    expect(longDkim.length).toBeGreaterThan(255);
    expect(record?.strings.map((s) => s.length)).toEqual([255, longDkim.length - 255]);
    expect(record?.text).toBe(longDkim);
  });

  it('reads SRV, TLSA, SMIMEA, SSHFP, OPENPGPKEY and PTR', async () => {
    const srv = await dns.query('_xmpp-server._tcp.example.test', 'SRV');
    expect(
      srv.status === 'ok' &&
        srv.records.map(({ priority, weight, port, target }) => [priority, weight, port, target]),
    ).toEqual([
      [5, 0, 5269, 'xmpp.example.test'],
      [10, 60, 5270, 'backup.example.test'],
    ]);
    expect(await dns.query('_25._tcp.mx1.example.test', 'TLSA')).toMatchObject({
      status: 'ok',
      records: [
        {
          type: 'TLSA',
          usage: 3,
          selector: 1,
          matchingType: 1,
          certificate: '0c72ac70b745ac19998811b131d662c9ac69dbdbe7cb23e5b514b56664c5d3d6',
        },
      ],
    });
    expect(await dns.query('hash._smimecert.example.test', 'SMIMEA')).toMatchObject({
      status: 'ok',
      records: [{ type: 'SMIMEA', usage: 3, selector: 0, matchingType: 0, certificate: '3082' }],
    });
    expect(await dns.query('ssh.example.test', 'SSHFP')).toMatchObject({
      status: 'ok',
      records: [{ type: 'SSHFP', algorithm: 4, fingerprintType: 2, fingerprint: 'ab'.repeat(32) }],
    });
    expect(await dns.query('hash._openpgpkey.example.test', 'OPENPGPKEY')).toMatchObject({
      status: 'ok',
      records: [{ type: 'OPENPGPKEY', key: pgpKey }],
    });
    expect(await dns.query('1.0.0.127.in-addr.arpa', 'PTR')).toMatchObject({
      status: 'ok',
      records: [{ type: 'PTR', target: 'localhost.example.test' }],
    });
  });

  it('reads DNSKEY, CDNSKEY, DS and CDS', async () => {
    for (const type of ['DNSKEY', 'CDNSKEY'] as const) {
      expect(await dns.query('example.test', type)).toMatchObject({
        status: 'ok',
        records: [{ type, flags: 257, protocol: 3, algorithm: 8, key: dnskey }],
      });
    }
    for (const type of ['DS', 'CDS'] as const) {
      expect(await dns.query('example.test', type)).toMatchObject({
        status: 'ok',
        records: [
          {
            type,
            keyTag: 20326,
            algorithm: 8,
            digestType: 2,
            digest: 'e06d44b80b8f1d39a95c0b0d7c65d08458e880409bbc683457104237c7f8ec8d',
          },
        ],
      });
    }
  });

  it('reads a CNAME when asked for one, and follows it otherwise', async () => {
    expect(await dns.query('www.example.test', 'CNAME')).toMatchObject({
      status: 'ok',
      records: [{ type: 'CNAME', name: 'www.example.test', target: 'web.example.test' }],
      cnames: [],
    });
    const followed = await dns.query('alias.example.test', 'A');
    expect(followed).toMatchObject({
      status: 'ok',
      name: 'alias.example.test',
      canonicalName: 'web.example.test',
      cnames: [
        { name: 'alias.example.test', target: 'www.example.test', ttl: 30 },
        { name: 'www.example.test', target: 'web.example.test', ttl: 300 },
      ],
      ttl: 30,
    });
    expect(followed.status === 'ok' && followed.records.map((r) => [r.name, r.address])).toEqual([
      ['web.example.test', '127.0.0.2'],
      ['web.example.test', '127.0.0.3'],
    ]);
  });

  it('normalises the name asked for: case, trailing dot, IDN', async () => {
    expect(await dns.query('EXAMPLE.Test.', 'A')).toMatchObject({ status: 'ok', name: 'example.test' });
    expect(await dns.query('bücher.example.test', 'A')).toMatchObject({
      status: 'nxdomain',
      name: 'xn--bcher-kva.example.test',
    });
    expect(lab.queries.map((q) => q.name)).toEqual(['example.test', 'xn--bcher-kva.example.test']);
  });
});

/** A UDP server on loopback that answers each raw query with the message `reply` builds, if any. */
async function rawServer(reply: (query: Buffer) => Buffer | undefined) {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  socket.on('message', (message, remote) => {
    const out = reply(message);
    if (out) socket.send(out, remote.port, remote.address);
  });
  return {
    address: `127.0.0.1:${socket.address().port}`,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

/** Wire form of a name from its labels' octets. */
function wire(...labels: (string | number[])[]): Buffer {
  const parts = labels.map((label) =>
    typeof label === 'string' ? Buffer.from(label, 'latin1') : Buffer.from(label),
  );
  return Buffer.concat([...parts.flatMap((part) => [Buffer.from([part.length]), part]), Buffer.from([0])]);
}

/** The question's name octets of a query (no compression in a question). */
function questionName(query: Buffer): Buffer {
  let at = 12;
  while (query[at] !== 0) at += query[at]! + 1;
  return query.subarray(12, at + 1);
}

/** A response: the question echoed, then records of (owner octets, type, RDATA). */
function response(query: Buffer, records: [owner: Buffer, type: number, rdata: Buffer][]): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0);
  header.writeUInt16BE(0x8400, 2); // QR, AA
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(records.length, 6);
  const question = query.subarray(12, 12 + questionName(query).length + 4);
  const rrs = records.map(([owner, type, rdata]) => {
    const fixed = Buffer.alloc(10);
    fixed.writeUInt16BE(type, 0);
    fixed.writeUInt16BE(1, 2);
    fixed.writeUInt32BE(60, 4);
    fixed.writeUInt16BE(rdata.length, 8);
    return Buffer.concat([owner, fixed, rdata]);
  });
  return Buffer.concat([header, question, ...rrs]);
}

describe('DNS client: RDATA for validators', () => {
  it('writes compressed names in the RDATA out in full, octets as received, with the DO bit', async () => {
    const toQuestion = Buffer.from([0xc0, 0x0c]);
    const fixed = Buffer.from('002e0d020000012c7000000060000000ab12', 'hex');
    const signature = Buffer.alloc(64, 7);
    const server = await rawServer((query) =>
      response(query, [
        [toQuestion, 15, Buffer.concat([Buffer.from([0, 10, 2]), Buffer.from('MX'), toQuestion])],
        // RRSIG's signer may not be compressed (RFC 3597 §4); read liberally when it is
        [
          toQuestion,
          46,
          Buffer.concat([Buffer.from('000f0d020000003c', 'hex'), fixed.subarray(8), toQuestion, signature]),
        ],
      ]),
    );
    try {
      const client = createDnsClient({ servers: [server.address], timeoutMs: 1000, attempts: 1 });
      const result = await client.query('Example.test', 'MX', { dnssec: true });
      if (result.status !== 'ok') throw new Error(result.status);
      const full = wire('example', 'test');
      expect(Buffer.from(result.records[0]!.rdata!, 'base64')).toEqual(
        Buffer.concat([Buffer.from([0, 10, 2]), Buffer.from('MX'), full]),
      );
      expect(result.records[0]).toMatchObject({ exchange: 'mx.example.test' });
      const rrsig = Buffer.from(result.signatures[0]!.rdata!, 'base64');
      expect(rrsig.subarray(18)).toEqual(Buffer.concat([full, signature]));
      expect(result.sections?.answer.map((r) => r.type)).toEqual(['MX', 'RRSIG']);
    } finally {
      await server.close();
    }
  });
});

describe('DNS client: names with any octets (RFC 2181 §11)', () => {
  it('asks for spaces, %, a dot in a label and non-ASCII octets as written', async () => {
    const asked: Buffer[] = [];
    const server = await rawServer((query) => {
      asked.push(Buffer.from(questionName(query)));
      return response(query, []);
    });
    try {
      const client = createDnsClient({ servers: [server.address], timeoutMs: 1000, attempts: 1 });
      for (const name of [
        'macro%percent  space%20url-space.example.com',
        'sp ace\\.%\\255é.Test.',
        '\\000\\032\\\\.test',
      ]) {
        expect(await client.query(name, 'TXT')).toMatchObject({ status: 'nodata' });
      }
      expect(asked).toEqual([
        wire('macro%percent  space%20url-space', 'example', 'com'),
        wire([...Buffer.from('sp ace.%'), 0xff, 0xc3, 0xa9], 'test'),
        wire([0, 0x20, 0x5c], 'test'),
      ]);
    } finally {
      await server.close();
    }
  });

  it('takes the records whose owner has the same octets, ASCII case aside, and no others', async () => {
    const label = [...Buffer.from('sp ace.%'), 0xff];
    const server = await rawServer((query) =>
      response(query, [
        [Buffer.from([0xc0, 12]), 1, Buffer.from([192, 0, 2, 1])], // a pointer to the question
        [wire([...Buffer.from('SP ACE.%'), 0xff], 'TEST'), 1, Buffer.from([192, 0, 2, 2])],
        [wire([...Buffer.from('sp ace.%'), 0xfe], 'test'), 1, Buffer.from([192, 0, 2, 3])],
        // what a reader that splits at every dot would take for the same name
        [wire('sp ace', [...Buffer.from('%'), 0xff], 'test'), 1, Buffer.from([192, 0, 2, 4])],
        [wire([...label, 0xff], 'test'), 1, Buffer.from([192, 0, 2, 5])],
      ]),
    );
    try {
      const client = createDnsClient({ servers: [server.address], timeoutMs: 1000, attempts: 1 });
      const result = await client.query('sp ace\\.%\\255.test', 'A');
      expect(result).toMatchObject({ status: 'ok', name: 'sp\\032ace\\.%\\255.test' });
      if (result.status !== 'ok') return;
      expect(result.records.map((r) => [r.name, r.address])).toEqual([
        ['sp\\032ace\\.%\\255.test', '192.0.2.1'],
        ['sp\\032ace\\.%\\255.test', '192.0.2.2'],
      ]);
    } finally {
      await server.close();
    }
  });

  it('follows a CNAME to a target with odd octets and matches its records', async () => {
    const target = wire([0x61, 0x00, 0x2e, 0x20], 'odd', 'test');
    const server = await rawServer((query) =>
      response(query, [
        [Buffer.from([0xc0, 12]), 5, target],
        [target, 1, Buffer.from([192, 0, 2, 9])],
      ]),
    );
    try {
      const client = createDnsClient({ servers: [server.address], timeoutMs: 1000, attempts: 1 });
      expect(await client.query('alias.test', 'A')).toMatchObject({
        status: 'ok',
        canonicalName: 'a\\000\\.\\032.odd.test',
        cnames: [{ name: 'alias.test', target: 'a\\000\\.\\032.odd.test' }],
        records: [{ name: 'a\\000\\.\\032.odd.test', address: '192.0.2.9' }],
      });
    } finally {
      await server.close();
    }
  });

  it('resolves such names served by the lab', async () => {
    expect(await dns.query('macro%percent  space%20url-space.example.test', 'A')).toMatchObject({
      status: 'ok',
      records: [{ name: 'macro%percent\\032\\032space%20url-space.example.test', address: '192.0.2.7' }],
    });
    const text = async (name: string) => {
      const result = await dns.query(name, 'TXT');
      return result.status === 'ok' ? result.records.map((r) => r.text) : result.status;
    };
    expect(await text('dot\\.in-label.example.test')).toEqual(['one label with a dot']);
    expect(await text('dot.in-label.example.test')).toEqual(['two labels']);
    expect(await text('bü cher.example.test')).toEqual(['UTF-8 octets']);
    expect(await text('\\000\\255.example.test')).toEqual(['no text at all']);
    expect(await text('macro%percent space%20url-space.example.test')).toBe('nxdomain');
    expect(lab.queries.map((q) => q.name)).toEqual([
      'macro%percent\\032\\032space%20url-space.example.test',
      'dot\\.in-label.example.test',
      'dot.in-label.example.test',
      'b\\195\\188\\032cher.example.test',
      '\\000\\255.example.test',
      'macro%percent\\032space%20url-space.example.test',
    ]);
  });
});

describe('DNS client: outcomes', () => {
  it('tells NXDOMAIN, NODATA and SERVFAIL apart', async () => {
    expect(await dns.query('nothing.example.test', 'A')).toMatchObject({
      status: 'nxdomain',
      rcode: 'NXDOMAIN',
      soa: { type: 'SOA', name: 'example.test', minimum: 120 },
      ttl: 120,
    });
    expect(await dns.query('example.test', 'SRV')).toMatchObject({
      status: 'nodata',
      rcode: 'NOERROR',
      ttl: 120,
    });
    // an empty non-terminal exists
    expect(await dns.query('deep.example.test', 'A')).toMatchObject({ status: 'nodata' });
    expect(await dns.query('broken.example.test', 'A')).toMatchObject({
      status: 'servfail',
      rcode: 'SERVFAIL',
    });
  });

  it('reports REFUSED and other RCODEs as errors', async () => {
    expect(await dns.query('refusing.example.test', 'TXT')).toMatchObject({
      status: 'error',
      error: 'refused',
      rcode: 'REFUSED',
    });
    expect(await dns.query('not-served.invalid', 'A')).toMatchObject({ status: 'error', error: 'refused' });
  });

  it('reports a CNAME to a missing name as NXDOMAIN, with the chain', async () => {
    expect(await dns.query('dangling.example.test', 'A')).toMatchObject({
      status: 'nxdomain',
      name: 'dangling.example.test',
      canonicalName: 'missing.example.test',
      cnames: [{ target: 'missing.example.test' }],
    });
  });

  it('follows a CNAME that the server left unfollowed, and stops at loops', async () => {
    // the lab is authoritative only: it ends the answer at a target outside its zones
    expect(await dns.query('outside.example.test', 'A')).toMatchObject({
      status: 'error',
      error: 'refused',
      name: 'outside.example.test',
    });
    expect(lab.queries.map((q) => q.name)).toEqual(['outside.example.test', 'host.not-in-the-lab.invalid']);
    expect(await dns.query('loop-a.example.test', 'A')).toMatchObject({
      status: 'servfail',
      message: expect.stringContaining('CNAME loop'),
    });
  });

  it('reports the AD flag, and RRSIGs when DNSSEC records are asked for', async () => {
    const plain = await dns.query('signed.example.test', 'A');
    expect(plain).toMatchObject({ status: 'ok', authenticated: true, signatures: [] });
    const withDo = await dns.query('signed.example.test', 'A', { dnssec: true });
    expect(withDo).toMatchObject({
      status: 'ok',
      authenticated: true,
      records: [{ address: '127.0.0.6' }],
      signatures: [
        {
          type: 'RRSIG',
          typeCovered: 'A',
          algorithm: 13,
          labels: 3,
          originalTtl: 300,
          expiration: 1_900_000_000,
          inception: 1_700_000_000,
          keyTag: 4242,
          signerName: 'example.test',
          signature: rrsigSignature,
        },
      ],
    });
    expect(lab.queries.map((q) => [q.edns, q.dnssecOk])).toEqual([
      [true, false],
      [true, true],
    ]);
    expect(await dns.query('insecure.example.test', 'A', { dnssec: true })).toMatchObject({
      status: 'ok',
      authenticated: false,
    });
  });

  it('asks again over TCP when the UDP answer is truncated', async () => {
    const result = await dns.query('big.example.test', 'TXT');
    expect(result).toMatchObject({
      status: 'ok',
      records: [{ text: 'fits easily, but the lab truncates it over UDP' }],
    });
    expect(lab.queries.map((q) => q.transport)).toEqual(['udp', 'tcp']);

    // too large for the 1232-byte EDNS payload: truncated for real
    const huge = await dns.query('huge.example.test', 'TXT');
    expect(huge.status === 'ok' && huge.records).toHaveLength(20);
  });

  it('gives up with a timeout after the configured attempts', async () => {
    const result = await dns.query('silent.example.test', 'A');
    expect(result).toMatchObject({ status: 'timeout', reason: 'no-answer', server: lab.address });
    // the message is shown to users: our resolver's address stays in `server`, for the log
    expect(result.status === 'timeout' && result.message).toBe(
      'no answer from our DNS resolver (2 tries of 300 ms)',
    );
    expect(lab.queriesFor('silent.example.test')).toHaveLength(2);

    const once = createDnsClient({ servers: [lab.address], timeoutMs: 100, attempts: 1 });
    expect(await once.query('silent.example.test', 'A')).toMatchObject({ status: 'timeout' });
    expect(lab.queriesFor('silent.example.test')).toHaveLength(3);
  });

  it('retries on the next server when the first does not answer', async () => {
    const deaf = await fakeServer();
    try {
      const client = createDnsClient({ servers: [deaf.address, lab.address], timeoutMs: 200, attempts: 1 });
      expect(await client.query('example.test', 'A')).toMatchObject({ status: 'ok', server: lab.address });
      expect(deaf.received()).toBe(1);
    } finally {
      await deaf.close();
    }
  });

  it('retries on the next server when the first is not listening', async () => {
    const closed = await fakeServer();
    await closed.close();
    const client = createDnsClient({ servers: [closed.address, lab.address], timeoutMs: 1000, attempts: 1 });
    expect(await client.query('example.test', 'A')).toMatchObject({ status: 'ok', server: lab.address });

    const alone = createDnsClient({ servers: [closed.address], timeoutMs: 1000, attempts: 1 });
    expect(await alone.query('example.test', 'A')).toMatchObject({
      status: 'error',
      error: 'network',
      message: 'our DNS resolver could not be reached',
      server: closed.address,
    });
  });

  it('asks another server after SERVFAIL, and not the same one again', async () => {
    const second = await startDnsServer({ zones: { 'broken.example.test': { A: '127.0.0.8' } } });
    try {
      const client = createDnsClient({ servers: [lab.address, second.address], timeoutMs: 300, attempts: 2 });
      expect(await client.query('broken.example.test', 'A')).toMatchObject({
        status: 'ok',
        records: [{ address: '127.0.0.8' }],
      });
      const alone = createDnsClient({ servers: [lab.address], timeoutMs: 300, attempts: 3 });
      expect(await alone.query('broken.example.test', 'A')).toMatchObject({ status: 'servfail' });
      expect(lab.queriesFor('broken.example.test')).toHaveLength(2);
    } finally {
      await second.close();
    }
  });

  it('ignores answers with the wrong id or question, and takes the real one', async () => {
    const spoofer = await fakeServer((query, send) => {
      const question = query.questions![0]!;
      const answer = (id: number, name: string, address: string) =>
        dnsPacket.encode({
          type: 'response',
          id,
          flags: dnsPacket.AUTHORITATIVE_ANSWER,
          questions: [{ ...question, name }],
          answers: [{ type: 'A', name, ttl: 60, data: address }],
        });
      send(answer((query.id! + 1) % 65536, question.name, '192.0.2.66'));
      send(answer(query.id!, 'evil.example.test', '192.0.2.67'));
      send(answer(query.id!, question.name, '127.0.0.9'));
    });
    try {
      const client = createDnsClient({ servers: [spoofer.address], timeoutMs: 1000, attempts: 1 });
      expect(await client.query('example.test', 'A')).toMatchObject({
        status: 'ok',
        records: [{ address: '127.0.0.9' }],
      });
    } finally {
      await spoofer.close();
    }
  });

  it('keeps at most maxInFlight queries outstanding', async () => {
    let outstanding = 0;
    let most = 0;
    const slow = await fakeServer((query, send) => {
      outstanding++;
      most = Math.max(most, outstanding);
      setTimeout(() => {
        outstanding--;
        send(
          dnsPacket.encode({
            type: 'response',
            id: query.id!,
            questions: query.questions!,
            answers: [{ type: 'A', name: query.questions![0]!.name, ttl: 60, data: '127.0.0.1' }],
          }),
        );
      }, 20);
    });
    try {
      const client = createDnsClient({ servers: [slow.address], timeoutMs: 5000, maxInFlight: 2 });
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => client.query(`n${i}.example.test`, 'A')),
      );
      expect(results.map((r) => r.status)).toEqual(Array(6).fill('ok'));
      expect(slow.received()).toBe(6);
      expect(most).toBe(2);
    } finally {
      await slow.close();
    }
  });

  it('sends random query ids', async () => {
    await Promise.all(Array.from({ length: 8 }, (_, i) => dns.query(`id${i}.example.test`, 'A')));
    const ids = new Set(lab.queries.map((q) => q.id));
    expect(ids.size).toBeGreaterThan(1);
  });

  it('reports an answer it cannot read as malformed', async () => {
    const broken = await fakeServer((query, send) => {
      const reply = dnsPacket.encode({
        type: 'response',
        id: query.id!,
        questions: query.questions!,
        answers: [{ type: 'A', name: query.questions![0]!.name, ttl: 60, data: '127.0.0.1' }],
      });
      send(reply.subarray(0, reply.length - 3));
    });
    try {
      const client = createDnsClient({ servers: [broken.address], timeoutMs: 1000, attempts: 1 });
      expect(await client.query('example.test', 'A')).toMatchObject({ status: 'error', error: 'malformed' });
    } finally {
      await broken.close();
    }
  });

  it('answers a name that cannot be asked without sending anything', async () => {
    for (const name of [
      'a..b',
      'x'.repeat(64) + '.test',
      'bad\\256.test',
      'ends\\',
      `${'a.'.repeat(130)}test`,
    ]) {
      expect(await dns.query(name, 'A')).toMatchObject({ status: 'error', error: 'invalid-name' });
    }
    expect(lab.queries).toEqual([]);
  });

  it('works with a server on ::1', async () => {
    const six = await startDnsServer({ zones: { 'six.test': { AAAA: '::1', TXT: 'hello' } }, host: '::1' });
    try {
      const client = createDnsClient({ servers: [six.address], timeoutMs: 500 });
      expect(await client.query('six.test', 'AAAA')).toMatchObject({ status: 'ok', server: six.address });
    } finally {
      await six.close();
    }
  });
});

describe('DNS client: sessions', () => {
  it('answers a repeated question from the session cache', async () => {
    const session = dns.session();
    const [first, second] = await Promise.all([
      session.query('example.test', 'MX'),
      session.query('example.test', 'MX'),
    ]);
    const third = await session.query('EXAMPLE.test.', 'MX');
    expect([first.status, second.status, third.status]).toEqual(['ok', 'ok', 'ok']);
    expect(lab.queriesFor('example.test', 'MX')).toHaveLength(1);

    // DNSSEC records are a different question; another session asks again
    await session.query('example.test', 'MX', { dnssec: true });
    await dns.session().query('example.test', 'MX');
    expect(lab.queriesFor('example.test', 'MX')).toHaveLength(3);
  });

  it('keeps at most cacheSize answers', async () => {
    const session = dns.session({ cacheSize: 2 });
    await session.query('a.example.test', 'A');
    await session.query('b.example.test', 'A');
    await session.query('c.example.test', 'A'); // evicts a
    await session.query('b.example.test', 'A');
    await session.query('a.example.test', 'A');
    expect(lab.queries.map((q) => q.name)).toEqual([
      'a.example.test',
      'b.example.test',
      'c.example.test',
      'a.example.test',
    ]);
  });

  it('turns every lookup into a timeout once the budget is spent', async () => {
    const client = createDnsClient({ servers: [lab.address], timeoutMs: 5000, attempts: 3 });
    const session = client.session({ budgetMs: 200 });
    const result = await session.query('silent.example.test', 'A');
    expect(result).toMatchObject({ status: 'timeout', reason: 'budget' });
    expect(result.status === 'timeout' && result.message).toContain('200 ms');
    expect(session.remainingMs()).toBe(0);

    const after = await session.query('example.test', 'A');
    expect(after).toMatchObject({ status: 'timeout', reason: 'budget' });
    expect(lab.queriesFor('example.test')).toEqual([]);
  });
});

describe('DNS client: resolveAddresses', () => {
  it('returns A then AAAA addresses, following CNAMEs', async () => {
    expect(await dns.resolveAddresses('www.example.test')).toEqual(['127.0.0.2', '127.0.0.3', '::2']);
    expect(await dns.resolveAddresses('v6only.example.test')).toEqual(['::3', '::4']);
  });

  it('passes IP literals through without a query', async () => {
    expect(await dns.resolveAddresses('127.0.0.1')).toEqual(['127.0.0.1']);
    expect(await dns.resolveAddresses('[::1]')).toEqual(['::1']);
    expect(await dns.resolveAddresses('::ffff:127.0.0.1')).toEqual(['::ffff:127.0.0.1']);
    expect(lab.queries).toEqual([]);
  });

  it('keeps the addresses of one family when the other times out', async () => {
    expect(await dns.resolveAddresses('half-silent.example.test')).toEqual(['127.0.0.5']);
  });

  it('throws a DnsLookupError saying why there is no address', async () => {
    const failure = async (host: string) => {
      try {
        await dns.resolveAddresses(host);
      } catch (error) {
        if (error instanceof DnsLookupError)
          return { code: error.code, message: error.message, host: error.host };
        throw error;
      }
      throw new Error(`${host} resolved`);
    };
    expect(await failure('nothing.example.test')).toEqual({
      code: 'nxdomain',
      host: 'nothing.example.test',
      message: 'nothing.example.test does not exist (NXDOMAIN)',
    });
    expect(await failure('textonly.example.test')).toMatchObject({
      code: 'nodata',
      message: 'textonly.example.test has no A or AAAA record',
    });
    expect(await failure('silent.example.test')).toMatchObject({
      code: 'timeout',
      message:
        'DNS lookup of silent.example.test timed out: no answer from our DNS resolver (2 tries of 300 ms)',
    });
    expect(await failure('broken.example.test')).toMatchObject({ code: 'servfail' });
    expect(await failure('refusing.example.test')).toMatchObject({ code: 'error' });
  });

  it('shares the session cache', async () => {
    const session = dns.session();
    await session.resolveAddresses('web.example.test');
    await session.resolveAddresses('web.example.test');
    expect(lab.queriesFor('web.example.test')).toHaveLength(2); // one A, one AAAA
  });
});

describe('createDnsClient', () => {
  it("defaults to the system's servers", () => {
    // getServers() writes `[v6]:port` and `v4:port` only when the port is not 53
    const hosts = getServers().map((server) =>
      server.replace(/^\[(.+)\](?::\d+)?$/, '$1').replace(/^(\d+\.\d+\.\d+\.\d+):\d+$/, '$1'),
    );
    const client = createDnsClient();
    expect(client.servers.map((s) => s.host)).toEqual(hosts.length > 0 ? hosts : ['127.0.0.1']);
  });

  it('refuses a server that is not an address', () => {
    expect(() => createDnsClient({ servers: ['dns.example.test'] })).toThrow(/not an ip/);
    expect(() => createDnsClient({ servers: [] })).toThrow(/no servers/);
  });
});
