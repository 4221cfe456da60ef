import dgram from 'node:dgram';
import net from 'node:net';
import dnsPacket from 'dns-packet';
import type { Answer, DecodedPacket, OptAnswer, RecordType } from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitTxt, startDnsServer, type DnsZones, type LabDnsServer } from './dns-server.ts';

interface Ask {
  transport?: 'udp' | 'tcp';
  /** Send an OPT record (default true). */
  edns?: boolean;
  dnssecOk?: boolean;
  ad?: boolean;
  ednsVersion?: number;
  /** How long to wait before concluding that no answer comes. */
  waitMs?: number;
}

/** A decoded reply with records loosely typed: the tests look at whatever each type's data is. */
type Reply = Omit<DecodedPacket, 'answers' | 'authorities'> & {
  answers?: { name: string; type: string; ttl?: number; data?: unknown }[];
  authorities?: { name: string; type: string; ttl?: number; data?: unknown }[];
};

function encodeQuery(name: string, type: string, ask: Ask): { id: number; message: Buffer } {
  const id = Math.floor(Math.random() * 65536);
  const message = dnsPacket.encode({
    type: 'query',
    id,
    flags: dnsPacket.RECURSION_DESIRED | (ask.ad ? dnsPacket.AUTHENTIC_DATA : 0),
    questions: [{ name, type: type as RecordType }],
    additionals:
      ask.edns === false
        ? []
        : [
            {
              type: 'OPT',
              name: '.',
              udpPayloadSize: 1232,
              ednsVersion: ask.ednsVersion ?? 0,
              flags: ask.dnssecOk ? dnsPacket.DNSSEC_OK : 0,
            } as Answer,
          ],
  });
  return { id, message };
}

/** A bare client, independent of the server's DNS client: resolves undefined when no answer comes. */
function ask(server: LabDnsServer, name: string, type: string, options: Ask = {}) {
  const { id, message } = encodeQuery(name, type, options);
  return exchange(server, message, options).then((reply) => {
    if (reply) expect(reply.id).toBe(id);
    return reply;
  });
}

function exchange(server: LabDnsServer, message: Buffer, options: Ask = {}): Promise<Reply | undefined> {
  const wait = options.waitMs ?? 5000;
  return new Promise((resolve, reject) => {
    if (options.transport === 'tcp') {
      const socket = net.connect(server.port, server.host);
      let data = Buffer.alloc(0);
      const timer = setTimeout(() => {
        socket.destroy();
        resolve(undefined);
      }, wait);
      socket.on('connect', () =>
        socket.write(Buffer.concat([Buffer.from([message.length >> 8, message.length & 255]), message])),
      );
      socket.on('data', (chunk) => {
        data = Buffer.concat([data, chunk]);
        if (data.length >= 2 && data.length >= 2 + data.readUInt16BE(0)) {
          clearTimeout(timer);
          socket.destroy();
          resolve(dnsPacket.decode(data.subarray(2, 2 + data.readUInt16BE(0))) as Reply);
        }
      });
      socket.on('error', reject);
      return;
    }
    const socket = dgram.createSocket(server.host.includes(':') ? 'udp6' : 'udp4');
    const timer = setTimeout(() => {
      socket.close();
      resolve(undefined);
    }, wait);
    socket.on('message', (reply) => {
      clearTimeout(timer);
      socket.close();
      resolve(dnsPacket.decode(reply) as Reply);
    });
    socket.on('error', reject);
    socket.send(message, server.port, server.host);
  });
}

function rcodeOf(reply: Reply | undefined): string | undefined {
  return (reply as { rcode?: string } | undefined)?.rcode;
}

function optOf(reply: Reply | undefined): OptAnswer | undefined {
  return reply?.additionals?.find((rr): rr is OptAnswer => rr.type === 'OPT');
}

const longSpf = `v=spf1 ${Array.from({ length: 40 }, (_, i) => `ip4:192.0.2.${i}`).join(' ')} -all`;

