import { describe, expect, it } from 'vitest';
import { createFixtureResolver, type FixtureZones } from '../core/fixture-resolver.ts';
import { createRng } from '../core/seeded-random.ts';
import { fuzzZones, generateSpfRecord, mutateSpfRecord } from './fuzz-records.ts';
import { lintSpf, SPF_NEEDS_DOMAIN_MESSAGE } from './lint.ts';
import { spfVerifyResultSchema } from './schema.ts';

async function lint(zones: FixtureZones, domain = 'example.test', record?: string) {
  const resolver = createFixtureResolver(zones);
  const result = await lintSpf(record === undefined ? { domain } : { domain, record }, { resolver });
  // every result must fit the API's response schema
  spfVerifyResultSchema.parse(result);
  return { result, resolver };
}

const codes = (diagnostics: { code: string }[]) => diagnostics.map((d) => d.code);

describe('verdicts', () => {
  it.each<[string, FixtureZones, string, boolean]>([
    ['a plain record', { 'example.test': { TXT: 'v=spf1 ip4:192.0.2.0/24 -all' } }, 'valid', true],
    ['+all', { 'example.test': { TXT: 'v=spf1 +all' } }, 'warnings', true],
    ['no SPF record', { 'example.test': { TXT: 'hello' } }, 'none', false],
    ['a domain that does not exist', {}, 'none', false],
    ['two SPF records', { 'example.test': { TXT: ['v=spf1 -all', 'v=spf1 ~all'] } }, 'permerror', false],
    ['a syntax error', { 'example.test': { TXT: 'v=spf1 ip4:192.0.2.300 -all' } }, 'permerror', false],
    ['a TXT lookup that fails', { 'example.test': { servfail: true } }, 'temperror', false],
    [
      'an include that fails',
      { 'example.test': { TXT: 'v=spf1 include:down.test -all' }, 'down.test': { timeout: ['TXT'] } },
      'temperror',
      false,
    ],
  ])('%s → %s', async (_, zones, status, valid) => {
    const { result } = await lint(zones);
    expect(result.status).toBe(status);
    expect(result.valid).toBe(valid);
    expect(result.errors.length > 0).toBe(!valid);
  });

  it('rejects a name that cannot hold a record without asking the DNS', async () => {
    const { result, resolver } = await lint({}, 'localhost');
    expect(result.status).toBe('none');
    expect(codes(result.diagnostics)).toContain('SPF_DOMAIN_INVALID');
    expect(resolver.queries).toEqual([]);
  });
});

