// POST /v1/dkim/dns and /v1/dkim/selectors through the guarded DNS client pointed at the lab DNS
// server: a valid key, a revoked one, CNAME delegation, a record split over strings, NXDOMAIN, a
// server that never answers, and selector discovery.
import { generateKeyPairSync } from 'node:crypto';
import { labEnv, startDnsServer, type LabDnsServer } from '@rfckit/testlab';
import type { DkimDnsResultData, DkimSelectorDiscoveryData } from '@rfckit/standards';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { toolCallerHeaders } from './helpers/accounts.ts';
import { buildTestApp } from './helpers/app.ts';
import { describeEachDatabase } from './helpers/databases.ts';

const rsa2048 = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .publicKey.export({ type: 'spki', format: 'der' })
  .toString('base64');
// the raw 32 bytes are the last 32 of the 44-byte SubjectPublicKeyInfo (RFC 8410)
const ed25519 = generateKeyPairSync('ed25519')
  .publicKey.export({ type: 'spki', format: 'der' })
  .subarray(12)
  .toString('base64');
const rsaRecord = `v=DKIM1; k=rsa; p=${rsa2048}`;

let dns: LabDnsServer;

beforeAll(async () => {
  dns = await startDnsServer({
    zones: {
      test: { SOA: { mname: 'ns.test', rname: 'hostmaster.test' } },
      'k1._domainkey.example.test': { TXT: `v=DKIM1; k=ed25519; p=${ed25519}`, ttl: 1800 },
      'retired._domainkey.example.test': { TXT: 'v=DKIM1; k=rsa; p=' },
      'selector1._domainkey.example.test': {
        CNAME: 'selector1-example-test._domainkey.tenant.test',
        ttl: 600,
      },
      'selector1-example-test._domainkey.tenant.test': { TXT: rsaRecord, ttl: 3600 },
      'split._domainkey.example.test': { TXT: [[rsaRecord.slice(0, 250), rsaRecord.slice(250)]] },
      'silent._domainkey.example.test': { timeout: true },
    },
  });
});

afterAll(async () => {
  await dns.close();
});

describeEachDatabase('DKIM DNS routes', (database) => {
  let app: FastifyInstance;
  let signedIn: { authorization: string };

  beforeAll(async () => {
    app = await buildTestApp({ ...database.env(), RATE_LIMIT_SCALE: '10000', ...labEnv({ dns }) });
    await app.ready();
    signedIn = await toolCallerHeaders(app);
  });

  afterAll(async () => {
    await app.close();
  });

  function post(url: string, body: unknown, headers: Record<string, string> = signedIn) {
    return app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', ...headers },
      payload: JSON.stringify(body),
    });
  }

  async function lookup(selector: string, domain = 'example.test'): Promise<DkimDnsResultData> {
    const response = await post('/v1/dkim/dns', { domain, selector });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { data: DkimDnsResultData }).data;
  }

  it.each(['/v1/dkim/dns', '/v1/dkim/selectors', '/api/v1/dkim/dns'])(
    '%s needs a signed-in caller',
    async (url) => {
      const response = await post(url, { domain: 'example.test', selector: 'k1' }, {});
      expect(response.statusCode).toBe(401);
    },
  );

  it.each([
    {},
    { domain: 'example.test' },
    { domain: ' ', selector: 'k1' },
    { domain: 'example.test', selector: '' },
  ])('answers %j with the spec message', async (body) => {
    const response = await post('/v1/dkim/dns', body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, error: 'Domain and selector are required' });
  });

  it('refuses a selector that is not a name', async () => {
    const response = await post('/v1/dkim/dns', { domain: 'example.test', selector: 'a b' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toContain('is not a valid selector');
  });

  it('validates a published Ed25519 key with its TTL', async () => {
    const data = await lookup('k1');
    expect(data).toMatchObject({
      dnsName: 'k1._domainkey.example.test',
      ttl: 1800,
      record: `v=DKIM1; k=ed25519; p=${ed25519}`,
      status: 'valid',
      valid: true,
    });
    expect(data.validation).toMatchObject({ valid: true, tags: { k: 'ed25519' } });
    expect(data.validation?.parsed?.keySize).toBe(256);
  });

  it('reports a revoked key', async () => {
    const data = await lookup('retired');
    expect(data).toMatchObject({ status: 'revoked', valid: false });
    expect(data.issues.map((issue) => issue.code)).toContain('DKIM_KEY_REVOKED');
  });

  it('follows CNAME delegation to the provider', async () => {
    const data = await lookup('selector1');
    expect(data).toMatchObject({
      canonicalName: 'selector1-example-test._domainkey.tenant.test',
      cnames: [
        {
          name: 'selector1._domainkey.example.test',
          target: 'selector1-example-test._domainkey.tenant.test',
        },
      ],
      record: rsaRecord,
      status: 'valid',
    });
    expect(data.ttl).toBe(600);
    expect(data.issues.map((issue) => issue.code)).toContain('DKIM_DNS_CNAME');
  });

  it('joins a record split over two strings', async () => {
    const data = await lookup('split');
    expect(data.strings).toEqual([rsaRecord.slice(0, 250), rsaRecord.slice(250)]);
    expect(data.record).toBe(rsaRecord);
    expect(data.validation?.parsed).toMatchObject({ strings: 2, keySize: 2048 });
    expect(data.status).toBe('valid');
  });

  it('reports a selector that does not exist as not-found (NXDOMAIN)', async () => {
    const data = await lookup('nope');
    expect(data).toMatchObject({ status: 'not-found', lookup: 'nxdomain', valid: false, record: null });
    expect(data.issues.map((issue) => issue.code)).toEqual(['DKIM_DNS_NXDOMAIN']);
  });

  it('reports a server that never answers as an error in the result, not a 5xx', async () => {
    const data = await lookup('silent');
    expect(data).toMatchObject({ status: 'error', lookup: 'timeout', valid: false, record: null });
    expect(data.issues.map((issue) => issue.code)).toEqual(['DKIM_DNS_TIMEOUT']);
  });

  it('finds the common selectors that exist', async () => {
    const response = await post('/v1/dkim/selectors', { domain: 'Example.Test' });
    expect(response.statusCode, response.body).toBe(200);
    const data = (response.json() as { data: DkimSelectorDiscoveryData }).data;
    expect(data.domain).toBe('example.test');
    expect(data.probed).toBeGreaterThan(25);
    expect(data.found).toEqual([
      expect.objectContaining({ selector: 'selector1', keyType: 'rsa', keySize: 2048, status: 'valid' }),
      expect.objectContaining({ selector: 'k1', keyType: 'ed25519', keySize: 256, delegatedTo: null }),
    ]);
    expect(data.failed).toEqual([]);
    expect(data.unchecked).toEqual([]);
  });

  it('asks for a domain when discovering', async () => {
    const response = await post('/v1/dkim/selectors', { domain: '' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('Domain is required');
  });
});
