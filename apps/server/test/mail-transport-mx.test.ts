// The MX lookup a sending MTA does (RFC 5321 §5.1, RFC 7505), against the lab DNS server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type LabDnsServer } from '@rfckit/testlab';
import { createNetLayer } from '../src/net/layer.ts';
import { lookupMx, MAX_MX_HOSTS } from '../src/mail-transport/mx.ts';

let dns: LabDnsServer;

beforeAll(async () => {
  dns = await startDnsServer({
    zones: {
      'good.example.test': {
        MX: [
          { preference: 20, exchange: 'mx2.good.example.test' },
          { preference: 10, exchange: 'MX1.good.example.test.' },
          { preference: 20, exchange: 'mx0.good.example.test' },
        ],
      },
      'mx1.good.example.test': { A: '192.0.2.1', AAAA: '2001:db8::1' },
      'mx2.good.example.test': { A: '192.0.2.2' },
      'mx0.good.example.test': {},
      'implicit.example.test': { A: '192.0.2.9' },
      'null.example.test': { MX: { preference: 0, exchange: '.' } },
      'alias.example.test': { MX: { preference: 5, exchange: 'mail.alias.example.test' } },
      'mail.alias.example.test': { CNAME: 'real.alias.example.test' },
      'real.alias.example.test': { A: '192.0.2.5' },
      'broken.example.test': { servfail: true },
      'many.example.test': {
        MX: Array.from({ length: MAX_MX_HOSTS + 2 }, (_, i) => ({
          preference: i,
          exchange: `mx${i}.many.example.test`,
        })),
      },
    },
  });
});

afterAll(async () => {
  await dns.close();
});

function session() {
  return createNetLayer({ dnsServers: [dns.address], userAgent: 'rfckit-test', dnsTimeoutMs: 500 }).session();
}

describe('lookupMx', () => {
  it('lists the MX hosts by preference, then name, with A before AAAA', async () => {
    const result = await lookupMx(session(), 'Good.Example.Test.', AbortSignal.timeout(5000));
    expect(result).toMatchObject({
      domain: 'good.example.test',
      nullMx: false,
      dnsError: null,
      omittedHosts: 0,
    });
    expect(result.hosts.map((host) => [host.preference, host.host])).toEqual([
      [10, 'mx1.good.example.test'],
      [20, 'mx0.good.example.test'],
      [20, 'mx2.good.example.test'],
    ]);
    expect(result.hosts[0]).toEqual({
      preference: 10,
      host: 'mx1.good.example.test',
      implicit: false,
      addresses: ['192.0.2.1', '2001:db8::1'],
      cnameTarget: null,
      problem: null,
    });
    expect(result.hosts[1]?.addresses).toEqual([]);
    expect(result.hosts[1]?.problem).toBe('mx0.good.example.test has no address record (A or AAAA)');
  });

  it('takes the domain itself as the implicit MX when it has no MX records (RFC 5321 §5.1)', async () => {
    const result = await lookupMx(session(), 'implicit.example.test', AbortSignal.timeout(5000));
    expect(result.hosts).toEqual([
      {
        preference: 0,
        host: 'implicit.example.test',
        implicit: true,
        addresses: ['192.0.2.9'],
        cnameTarget: null,
        problem: null,
      },
    ]);
  });

  it('recognises a null MX (RFC 7505) and lists no hosts', async () => {
    const result = await lookupMx(session(), 'null.example.test', AbortSignal.timeout(5000));
    expect(result).toEqual({
      domain: 'null.example.test',
      nullMx: true,
      hosts: [],
      dnsError: null,
      omittedHosts: 0,
    });
  });

  it('names the target of an MX host that is an alias (RFC 2181 §10.3)', async () => {
    const result = await lookupMx(session(), 'alias.example.test', AbortSignal.timeout(5000));
    expect(result.hosts[0]).toMatchObject({
      host: 'mail.alias.example.test',
      cnameTarget: 'real.alias.example.test',
      addresses: ['192.0.2.5'],
    });
  });

  it('says plainly when the MX query fails or the domain does not exist', async () => {
    const broken = await lookupMx(session(), 'broken.example.test', AbortSignal.timeout(5000));
    expect(broken.hosts).toEqual([]);
    expect(broken.dnsError).toMatch(/^broken\.example\.test MX lookup failed/);
    const missing = await lookupMx(session(), 'missing.example.test', AbortSignal.timeout(5000));
    expect(missing.dnsError).toBe('missing.example.test does not exist (NXDOMAIN)');
  });

  it(`looks at no more than ${MAX_MX_HOSTS} hosts and counts the rest`, async () => {
    const result = await lookupMx(session(), 'many.example.test', AbortSignal.timeout(10_000));
    expect(result.hosts).toHaveLength(MAX_MX_HOSTS);
    expect(result.omittedHosts).toBe(2);
  });
});