describe('the include tree and the lookup limit', () => {
  // 4 includes at the root, each with a:host and one nested include: 4 + 4 × 2 = 12 lookups
  const overLimit: FixtureZones = {
    'example.test': {
      TXT: 'v=spf1 ip4:192.0.2.1 include:p1.test include:p2.test include:p3.test include:p4.test -all',
    },
  };
  for (const n of [1, 2, 3, 4]) {
    overLimit[`p${n}.test`] = { TXT: `v=spf1 a:mail.p${n}.test include:n${n}.test ~all` };
    overLimit[`mail.p${n}.test`] = { A: `198.51.100.${n}` };
    overLimit[`n${n}.test`] = { TXT: `v=spf1 ip4:203.0.113.${n * 16}/28 -all` };
  }

  it('counts 12 lookups over the tree and explains the permerror', async () => {
    const { result } = await lint(overLimit);
    expect(result.status).toBe('permerror');
    expect(result.lookups).toBe(12);
    expect(result.lookupLimit).toBe(10);
    const over = result.diagnostics.find((d) => d.code === 'SPF_TREE_LOOKUP_LIMIT');
    expect(over?.message).toMatch(/need 12 DNS lookups/);
    expect(over?.message).toContain('include:p1.test 3');
    expect(over?.rfc).toBe('RFC 7208 §4.6.4');
    // the 4th include takes the running total from 10 to 13... 1+3+3+3 = 10, so the fourth (p4) is over
    expect(over?.span).toEqual(result.tree[0]?.terms.find((t) => t.text === 'include:p4.test')?.span);
  });

  it('builds the tree breadth-first with per-node counts', async () => {
    const { result } = await lint(overLimit);
    expect(result.tree.map((n) => [n.id, n.depth, n.domain, n.via])).toEqual([
      [0, 0, 'example.test', 'root'],
      [1, 1, 'p1.test', 'include'],
      [2, 1, 'p2.test', 'include'],
      [3, 1, 'p3.test', 'include'],
      [4, 1, 'p4.test', 'include'],
      [5, 2, 'n1.test', 'include'],
      [6, 2, 'n2.test', 'include'],
      [7, 2, 'n3.test', 'include'],
      [8, 2, 'n4.test', 'include'],
    ]);
    const p1 = result.tree[1]!;
    expect(p1).toMatchObject({
      parent: 0,
      ownLookups: 2,
      lookups: 2,
      children: [5],
      viaTerm: 'include:p1.test',
    });
    expect(p1.terms.find((t) => t.name === 'a')).toMatchObject({
      lookups: 1,
      addresses: ['198.51.100.1/32'],
    });
    expect(result.tree[0]).toMatchObject({ ownLookups: 4, lookups: 12, children: [1, 2, 3, 4] });
  });

  it('asks all names of one depth before any name of the next', async () => {
    const { resolver } = await lint(overLimit);
    const txt = resolver.queries.filter((q) => q.type === 'TXT').map((q) => q.name);
    expect(txt[0]).toBe('example.test');
    const depth1 = txt.slice(1, 5).sort();
    expect(depth1).toEqual(['p1.test', 'p2.test', 'p3.test', 'p4.test']);
    expect(txt.slice(5).sort()).toEqual(['n1.test', 'n2.test', 'n3.test', 'n4.test']);
  });

  it('stays valid at the limit with a warning', async () => {
    const zones: FixtureZones = {
      'example.test': {
        TXT: 'v=spf1 include:p1.test include:p2.test include:p3.test a -all',
        A: '192.0.2.1',
      },
      'mx.example.test': { A: '192.0.2.2' },
    };
    for (const n of [1, 2, 3]) {
      zones[`p${n}.test`] = {
        TXT: `v=spf1 a:a.p${n}.test mx -all`,
        MX: { preference: 10, exchange: 'mx.example.test' },
      };
      zones[`a.p${n}.test`] = { A: `198.51.100.${n}` };
    }
    const { result } = await lint(zones);
    expect(result.lookups).toBe(10);
    expect(result.status).toBe('warnings');
    expect(codes(result.diagnostics)).toContain('SPF_LOOKUPS_NEAR_LIMIT');
  });

  it('reports a loop on its branch and does not follow it', async () => {
    const { result } = await lint({
      'example.test': { TXT: 'v=spf1 include:a.test -all' },
      'a.test': { TXT: 'v=spf1 include:b.test -all' },
      'b.test': { TXT: 'v=spf1 include:a.test -all' },
    });
    expect(result.status).toBe('permerror');
    expect(result.tree.map((n) => n.status)).toEqual(['ok', 'ok', 'ok', 'loop']);
    expect(result.tree[3]).toMatchObject({ domain: 'a.test', parent: 2 });
    const loop = result.diagnostics.find((d) => d.code === 'SPF_INCLUDE_LOOP');
    expect(loop?.message).toContain('example.test → a.test → b.test → a.test');
  });

  it('fetches the same domain on two branches without calling it a loop', async () => {
    const { result } = await lint({
      'example.test': { TXT: 'v=spf1 include:a.test include:b.test -all' },
      'a.test': { TXT: 'v=spf1 include:shared.test -all' },
      'b.test': { TXT: 'v=spf1 include:shared.test -all' },
      'shared.test': { TXT: 'v=spf1 ip4:192.0.2.0/24 -all' },
    });
    expect(result.status).toBe('valid');
    expect(result.tree.filter((n) => n.domain === 'shared.test').map((n) => n.status)).toEqual(['ok', 'ok']);
    expect(result.lookups).toBe(4);
  });

  it.each<[string, FixtureName, string, number]>([
    ['no SPF record', { TXT: 'google-site-verification=abc' }, 'none', 0],
    ['no TXT record at all', { A: '192.0.2.1' }, 'none', 1],
    ['a name that does not exist', {}, 'nxdomain', 1],
  ])('flags an include target with %s as permerror', async (_, target, status, voids) => {
    const zones: FixtureZones = { 'example.test': { TXT: 'v=spf1 include:target.test -all' } };
    if (Object.keys(target).length > 0) zones['target.test'] = target;
    const { result } = await lint(zones);
    expect(result.status).toBe('permerror');
    expect(result.tree[1]).toMatchObject({ domain: 'target.test', status });
    expect(result.voidLookups).toBe(voids);
    const missing = result.diagnostics.find((d) => d.code === 'SPF_INCLUDE_NO_RECORD');
    expect(missing?.message).toMatch(/include:target\.test/);
    expect(missing?.rfc).toBe('RFC 7208 §5.2');
  });

  it('follows redirect only when no all ends the record', async () => {
    const followed = await lint({
      'example.test': { TXT: 'v=spf1 redirect=_spf.example.test' },
      '_spf.example.test': { TXT: 'v=spf1 ip4:192.0.2.0/24 -all' },
    });
    expect(followed.result.tree[1]).toMatchObject({ via: 'redirect', status: 'ok' });
    expect(followed.result.lookups).toBe(1);
    expect(followed.result.networks.flattened).toBe('v=spf1 ip4:192.0.2.0/24 -all');

    const ignored = await lint({ 'example.test': { TXT: 'v=spf1 -all redirect=_spf.example.test' } });
    expect(ignored.result.tree).toHaveLength(1);
    expect(ignored.result.tree[0]?.terms[1]).toMatchObject({ reachable: false, lookups: 0 });
    expect(ignored.result.lookups).toBe(0);
  });

  it('shows a target with macros without fetching it', async () => {
    const { result, resolver } = await lint({
      'example.test': { TXT: 'v=spf1 include:%{ir}._spf.example.test exists:%{i}.ok.example.test -all' },
    });
    expect(result.tree[1]).toMatchObject({ status: 'dynamic', domain: '%{ir}._spf.example.test' });
    expect(result.tree[0]?.terms[1]).toMatchObject({ dynamic: true, lookups: 1 });
    expect(resolver.queries.map((q) => q.name)).toEqual(['example.test']);
    expect(result.lookups).toBe(2);
    expect(result.networks.complete).toBe(false);
  });
});