const zones: DnsZones = {
  'example.test': {
    TXT: ['v=spf1 -all', ['part one ', 'part two']],
    A: '127.0.0.1',
    MX: [
      { preference: 10, exchange: 'mx1.example.test' },
      { preference: 20, exchange: 'mx2.example.test' },
    ],
    NS: ['ns1.example.test', 'ns2.example.test'],
    CAA: { tag: 'issue', value: 'ca.example.net', critical: true },
  },
  'long.example.test': { TXT: longSpf, ttl: 42 },
  'www.example.test': { CNAME: 'web.example.test' },
  'web.example.test': { A: ['127.0.0.2', '127.0.0.3'], AAAA: '::1' },
  'alias.example.test': { CNAME: 'www.example.test' },
  'gone.example.test': { CNAME: 'missing.example.test' },
  'away.example.test': { CNAME: 'host.elsewhere.invalid' },
  'cross.example.test': { CNAME: 'target.other.test' },
  'loop1.example.test': { CNAME: 'loop2.example.test' },
  'loop2.example.test': { CNAME: 'loop1.example.test' },
  'target.other.test': { A: '127.0.0.9' },
  'deep.ent.example.test': { A: '127.0.0.4' },
  '*.wild.example.test': { TXT: 'from the wildcard' },
  'sub.wild.example.test': { A: '127.0.0.5' },
  'slow.example.test': { A: '127.0.0.6', latencyMs: 50 },
  'silent.example.test': { A: '127.0.0.7', timeout: true },
  'v4only-silent.example.test': { A: '127.0.0.8', timeout: ['AAAA'] },
  'broken.example.test': { A: '127.0.0.1', servfail: true },
  'refusing.example.test': { rcode: 'REFUSED' },
  'big.example.test': { A: '127.0.0.1', TXT: 'small', truncate: ['TXT'] },
  'huge.example.test': { TXT: Array.from({ length: 30 }, (_, i) => `${i}-${'x'.repeat(100)}`) },
  'signed.example.test': {
    A: '127.0.0.1',
    authenticated: true,
    RRSIG: {
      typeCovered: 'A',
      algorithm: 13,
      labels: 3,
      originalTtl: 300,
      expiration: 1_900_000_000,
      inception: 1_700_000_000,
      keyTag: 12345,
      signerName: 'example.test',
      signature: Buffer.alloc(64, 7).toString('base64'),
    },
  },
  'sub.example.test': {
    SOA: { mname: 'ns.sub.example.test', rname: 'admin.sub.example.test', minimum: 30 },
  },
  'host.sub.example.test': { A: '127.0.0.10' },
};

let server: LabDnsServer;
beforeAll(async () => {
  server = await startDnsServer({ zones });
});
afterAll(async () => {
  await server.close();
});

