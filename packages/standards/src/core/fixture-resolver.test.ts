import { describe, expect, it } from 'vitest';
import { createFixtureResolver, overlayResolver } from './fixture-resolver.ts';
import type { DnsRecordType, DnsResult, Resolver } from './resolver.ts';

const zones = {
  'Example.TEST.': {
    TXT: ['v=spf1 mx -all', ['part one ', 'part two']],
    A: '192.0.2.1',
    AAAA: ['2001:db8::1', '2001:db8::2'],
    MX: [{ preference: 10, exchange: 'MX.example.test.' }],
  },
  'mail.sub.example.test': { A: '192.0.2.25' },
  'www.example.test': { CNAME: 'web.example.test' },
  'web.example.test': { A: '192.0.2.80' },
  'loop1.example.test': { CNAME: 'loop2.example.test' },
  'loop2.example.test': { CNAME: 'loop1.example.test' },
  'slow.example.test': { A: '192.0.2.9', timeout: ['TXT'] },
  'broken.example.test': { servfail: true },
  '*.wild.example.test': { TXT: 'wildcard' },
  'long.example.test': { TXT: 'x'.repeat(300) },
  'ds.example.test': { other: [{ type: 'DS', keyTag: 1, algorithm: 13, digestType: 2, digest: 'ab' }] },
} as const;

describe('createFixtureResolver', () => {
  const resolver = createFixtureResolver(zones);

  it('answers listed records with normalised names and joined TXT strings', async () => {
    const txt = await resolver.query('example.test', 'TXT');
    expect(txt.status).toBe('ok');
    if (txt.status !== 'ok') return;
    expect(txt.name).toBe('example.test');
    expect(txt.records.map((r) => [r.text, r.strings])).toEqual([
      ['v=spf1 mx -all', ['v=spf1 mx -all']],
      ['part one part two', ['part one ', 'part two']],
    ]);
    const mx = await resolver.query('EXAMPLE.test.', 'MX');
    expect(mx.status === 'ok' && mx.records[0]).toMatchObject({
      preference: 10,
      exchange: 'mx.example.test',
    });
    const aaaa = await resolver.query('example.test', 'AAAA');
    expect(aaaa.status === 'ok' && aaaa.records.map((r) => r.address)).toEqual([
      '2001:db8::1',
      '2001:db8::2',
    ]);
  });

  it('splits a long TXT string into 255-octet character-strings', async () => {
    const txt = await resolver.query('long.example.test', 'TXT');
    expect(txt.status === 'ok' && txt.records[0]?.strings.map((s) => s.length)).toEqual([255, 45]);
  });

  it('gives NODATA for a listed name without the type and for empty non-terminals, NXDOMAIN otherwise', async () => {
    expect((await resolver.query('example.test', 'PTR')).status).toBe('nodata');
    expect((await resolver.query('sub.example.test', 'A')).status).toBe('nodata');
    expect((await resolver.query('nowhere.example.test', 'A')).status).toBe('nxdomain');
    const strict = createFixtureResolver(zones, { emptyNonTerminals: false });
    expect((await strict.query('sub.example.test', 'A')).status).toBe('nxdomain');
    expect((await strict.query('mail.sub.example.test', 'A')).status).toBe('ok');
  });

  it('follows CNAMEs and reports the chain; a loop is SERVFAIL', async () => {
    const a = await resolver.query('www.example.test', 'A');
    expect(a).toMatchObject({ status: 'ok', name: 'www.example.test', canonicalName: 'web.example.test' });
    expect(a.status === 'ok' && a.cnames.map((c) => c.target)).toEqual(['web.example.test']);
    expect((await resolver.query('www.example.test', 'CNAME')).status).toBe('ok');
    expect(await resolver.query('loop1.example.test', 'A')).toMatchObject({ status: 'servfail' });
  });

  it('times out and fails by switch, per type or for all', async () => {
    expect((await resolver.query('slow.example.test', 'TXT')).status).toBe('timeout');
    expect((await resolver.query('slow.example.test', 'A')).status).toBe('ok');
    expect((await resolver.query('broken.example.test', 'MX')).status).toBe('servfail');
  });

  it('synthesises wildcard answers below the closest encloser only', async () => {
    const hit = await resolver.query('a.b.wild.example.test', 'TXT');
    expect(hit.status === 'ok' && hit.records[0]).toMatchObject({
      name: 'a.b.wild.example.test',
      text: 'wildcard',
    });
    expect((await resolver.query('wild.example.test', 'TXT')).status).toBe('nodata');
  });

  it('serves other types in their decoded shape', async () => {
    const ds = await resolver.query('ds.example.test', 'DS');
    expect(ds.status === 'ok' && ds.records[0]).toMatchObject({ keyTag: 1, digest: 'ab', ttl: 300 });
  });

  it('refuses names a real resolver could not ask for, and logs every query', async () => {
    const log = createFixtureResolver(zones);
    const bad = await log.query(`${'a'.repeat(64)}.example.test`, 'A');
    expect(bad).toMatchObject({ status: 'error', error: 'invalid-name' });
    expect((await log.query('a..example.test', 'A')).status).toBe('error');
    await log.query('example.test', 'TXT');
    expect(log.queries.map((q) => `${q.name} ${q.type}`).at(-1)).toBe('example.test TXT');
    expect(log.queries).toHaveLength(3);
    log.clearQueries();
    expect(log.queries).toHaveLength(0);
  });

  it('serves names with any octets in their labels, as the DNS allows (RFC 2181 §11)', async () => {
    const odd = createFixtureResolver({
      'macro%percent  space.example.test': { A: '192.0.2.7' },
      'a:b/c.example.test': { A: '192.0.2.8' },
    });
    expect((await odd.query('MACRO%percent  space.example.test', 'A')).status).toBe('ok');
    expect((await odd.query('a:b/c.example.test', 'A')).status).toBe('ok');
  });

  it('rejects a fixture that lists a name twice', () => {
    expect(() => createFixtureResolver({ 'a.test': {}, 'A.test.': {} })).toThrow(/listed twice/);
  });
});

