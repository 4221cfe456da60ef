import { beforeAll, describe, expect, it } from 'vitest';
import { createFixtureResolver, type FixtureZones } from '../core/fixture-resolver.ts';
import type { DnsRecordType, DnsResult, Resolver } from '../core/resolver.ts';
import { discoverDkimSelectors, lookupDkimKey } from './dns.ts';
import { dkimCommonSelectors } from './selectors.ts';
import { ed25519Key, rsaSpki } from './test-keys.ts';

let rsa2048 = '';
let ed25519 = '';
let resolver: Resolver;

beforeAll(async () => {
  rsa2048 = await rsaSpki(2048);
  ed25519 = (await ed25519Key()).raw;
  const rsaRecord = `v=DKIM1; k=rsa; p=${rsa2048}`;
  const zones: FixtureZones = {
    test: { SOA: { mname: 'ns.test', rname: 'hostmaster.test' } },
    'good._domainkey.example.test': { TXT: `v=DKIM1; k=ed25519; p=${ed25519}`, ttl: 900 },
    'old._domainkey.example.test': { TXT: 'v=DKIM1; k=rsa; p=' },
    // a 2048-bit key does not fit one 255-octet string
    'split._domainkey.example.test': { TXT: [[rsaRecord.slice(0, 200), rsaRecord.slice(200)]] },
    'esp._domainkey.example.test': { CNAME: 'key1.esp.test', ttl: 120 },
    'key1.esp.test': { TXT: rsaRecord, ttl: 3600 },
    'mixed._domainkey.example.test': { TXT: ['google-site-verification=abc', rsaRecord] },
    'twice._domainkey.example.test': { TXT: [rsaRecord, `v=DKIM1; k=ed25519; p=${ed25519}`] },
    'junk._domainkey.example.test': { TXT: 'hello world' },
    'host._domainkey.example.test': { A: '192.0.2.1' },
    'slow._domainkey.example.test': { timeout: true },
    'broken._domainkey.example.test': { servfail: true },
    'quote._domainkey.example.test': { TXT: [['v=DKIM1; n="a\\b";', ` p=${ed25519}`]] },
  };
  resolver = createFixtureResolver(zones);
});

async function lookup(selector: string, domain = 'example.test') {
  const outcome = await lookupDkimKey({ domain, selector }, resolver);
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome.result;
}

const codes = (issues: { code: string }[]) => issues.map((issue) => issue.code);

describe('lookupDkimKey', () => {
  it('validates a published Ed25519 key with its TTL', async () => {
    const result = await lookup('good');
    expect(result).toMatchObject({
      dnsName: 'good._domainkey.example.test',
      ttl: 900,
      record: `v=DKIM1; k=ed25519; p=${ed25519}`,
      status: 'valid',
      valid: true,
      lookup: 'ok',
      cnames: [],
      canonicalName: 'good._domainkey.example.test',
    });
    expect(result.validation?.parsed?.keySize).toBe(256);
  });

  it('reports a revoked key as revoked, not valid', async () => {
    const result = await lookup('old');
    expect(result.status).toBe('revoked');
    expect(result.valid).toBe(false);
    expect(codes(result.issues)).toContain('DKIM_KEY_REVOKED');
  });

  it('joins a record split over several strings without separators', async () => {
    const result = await lookup('split');
    expect(result.strings).toHaveLength(2);
    expect(result.record).toBe(`v=DKIM1; k=rsa; p=${rsa2048}`);
    expect(result.validation?.parsed).toMatchObject({ strings: 2, keySize: 2048 });
    expect(result.status).toBe('valid');
  });

  it('keeps quotes and backslashes inside a string as data', async () => {
    const result = await lookup('quote');
    expect(result.record).toBe(`v=DKIM1; n="a\\b"; p=${ed25519}`);
    expect(result.validation?.tags.n).toBe('"a\\b"');
  });

  it('follows and reports CNAME delegation, with the smallest TTL on the way', async () => {
    const result = await lookup('esp');
    expect(result.canonicalName).toBe('key1.esp.test');
    expect(result.cnames).toEqual([
      { name: 'esp._domainkey.example.test', target: 'key1.esp.test', ttl: 120 },
    ]);
    expect(result.ttl).toBe(120);
    expect(result.status).toBe('valid');
    expect(codes(result.issues)).toContain('DKIM_DNS_CNAME');
  });

  it('validates the key beside a TXT record that is not a key record, with a warning', async () => {
    const result = await lookup('mixed');
    expect(result.txtRecords).toHaveLength(2);
    expect(result.record).toBe(`v=DKIM1; k=rsa; p=${rsa2048}`);
    expect(result.status).toBe('valid');
    // RFC 6376 §3.6.2.2: TXT records at a selector name must be unique; verifiers that take the
    // first record served (dkimpy, mailauth) miss the key when the other comes first
    expect(result.issues.find((issue) => issue.code === 'DKIM_DNS_OTHER_TXT')).toMatchObject({
      severity: 'warning',
      requirement: 'MUST',
      rfc: 'RFC 6376 §3.6.2.2',
    });
  });

  it('treats several key records at one name as an error', async () => {
    const result = await lookup('twice');
    expect(result).toMatchObject({ status: 'invalid', valid: false, record: null, validation: null });
    expect(codes(result.issues)).toEqual(['DKIM_DNS_MULTIPLE_RECORDS']);
  });

  it('validates a lone TXT record that is not a key record, so the reason shows', async () => {
    const result = await lookup('junk');
    expect(result.status).toBe('invalid');
    expect(result.record).toBe('hello world');
  });

  it.each([
    ['missing', 'not-found', 'nxdomain', 'DKIM_DNS_NXDOMAIN'],
    ['host', 'not-found', 'nodata', 'DKIM_DNS_NODATA'],
    ['slow', 'error', 'timeout', 'DKIM_DNS_TIMEOUT'],
    ['broken', 'error', 'servfail', 'DKIM_DNS_SERVFAIL'],
  ])('tells %s apart: %s (%s)', async (selector, status, lookupStatus, code) => {
    const result = await lookup(selector);
    expect(result).toMatchObject({
      status,
      lookup: lookupStatus,
      valid: false,
      record: null,
      ttl: null,
      validation: null,
    });
    expect(codes(result.issues)).toEqual([code]);
  });

  it('accepts a pasted full name as the selector and normalises case', async () => {
    const result = await lookup('Good._domainkey.Example.Test', 'EXAMPLE.test.');
    expect(result.dnsName).toBe('good._domainkey.example.test');
    expect(result.status).toBe('valid');
  });

  it.each([
    ['exa mple.test', 'good', 'not a valid domain name'],
    ['example.test', 'bad selector!', 'not a valid selector'],
  ])('refuses %s / %s before asking', async (domain, selector, message) => {
    const outcome = await lookupDkimKey({ domain, selector }, resolver);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error).toContain(message);
  });
});

