// POST /v1/dnssec/chain (and /v1/dnskey/chain) on the signed lab hierarchy: the app's resolver is
// the lab DNS server serving zones signed by dnssec-signzone (or their recordings), its trust
// anchor the lab root's DS file through DNSSEC_TRUST_ANCHORS, as an operator would configure it.
import { dnssecChainSchema, type DnssecChain } from '@rfckit/standards';
import { buildDnssecLab, dnssecLabNames as names, type DnssecLab } from '@rfckit/testlab';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { toolTestApp } from './helpers/tool-test-app.ts';

let lab: DnssecLab;
beforeAll(async () => {
  lab = await buildDnssecLab();
}, 60_000);

const tool = toolTestApp({
  zones: {},
  env: () => ({ DNSSEC_TRUST_ANCHORS: lab.trustAnchorFile }),
});

beforeAll(() => {
  tool.dns.setZones({}, lab.zones);
});

async function chain(body: { domain: string; type?: string }): Promise<DnssecChain> {
  const data = await tool.data<DnssecChain>('/v1/dnssec/chain', body);
  return dnssecChainSchema.parse(data);
}

describe('POST /v1/dnssec/chain on the signed lab', { timeout: 30_000 }, () => {
  afterEach(() => {
    tool.dns.setSwitches(names.secure, undefined);
  });

  it('validates a secure name from the lab root down, zone by zone', async () => {
    const result = await chain({ domain: `www.${names.secure}` });
    expect(result.status, JSON.stringify(result.failure)).toBe('secure');
    expect(result.failure).toBeNull();
    expect(result.zones.map((zone) => zone.zone)).toEqual(['.', names.tld, names.secure]);
    expect(result.zones.every((zone) => zone.status === 'secure')).toBe(true);
    const root = result.zones[0]!;
    expect(root.ds.every((ds) => ds.source === 'trust-anchor')).toBe(true);
    expect(root.ds.some((ds) => ds.status === 'match')).toBe(true);
    expect(result.answer).toMatchObject({
      owner: `www.${names.secure}`,
      type: 'A',
      status: 'ok',
      security: 'secure',
    });
    expect(result.answer.signatures.some((signature) => signature.outcome === 'valid')).toBe(true);
  });

  it('answers at /v1/dnskey/chain too, and takes the record type in any case', async () => {
    const result = await tool.data<DnssecChain>('/v1/dnskey/chain', {
      domain: `www.${names.secure}`,
      type: 'aaaa',
    });
    expect(result).toMatchObject({ status: 'secure', answer: { type: 'AAAA', status: 'ok' } });
  });

  it('proves a name that does not exist with the zone NSEC records', async () => {
    const result = await chain({ domain: `missing.${names.secure}` });
    expect(result.status).toBe('secure');
    expect(result.answer.status).toBe('nxdomain');
    expect(result.answer.denial).toMatchObject({ method: 'NSEC', proves: 'nxdomain', proven: true });
  });

  it('calls a delegation without DS insecure, with the proof there is none', async () => {
    const result = await chain({ domain: names.unsigned });
    expect(result.status).toBe('insecure');
    expect(result.failure).toBeNull();
    const unsigned = result.zones.find((zone) => zone.zone === names.unsigned);
    expect(unsigned).toMatchObject({ status: 'insecure', ds: [], dsDenial: { proven: true } });
  });

  it('calls a DS whose digest matches no key bogus, with the reason and the fix', async () => {
    const result = await chain({ domain: names.wrongDs });
    expect(result.status).toBe('bogus');
    expect(result.failure).toMatchObject({ code: 'wrong-digest', zone: names.wrongDs });
    expect(result.failure?.message).toMatch(/digest/i);
    expect(result.failure?.fix).toContain('Replace the DS at the parent');
    expect(result.zones.find((zone) => zone.zone === names.wrongDs)?.status).toBe('bogus');
  });

  it('calls expired signatures bogus', async () => {
    const result = await chain({ domain: names.expired });
    expect(result).toMatchObject({ status: 'bogus', failure: { code: 'expired-signature' } });
  });

  it.each([
    ['.', 'DNSKEY', ['.']],
    ['test', 'DNSKEY', ['.', 'test']],
    [`*.wild.${names.rsa}`, 'A', ['.', 'test', names.rsa]],
  ])(
    'checks %j %s too: the root, a TLD and a wildcard owner are names DNS answers for',
    async (domain, type, zones) => {
      const result = await chain({ domain, type });
      expect(result.status, JSON.stringify(result.failure)).toBe('secure');
      expect(result.answer.status).toBe('ok');
      expect(result.zones.map((zone) => zone.zone)).toEqual(zones);
    },
  );

  it('gives a 200 indeterminate result naming the query our resolver got no answer to, never a 5xx', async () => {
    tool.dns.setSwitches(names.secure, { timeout: ['DNSKEY'] });
    const response = await tool.post('/v1/dnssec/chain', { domain: `www.${names.secure}` });
    expect(response.statusCode, response.body).toBe(200);
    const result = dnssecChainSchema.parse((response.json() as { data: unknown }).data);
    expect(result.status).toBe('indeterminate');
    expect(result.failure).toMatchObject({ code: 'dns-failure', zone: names.secure });
    expect(result.failure?.message).toContain(`DNSKEY query for ${names.secure}`);
    expect(result.failure?.message).toContain('no answer from our DNS resolver');
    expect(result.zones.find((zone) => zone.zone === names.secure)?.status).toBe('indeterminate');
  });
});

describe('POST /v1/dnssec/chain: what is not a name', () => {
  it.each([
    [{ domain: `${'a'.repeat(64)}.test` }, 'over the 63 a DNS label may have'],
    [{ domain: `${'abcdefghi.'.repeat(25)}test` }, 'Domain is too long: at most 253 characters'],
    [{ domain: 'https://secure.test/' }, 'not a URL'],
    [{ domain: '' }, 'Domain'],
    [{ domain: 'secure.test', type: 'BOGUS' }, 'Type must be one of'],
    [{ domain: 'secure.test', extra: true }, 'extra'],
    [{ domain: '127.0.0.1' }, "'127.0.0.1' is an IP address"],
    [{ domain: '::1' }, "'::1' is an IP address"],
  ])('answers %j with a 400 and the message', async (body, message) => {
    const response = await tool.post('/v1/dnssec/chain', body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, error: expect.stringContaining(message) });
  });

  it('refuses callers who are not signed in', async () => {
    expect((await tool.post('/v1/dnssec/chain', { domain: names.secure }, {})).statusCode).toBe(401);
  });
});