describe('overlayResolver', () => {
  const base = createFixtureResolver({
    'example.test': {
      TXT: 'v=spf1 -all',
      A: '192.0.2.1',
      MX: { preference: 5, exchange: 'mx.example.test' },
    },
    'mx.example.test': { A: '192.0.2.2' },
    'real-target.example.test': { A: '192.0.2.3' },
  });
  const passed: string[] = [];
  const fallback: Resolver = {
    query<T extends DnsRecordType>(name: string, type: T): Promise<DnsResult<T>> {
      passed.push(`${name} ${type}`);
      return base.query(name, type);
    },
  };

  it('answers listed (name, type) pairs and passes the rest on', async () => {
    const overlay = overlayResolver(
      {
        'example.test': { TXT: ['v=spf1 a ~all'] },
        'alias.example.test': { CNAME: 'real-target.example.test' },
        'gone.example.test': { TXT: [] },
      },
      fallback,
    );
    passed.length = 0;
    const txt = await overlay.query('example.test', 'TXT');
    expect(txt.status === 'ok' && txt.records.map((r) => r.text)).toEqual(['v=spf1 a ~all']);
    const a = await overlay.query('example.test', 'A');
    expect(a.status === 'ok' && a.records[0]?.address).toBe('192.0.2.1');
    expect((await overlay.query('gone.example.test', 'TXT')).status).toBe('nodata');
    const alias = await overlay.query('alias.example.test', 'A');
    expect(alias).toMatchObject({
      status: 'ok',
      name: 'alias.example.test',
      canonicalName: 'real-target.example.test',
    });
    expect(alias.status === 'ok' && alias.cnames).toHaveLength(1);
    expect((await overlay.query('unknown.example.test', 'A')).status).toBe('nxdomain');
    expect(passed).toEqual(['example.test A', 'real-target.example.test A', 'unknown.example.test A']);
    expect(overlay.queries.filter((q) => !q.answered)).toHaveLength(3);
  });
});