describe('discoverDkimSelectors', () => {
  it('lists the common selectors that exist, with key type and size', async () => {
    const zones: FixtureZones = {
      'google._domainkey.found.test': { TXT: `v=DKIM1; k=rsa; p=${rsa2048}` },
      'selector2._domainkey.found.test': { CNAME: 'selector2-found-test._domainkey.tenant.test' },
      'selector2-found-test._domainkey.tenant.test': { TXT: `v=DKIM1; k=ed25519; p=${ed25519}` },
      'mail._domainkey.found.test': { servfail: true },
    };
    const fixture = createFixtureResolver(zones);
    const outcome = await discoverDkimSelectors('found.test', fixture);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.result.probed).toBe(dkimCommonSelectors.length);
    expect(outcome.result.found).toEqual([
      expect.objectContaining({
        selector: 'google',
        status: 'valid',
        keyType: 'rsa',
        keySize: 2048,
        delegatedTo: null,
      }),
      expect.objectContaining({
        selector: 'selector2',
        keyType: 'ed25519',
        keySize: 256,
        delegatedTo: 'selector2-found-test._domainkey.tenant.test',
      }),
    ]);
    expect(outcome.result.failed.map((entry) => entry.selector)).toEqual(['mail']);
    expect(outcome.result.unchecked).toEqual([]);
    // every selector asked exactly once
    const asked = fixture.queries.filter((query) => query.name.endsWith('._domainkey.found.test'));
    expect(new Set(asked.map((query) => query.name)).size).toBe(dkimCommonSelectors.length);
  });

  it('never has more lookups in flight than the concurrency allows', async () => {
    let inFlight = 0;
    let most = 0;
    const counting: Resolver = {
      async query<T extends DnsRecordType>(name: string, type: T): Promise<DnsResult<T>> {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 1));
        inFlight--;
        return {
          status: 'nxdomain',
          rcode: 'NXDOMAIN',
          name,
          type,
          authenticated: false,
          canonicalName: name,
          cnames: [],
          ttl: 0,
        };
      },
    };
    const outcome = await discoverDkimSelectors('example.test', counting, { concurrency: 3 });
    expect(outcome.ok && outcome.result.found).toEqual([]);
    expect(most).toBe(3);
  });

  it('stops at the budget and lists what it did not ask', async () => {
    const never: Resolver = { query: () => new Promise(() => {}) };
    const outcome = await discoverDkimSelectors('example.test', never, {
      selectors: [
        { selector: 'a', source: 'test' },
        { selector: 'b', source: 'test' },
      ],
      concurrency: 1,
      budgetMs: 10,
    });
    expect(outcome.ok && outcome.result.unchecked).toEqual(['a', 'b']);
  });

  it('refuses a domain that is not a name', async () => {
    const outcome = await discoverDkimSelectors('not a domain', resolver);
    expect(outcome.ok).toBe(false);
  });
});