// real sockets on loopback and deliberate waits: not bound to the 5 s default
describe('startDnsServer', { timeout: 30_000 }, () => {
  it('listens on one loopback port for UDP and TCP', () => {
    expect(server.host).toBe('127.0.0.1');
    expect(server.port).toBeGreaterThan(0);
    expect(server.address).toBe(`127.0.0.1:${server.port}`);
  });

  it('answers authoritatively over UDP and TCP alike', async () => {
    for (const transport of ['udp', 'tcp'] as const) {
      const reply = await ask(server, 'example.test', 'MX', { transport });
      expect(rcodeOf(reply)).toBe('NOERROR');
      expect(reply?.flag_aa).toBe(true);
      expect(reply?.flag_qr).toBe(true);
      expect(reply?.questions).toEqual([{ name: 'example.test', type: 'MX', class: 'IN' }]);
      expect(reply?.answers?.map((rr) => rr.type === 'MX' && rr.data)).toEqual([
        { preference: 10, exchange: 'mx1.example.test' },
        { preference: 20, exchange: 'mx2.example.test' },
      ]);
    }
  });

  it('logs every question with its transport and EDNS bits', async () => {
    server.clearQueries();
    await ask(server, 'Example.TEST.', 'A', { dnssecOk: true });
    await ask(server, 'example.test', 'TXT', { transport: 'tcp', edns: false });
    expect(server.queries.map(({ id: _id, ...q }) => q)).toEqual([
      { name: 'example.test', type: 'A', transport: 'udp', edns: true, dnssecOk: true },
      { name: 'example.test', type: 'TXT', transport: 'tcp', edns: false, dnssecOk: false },
    ]);
    expect(server.queriesFor('EXAMPLE.test', 'txt')).toHaveLength(1);
  });

  it('serves TXT records, splitting strings over 255 bytes', async () => {
    const reply = await ask(server, 'example.test', 'TXT');
    const data = reply?.answers?.map((rr) => (rr.data as Buffer[]).map((b) => b.toString()));
    expect(data).toEqual([['v=spf1 -all'], ['part one ', 'part two']]);

    const long = await ask(server, 'long.example.test', 'TXT');
    const [record] = long?.answers ?? [];
    const strings = record?.data as Buffer[];
    expect(longSpf.length).toBeGreaterThan(510);
    expect(strings.map((b) => b.length)).toEqual([255, 255, longSpf.length - 510]);
    expect(Buffer.concat(strings).toString()).toBe(longSpf);
    expect(record?.ttl).toBe(42);
  });

  it('splits on bytes, not characters', () => {
    const text = 'é'.repeat(200); // 400 bytes
    expect(splitTxt(text).map((b) => b.length)).toEqual([255, 145]);
    expect(Buffer.concat(splitTxt(text)).toString()).toBe(text);
    expect(splitTxt('')).toEqual([Buffer.alloc(0)]);
  });

  it('tells NXDOMAIN from NODATA, with the SOA in the authority section', async () => {
    const nx = await ask(server, 'nothing.example.test', 'A');
    expect(rcodeOf(nx)).toBe('NXDOMAIN');
    expect(nx?.flag_aa).toBe(true);
    expect(nx?.answers).toEqual([]);
    expect(nx?.authorities?.map((rr) => [rr.type, rr.name])).toEqual([['SOA', 'example.test']]);

    const nodata = await ask(server, 'example.test', 'AAAA');
    expect(rcodeOf(nodata)).toBe('NOERROR');
    expect(nodata?.answers).toEqual([]);
    expect(nodata?.authorities?.[0]).toMatchObject({
      type: 'SOA',
      data: { mname: 'ns.example.test', rname: 'hostmaster.example.test', minimum: 60 },
    });
  });

  it('treats empty non-terminals as existing names (NODATA)', async () => {
    const ent = await ask(server, 'ent.example.test', 'A');
    expect(rcodeOf(ent)).toBe('NOERROR');
    expect(ent?.answers).toEqual([]);
    expect(rcodeOf(await ask(server, 'deep.ent.example.test', 'A'))).toBe('NOERROR');
    expect(rcodeOf(await ask(server, 'other.ent.example.test', 'A'))).toBe('NXDOMAIN');
  });

  it('refuses names outside every zone, without the AA flag', async () => {
    const reply = await ask(server, 'example.invalid', 'A');
    expect(rcodeOf(reply)).toBe('REFUSED');
    expect(reply?.flag_aa).toBe(false);
  });

  it('answers the apex SOA, made up when the fixture has none, and serves sub-zones with their own', async () => {
    const soa = await ask(server, 'example.test', 'SOA');
    expect(soa?.answers?.[0]).toMatchObject({ type: 'SOA', name: 'example.test' });
    const nx = await ask(server, 'nothing.sub.example.test', 'A');
    expect(rcodeOf(nx)).toBe('NXDOMAIN');
    expect(nx?.authorities?.[0]).toMatchObject({
      name: 'sub.example.test',
      data: { mname: 'ns.sub.example.test', rname: 'admin.sub.example.test', minimum: 30 },
    });
  });

  it('follows CNAMEs within the fixture, across zones too', async () => {
    const reply = await ask(server, 'alias.example.test', 'A');
    expect(reply?.answers?.map((rr) => [rr.name, rr.type, rr.data])).toEqual([
      ['alias.example.test', 'CNAME', 'www.example.test'],
      ['www.example.test', 'CNAME', 'web.example.test'],
      ['web.example.test', 'A', '127.0.0.2'],
      ['web.example.test', 'A', '127.0.0.3'],
    ]);
    const cross = await ask(server, 'cross.example.test', 'A');
    expect(cross?.answers?.map((rr) => rr.data)).toEqual(['target.other.test', '127.0.0.9']);

    // asking for the CNAME itself does not follow it
    const own = await ask(server, 'www.example.test', 'CNAME');
    expect(own?.answers?.map((rr) => rr.data)).toEqual(['web.example.test']);
  });

  it('reports the end of a CNAME chain: NXDOMAIN, outside the lab, or a loop', async () => {
    const gone = await ask(server, 'gone.example.test', 'A');
    expect(rcodeOf(gone)).toBe('NXDOMAIN');
    expect(gone?.answers?.map((rr) => rr.type)).toEqual(['CNAME']);

    const away = await ask(server, 'away.example.test', 'A');
    expect(rcodeOf(away)).toBe('NOERROR');
    expect(away?.answers?.map((rr) => rr.data)).toEqual(['host.elsewhere.invalid']);
    expect(away?.authorities).toEqual([]);

    const loop = await ask(server, 'loop1.example.test', 'A');
    expect(loop?.answers?.map((rr) => rr.type)).toEqual(['CNAME', 'CNAME']);
  });

  it('synthesises answers from a wildcard, but not over existing names', async () => {
    const wild = await ask(server, 'anything.wild.example.test', 'TXT');
    expect(wild?.answers?.map((rr) => [rr.name, (rr.data as Buffer[]).toString()])).toEqual([
      ['anything.wild.example.test', 'from the wildcard'],
    ]);
    const deeper = await ask(server, 'a.b.wild.example.test', 'TXT');
    expect(deeper?.answers).toHaveLength(1);
    const existing = await ask(server, 'sub.wild.example.test', 'TXT');
    expect(rcodeOf(existing)).toBe('NOERROR');
    expect(existing?.answers).toEqual([]);
  });

  it('never answers a name with the timeout switch, and only for the types listed', async () => {
    server.clearQueries();
    expect(await ask(server, 'silent.example.test', 'A', { waitMs: 300 })).toBeUndefined();
    expect(await ask(server, 'silent.example.test', 'A', { transport: 'tcp', waitMs: 300 })).toBeUndefined();
    expect(server.queriesFor('silent.example.test')).toHaveLength(2);

    expect(await ask(server, 'v4only-silent.example.test', 'AAAA', { waitMs: 300 })).toBeUndefined();
    const a = await ask(server, 'v4only-silent.example.test', 'A');
    expect(a?.answers?.map((rr) => rr.data)).toEqual(['127.0.0.8']);
  });

  it('answers SERVFAIL or the RCODE a name is set to', async () => {
    const fail = await ask(server, 'broken.example.test', 'A');
    expect(rcodeOf(fail)).toBe('SERVFAIL');
    expect(fail?.answers).toEqual([]);
    expect(rcodeOf(await ask(server, 'refusing.example.test', 'TXT'))).toBe('REFUSED');
  });

  it('truncates over UDP when told to, and answers in full over TCP', async () => {
    const udp = await ask(server, 'big.example.test', 'TXT');
    expect(udp?.flag_tc).toBe(true);
    expect(udp?.answers).toEqual([]);
    const tcp = await ask(server, 'big.example.test', 'TXT', { transport: 'tcp' });
    expect(tcp?.flag_tc).toBe(false);
    expect(tcp?.answers).toHaveLength(1);
    // the switch was for TXT only
    const a = await ask(server, 'big.example.test', 'A');
    expect(a?.flag_tc).toBe(false);
    expect(a?.answers).toHaveLength(1);
  });

  it('truncates answers larger than the UDP payload the query allows', async () => {
    const plain = await ask(server, 'huge.example.test', 'TXT', { edns: false });
    expect(plain?.flag_tc).toBe(true);
    expect(plain?.answers).toEqual([]);
    const edns = await ask(server, 'huge.example.test', 'TXT');
    expect(edns?.flag_tc).toBe(true);
    const tcp = await ask(server, 'huge.example.test', 'TXT', { transport: 'tcp' });
    expect(tcp?.answers).toHaveLength(30);
  });

  it('answers a slow name after its latency', async () => {
    const reply = await ask(server, 'slow.example.test', 'A');
    expect(reply?.answers?.map((rr) => rr.data)).toEqual(['127.0.0.6']);
  });

  it('echoes EDNS0 with the DO bit, and only when asked', async () => {
    const withDo = await ask(server, 'example.test', 'A', { dnssecOk: true });
    expect(optOf(withDo)).toMatchObject({ udpPayloadSize: 1232, flag_do: true });
    expect(optOf(await ask(server, 'example.test', 'A'))?.flag_do).toBe(false);
    expect(optOf(await ask(server, 'example.test', 'A', { edns: false }))).toBeUndefined();
  });

  it('answers BADVERS to an EDNS version it does not speak', async () => {
    const reply = await ask(server, 'example.test', 'A', { ednsVersion: 1 });
    expect(optOf(reply)?.extendedRcode).toBe(1);
    expect(reply?.answers).toEqual([]);
  });

  it('sets AD for authenticated names when the query has DO or AD, with RRSIGs only under DO', async () => {
    const withDo = await ask(server, 'signed.example.test', 'A', { dnssecOk: true });
    expect(withDo?.flag_ad).toBe(true);
    expect(withDo?.answers?.map((rr) => rr.type)).toEqual(['A', 'RRSIG']);
    expect(withDo?.answers?.[1]).toMatchObject({ data: { typeCovered: 'A', keyTag: 12345 } });

    const withAd = await ask(server, 'signed.example.test', 'A', { ad: true });
    expect(withAd?.flag_ad).toBe(true);
    expect(withAd?.answers?.map((rr) => rr.type)).toEqual(['A']);

    expect((await ask(server, 'signed.example.test', 'A'))?.flag_ad).toBe(false);
    expect((await ask(server, 'example.test', 'A', { dnssecOk: true }))?.flag_ad).toBe(false);
  });

  it('answers FORMERR to a message it cannot read, and NOTIMP to other opcodes', async () => {
    const garbage = Buffer.from([0x12, 0x34, 0x01, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0xff]);
    const formerr = await exchange(server, garbage);
    expect(formerr?.id).toBe(0x1234);
    expect(rcodeOf(formerr)).toBe('FORMERR');

    const { message } = encodeQuery('example.test', 'A', {});
    message.writeUInt16BE(message.readUInt16BE(2) | (2 << 11), 2); // opcode STATUS
    expect(rcodeOf(await exchange(server, message))).toBe('NOTIMP');
  });

  it('changes answers with update(), setZones() and dynamic names', async () => {
    const lab = await startDnsServer({ zones: { 'rebind.test': { A: '127.0.0.1' } } });
    try {
      lab.update('flip.rebind.test', ({ count }) => ({ A: count === 1 ? '127.0.0.1' : '127.0.0.2' }));
      const first = await ask(lab, 'flip.rebind.test', 'A');
      const second = await ask(lab, 'flip.rebind.test', 'A');
      expect([first?.answers?.[0]?.data, second?.answers?.[0]?.data]).toEqual(['127.0.0.1', '127.0.0.2']);

      lab.update('flip.rebind.test', undefined);
      expect(rcodeOf(await ask(lab, 'flip.rebind.test', 'A'))).toBe('NXDOMAIN');

      lab.setZones({ 'fresh.test': { TXT: 'new' } });
      expect(rcodeOf(await ask(lab, 'rebind.test', 'A'))).toBe('REFUSED');
      expect(rcodeOf(await ask(lab, 'fresh.test', 'TXT'))).toBe('NOERROR');
    } finally {
      await lab.close();
    }
  });

  it('serves every record type the DNS client decodes', async () => {
    const key = Buffer.alloc(32, 1).toString('base64');
    const lab = await startDnsServer({
      zones: {
        'types.test': {
          SRV: { priority: 1, weight: 2, port: 443, target: 'svc.types.test' },
          TLSA: { usage: 3, selector: 1, matchingType: 1, certificate: 'ab'.repeat(32) },
          DNSKEY: { flags: 257, algorithm: 15, key },
          DS: { keyTag: 1, algorithm: 15, digestType: 2, digest: 'cd'.repeat(32) },
          PTR: 'host.types.test',
          SSHFP: { algorithm: 4, fingerprintType: 2, fingerprint: 'ef'.repeat(32) },
          OPENPGPKEY: key,
        },
      },
    });
    try {
      const tlsa = await ask(lab, 'types.test', 'TLSA');
      expect(tlsa?.answers?.[0]).toMatchObject({
        type: 'TLSA',
        data: { usage: 3, selector: 1, matchingType: 1, certificate: Buffer.from('ab'.repeat(32), 'hex') },
      });
      const dnskey = await ask(lab, 'types.test', 'DNSKEY');
      expect(dnskey?.answers?.[0]).toMatchObject({ type: 'DNSKEY', data: { flags: 257, algorithm: 15 } });
      const ds = await ask(lab, 'types.test', 'DS');
      expect(ds?.answers?.[0]).toMatchObject({ type: 'DS', data: { keyTag: 1, digestType: 2 } });
      const srv = await ask(lab, 'types.test', 'SRV');
      expect(srv?.answers?.[0]?.data).toEqual({
        priority: 1,
        weight: 2,
        port: 443,
        target: 'svc.types.test',
      });
      const pgp = await ask(lab, 'types.test', 'UNKNOWN_61');
      expect(pgp?.answers?.[0]?.data).toEqual(Buffer.from(key, 'base64'));
      const any = await ask(lab, 'types.test', 'ANY', { transport: 'tcp' });
      expect(new Set(any?.answers?.map((rr) => rr.type))).toEqual(
        new Set(['SRV', 'TLSA', 'DNSKEY', 'DS', 'PTR', 'SSHFP', 'UNKNOWN_61']),
      );
    } finally {
      await lab.close();
    }
  });

  it('listens on ::1 too', async () => {
    const lab = await startDnsServer({ zones: { 'six.test': { AAAA: '::1' } }, host: '::1' });
    try {
      expect(lab.address).toBe(`[::1]:${lab.port}`);
      expect((await ask(lab, 'six.test', 'AAAA'))?.answers?.[0]?.data).toBe('::1');
      expect((await ask(lab, 'six.test', 'AAAA', { transport: 'tcp' }))?.answers?.[0]?.data).toBe('::1');
    } finally {
      await lab.close();
    }
  });

  it('refuses to listen anywhere but loopback', async () => {
    await expect(startDnsServer({ zones: {}, host: '0.0.0.0' })).rejects.toThrow(/not a loopback/);
  });
});
