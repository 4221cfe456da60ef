// POST /v1/dkim/dns and /v1/dkim/selectors through the guarded DNS client pointed at the lab DNS
// server: a valid key, a revoked one, CNAME delegation, a record split over strings, NXDOMAIN, a
// server that never answers, and selector discovery.
import { generateKeyPairSync } from 'node:crypto';
import type { DkimDnsResultData, DkimSelectorDiscoveryData } from '@rfckit/standards';
import { expect, it } from 'vitest';
import { describeEachDatabase } from './helpers/databases.ts';
import { dkimKeyRecord } from './helpers/dkim-fixtures.ts';
import { testTld } from './helpers/lab-fixtures.ts';
import { toolTestApp } from './helpers/tool-test-app.ts';

const rsaRecord = dkimKeyRecord(generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey);
const edRecord = dkimKeyRecord(generateKeyPairSync('ed25519').publicKey);

const zones = {
  ...testTld,
  'k1._domainkey.example.test': { TXT: edRecord, ttl: 1800 },
  'retired._domainkey.example.test': { TXT: 'v=DKIM1; k=rsa; p=' },
  'selector1._domainkey.example.test': {
    CNAME: 'selector1-example-test._domainkey.tenant.test',
    ttl: 600,
  },
  'selector1-example-test._domainkey.tenant.test': { TXT: rsaRecord, ttl: 3600 },
  'split._domainkey.example.test': { TXT: [[rsaRecord.slice(0, 250), rsaRecord.slice(250)]] },
  'silent._domainkey.example.test': { timeout: true },
  'broken._domainkey.example.test': { servfail: true },
};

describeEachDatabase('DKIM DNS routes', (database) => {
  const tool = toolTestApp({ database, zones });
  const { post } = tool;
  const lookup = (selector: string, domain = 'example.test') =>
    tool.data<DkimDnsResultData>('/v1/dkim/dns', { domain, selector });

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
      record: edRecord,
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

  it('reports SERVFAIL from the name’s servers as an error in the result, not a 5xx', async () => {
    const data = await lookup('broken');
    expect(data).toMatchObject({ status: 'error', lookup: 'servfail', valid: false, record: null });
  });

  it('says that we could not check when our resolver gives no answer (docs/architecture.md §6)', async () => {
    const response = await post('/v1/dkim/dns', { domain: 'example.test', selector: 'silent' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      success: false,
      code: 'RESOLVER_UNAVAILABLE',
      error: 'Our DNS resolver did not answer, so we could not look up silent._domainkey.example.test',
      details: {
        tried: [{ target: 'silent._domainkey.example.test', outcome: 'No answer from our DNS resolver' }],
      },
    });
  });

  it('finds the common selectors that exist', async () => {
    const data = await tool.data<DkimSelectorDiscoveryData>('/v1/dkim/selectors', { domain: 'Example.Test' });
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