describe('void lookups', () => {
  it('counts names that find nothing and fails past 2', async () => {
    const { result } = await lint({
      'example.test': { TXT: 'v=spf1 a:gone1.test mx:gone2.test exists:gone3.test ip4:192.0.2.1 -all' },
    });
    expect(result.voidLookups).toBe(3);
    expect(result.voidLookupLimit).toBe(2);
    expect(result.status).toBe('permerror');
    expect(codes(result.diagnostics)).toContain('SPF_VOID_LOOKUP_LIMIT');
    expect(result.tree[0]?.terms.map((t) => t.voidLookups)).toEqual([1, 1, 1, 0, 0]);
  });

  it('warns at one', async () => {
    const { result } = await lint({ 'example.test': { TXT: 'v=spf1 a:gone.test -all' } });
    expect(result.voidLookups).toBe(1);
    expect(result.status).toBe('warnings');
    expect(codes(result.diagnostics)).toContain('SPF_VOID_LOOKUP');
  });
});

describe('networks', () => {
  it('lists ip4/ip6 and the a/mx addresses, deduplicated, and a flattened record', async () => {
    const { result } = await lint({
      'example.test': {
        TXT: 'v=spf1 ip4:192.0.2.0/24 ip6:2001:db8::/32 a/24 mx include:p.test ~all',
        A: '198.51.100.7',
        MX: [
          { preference: 10, exchange: 'mx1.example.test' },
          { preference: 20, exchange: 'mx2.example.test' },
        ],
      },
      'mx1.example.test': { A: '192.0.2.25', AAAA: '2001:db8::25' },
      'mx2.example.test': { A: '203.0.113.9' },
      'p.test': { TXT: 'v=spf1 ip4:192.0.2.0/24 -ip4:203.0.113.0/24 -all' },
    });
    expect(result.networks.entries.map((e) => [e.qualifier, e.network])).toEqual([
      ['+', '192.0.2.0/24'],
      ['+', '2001:db8::/32'],
      ['+', '198.51.100.0/24'],
      ['+', '192.0.2.25/32'],
      ['+', '2001:db8::25/128'],
      ['+', '203.0.113.9/32'],
      ['-', '203.0.113.0/24'],
    ]);
    expect(result.networks.entries[0]?.sources).toEqual([
      { domain: 'example.test', term: 'ip4:192.0.2.0/24' },
      { domain: 'p.test', term: 'ip4:192.0.2.0/24' },
    ]);
    expect(result.networks.flattened).toBe(
      'v=spf1 ip4:192.0.2.0/24 ip6:2001:db8::/32 ip4:198.51.100.0/24 ip4:192.0.2.25 ip6:2001:db8::25 ip4:203.0.113.9 ~all',
    );
    expect(result.networks.complete).toBe(false);
    expect(result.networks.incomplete[0]).toContain('-ip4:203.0.113.0/24');
    expect(result.networks.note).toMatch(/stale/);
  });
});

describe('a pasted record', () => {
  it('is linted as if published at the domain, the rest from the DNS', async () => {
    const zones: FixtureZones = {
      'example.test': { TXT: 'v=spf1 -all', A: '192.0.2.80' },
      'p.test': { TXT: 'v=spf1 ip4:198.51.100.0/24 -all' },
    };
    const { result, resolver } = await lint(zones, 'example.test', ' v=spf1 a include:p.test ~all ');
    expect(result.spfRecord).toBe('v=spf1 a include:p.test ~all');
    expect(result.tree[0]).toMatchObject({
      pasted: true,
      record: 'v=spf1 a include:p.test ~all',
      lookups: 2,
    });
    expect(result.tree[0]?.terms[0]?.addresses).toEqual(['192.0.2.80/32']);
    expect(result.tree[1]).toMatchObject({ domain: 'p.test', status: 'ok', pasted: false });
    // the published record is never asked for
    expect(resolver.queries.some((q) => q.name === 'example.test' && q.type === 'TXT')).toBe(false);
  });

  it('keeps spans that point into the pasted record', async () => {
    const record = 'v=spf1 ip4:192.0.2.1 ptr -all';
    const { result } = await lint({}, 'example.test', record);
    const ptr = result.diagnostics.find((d) => d.code === 'SPF_PTR');
    expect(ptr?.span && record.slice(ptr.span.start, ptr.span.end)).toBe('ptr');
  });

  it('offers the record without the term that breaks it', async () => {
    const { result } = await lint({}, '', 'v=spf1 ip4:300.1.1.1 ip4:192.0.2.0/24 -all');
    expect(result.status).toBe('permerror');
    expect(result.correctedRecord?.record).toBe('v=spf1 ip4:192.0.2.0/24 -all');
    const { result: again } = await lint({}, '', result.correctedRecord!.record);
    expect(again.errors).toEqual([]);
    expect(again.correctedRecord).toBeUndefined();
  });

  it('is linted without a domain: includes resolved, the terms naming the domain itself left out', async () => {
    const zones: FixtureZones = {
      'p.test': { TXT: 'v=spf1 ip4:198.51.100.0/24 -all' },
      'mail.q.test': { A: '192.0.2.25' },
    };
    const record = 'v=spf1 a mx a:mail.q.test include:p.test ~all';
    const { result, resolver } = await lint(zones, '', record);
    expect(result.spfRecord).toBe(record);
    expect(result.status).toBe('valid');
    expect(codes(result.diagnostics)).toEqual(['SPF_DOMAIN_NEEDED', 'SPF_DOMAIN_NEEDED']);
    expect(result.tree[0]).toMatchObject({ domain: '', pasted: true, status: 'ok', lookups: 4 });
    const [a, mx, aHost] = result.tree[0]!.terms;
    expect(a).toMatchObject({ text: 'a', lookups: 1, message: SPF_NEEDS_DOMAIN_MESSAGE });
    expect(a?.addresses).toBeUndefined();
    expect(mx).toMatchObject({ text: 'mx', message: SPF_NEEDS_DOMAIN_MESSAGE });
    expect(aHost?.addresses).toEqual(['192.0.2.25/32']);
    expect(result.tree[1]).toMatchObject({ domain: 'p.test', status: 'ok' });
    // nothing is asked about an empty name
    expect(resolver.queries.map((q) => q.name)).not.toContain('');
  });
});

describe('fuzzing the linter', () => {
  const CASES = 10_000;
  it(`keeps its invariants over ${CASES} random and mutated records`, { timeout: 120_000 }, async () => {
    const rng = createRng(7209);
    const corpus = ['v=spf1 include:inc1.example.com include:loop.example.com mx a ptr exists:%{i}.x -all'];
    for (let n = 0; n < CASES; n++) {
      const record =
        n % 2 === 0
          ? generateSpfRecord(rng)
          : mutateSpfRecord(rng, corpus[Math.floor(rng() * corpus.length)] ?? '');
      if (n % 50 === 0) corpus.push(record);
      const resolver = createFixtureResolver(
        fuzzZones(record, [generateSpfRecord(rng), mutateSpfRecord(rng, record)]),
      );
      // half as published, half pasted over other zone data
      const result = await lintSpf(
        n % 2 === 0 ? { domain: 'example.com' } : { domain: 'example.com', record },
        {
          resolver,
        },
      );
      expect(['valid', 'warnings', 'permerror', 'temperror', 'none']).toContain(result.status);
      expect(result.valid).toBe(result.errors.length === 0);
      result.tree.forEach((node, id) => {
        expect(node.id).toBe(id);
        const own = node.terms.reduce((sum, t) => sum + t.lookups, 0);
        expect(node.ownLookups).toBe(own);
        expect(node.lookups).toBe(own + node.children.reduce((sum, c) => sum + result.tree[c]!.lookups, 0));
      });
      expect(resolver.queries.length).toBeLessThan(1000);
      if (n % 500 === 0) spfVerifyResultSchema.parse(JSON.parse(JSON.stringify(result)));
    }
  });
});

type FixtureName = FixtureZones[string];
