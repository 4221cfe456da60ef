import { describe, expect, it } from 'vitest';
import { createFixtureResolver, overlayResolver, type FixtureZones } from '../core/fixture-resolver.ts';
import type { DnsRecordType, DnsResult, Resolver } from '../core/resolver.ts';
import { checkHost, isCheckableDomain, type CheckHostInput } from './evaluate.ts';
import { spfCheckResultSchema } from './schema.ts';

function check(zones: FixtureZones, input: Partial<CheckHostInput> = {}) {
  const resolver = createFixtureResolver(zones);
  return checkHost(
    { ip: '192.0.2.10', sender: 'user@example.com', helo: 'mail.example.com', ...input },
    { resolver },
  );
}

describe('results and the deciding term', () => {
  it.each([
    ['v=spf1 ip4:192.0.2.0/24 -all', 'pass', 'ip4:192.0.2.0/24'],
    ['v=spf1 ip4:198.51.100.0/24 -all', 'fail', '-all'],
    ['v=spf1 ip4:198.51.100.0/24 ~all', 'softfail', '~all'],
    ['v=spf1 ?ip4:192.0.2.10 -all', 'neutral', '?ip4:192.0.2.10'],
    ['v=spf1 -ip4:192.0.2.10 +all', 'fail', '-ip4:192.0.2.10'],
    ['v=spf1 ip6:2001:db8::/32 -all', 'fail', '-all'],
  ])('%j → %s by %s', async (record, result, term) => {
    const outcome = await check({ 'example.com': { TXT: record } });
    expect(outcome.result).toBe(result);
    expect(outcome.mechanism).toMatchObject({ term, domain: 'example.com' });
  });

  it('is neutral by default and none without a record, with no deciding term', async () => {
    const neutral = await check({ 'example.com': { TXT: 'v=spf1 ip4:198.51.100.1' } });
    expect(neutral.result).toBe('neutral');
    expect(neutral.mechanism).toBeUndefined();
    expect(neutral.trace.at(-1)).toMatchObject({ kind: 'default', result: 'neutral' });
    expect((await check({ 'example.com': { TXT: 'hello' } })).result).toBe('none');
    expect((await check({})).result).toBe('none');
  });

  it('is permerror for a syntax error anywhere, naming the bad term', async () => {
    const outcome = await check({ 'example.com': { TXT: 'v=spf1 ip4:192.0.2.10 -all moo' } });
    expect(outcome.result).toBe('permerror');
    expect(outcome.mechanism).toMatchObject({ term: 'moo', index: 2 });
    expect(outcome.reason).toMatch(/moo/);
  });

  it('is permerror for two SPF records and temperror when the TXT lookup fails', async () => {
    expect((await check({ 'example.com': { TXT: ['v=spf1 -all', 'v=spf1 +all'] } })).result).toBe(
      'permerror',
    );
    expect((await check({ 'example.com': { servfail: ['TXT'] } })).result).toBe('temperror');
    expect((await check({ 'example.com': { timeout: true } })).result).toBe('temperror');
  });

  it('checks postmaster@<helo> for a null sender (RFC 7208 §2.4)', async () => {
    const outcome = await check(
      {
        'mail.example.com': { TXT: 'v=spf1 exists:%{l}.%{o}.allow.example.com -all' },
        'postmaster.mail.example.com.allow.example.com': { A: '127.0.0.2' },
      },
      { sender: '' },
    );
    expect(outcome).toMatchObject({
      result: 'pass',
      domain: 'mail.example.com',
      sender: 'postmaster@mail.example.com',
    });
  });

  it('checks the domain given instead of the sender domain', async () => {
    const outcome = await check(
      { 'example.com': { TXT: 'v=spf1 -all' }, 'helo.example.net': { TXT: 'v=spf1 +all' } },
      { domain: 'helo.example.net' },
    );
    expect(outcome.result).toBe('pass');
  });

  it('returns none for a domain that cannot be checked (RFC 7208 §4.3)', async () => {
    expect((await check({}, { sender: 'a@[192.0.2.1]' })).result).toBe('none');
    expect((await check({}, { sender: '', helo: 'localhost' })).result).toBe('none');
    expect(isCheckableDomain(`${'a'.repeat(64)}.example.com`)).toBe(false);
    expect(isCheckableDomain('a..example.com')).toBe(false);
    expect(isCheckableDomain('example.com.')).toBe(true);
  });

  it('treats an IPv4-mapped client as IPv4 (RFC 7208 §5)', async () => {
    const zones = { 'example.com': { TXT: 'v=spf1 ip6:::/0 ip4:192.0.2.0/24 -all' } };
    expect((await check(zones, { ip: '::ffff:192.0.2.10' })).mechanism?.term).toBe('ip4:192.0.2.0/24');
  });

  it('throws on an address that is not one', async () => {
    await expect(check({}, { ip: '192.0.2' })).rejects.toThrow(TypeError);
  });
});

describe('mechanisms that query the DNS (RFC 7208 §5)', () => {
  it('a and mx match within the prefix lengths, by address family', async () => {
    const zones: FixtureZones = {
      'example.com': {
        TXT: 'v=spf1 a/24 mx//48 -all',
        A: '192.0.2.200',
        MX: { preference: 10, exchange: 'mx.example.com' },
      },
      'mx.example.com': { A: '198.51.100.1', AAAA: '2001:db8:1::1' },
    };
    expect((await check(zones)).mechanism?.term).toBe('a/24');
    expect((await check(zones, { ip: '2001:db8:1:ffff::9' })).mechanism?.term).toBe('mx//48');
    expect((await check(zones, { ip: '198.51.100.2' })).result).toBe('fail');
  });

  it('exists queries A even for an IPv6 client', async () => {
    const zones: FixtureZones = {
      'example.com': { TXT: 'v=spf1 exists:%{ir}.%{v}.allow.example.com -all' },
      '1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.allow.example.com': {
        A: '127.0.0.2',
      },
    };
    const resolver = createFixtureResolver(zones);
    const outcome = await checkHost({ ip: '2001:db8::1', sender: 'a@example.com' }, { resolver });
    expect(outcome.result).toBe('pass');
    expect(resolver.queries.map((q) => q.type)).toEqual(['TXT', 'A']);
  });

  it('ptr needs a name that maps back to the client and lies within the target', async () => {
    const zones: FixtureZones = {
      'example.com': { TXT: 'v=spf1 ptr -all' },
      '10.2.0.192.in-addr.arpa': { PTR: ['host.other.example', 'mail.example.com', 'fake.example.com'] },
      'mail.example.com': { A: '192.0.2.10' },
      'fake.example.com': { A: '192.0.2.99' },
    };
    const outcome = await check(zones);
    expect(outcome.result).toBe('pass');
    expect(outcome.trace.find((s) => s.term === 'ptr')?.message).toMatch(/mail\.example\.com/);
    expect((await check({ ...zones, 'mail.example.com': { A: '192.0.2.11' } })).result).toBe('fail');
  });

  it('include matches on pass only; none is permerror, temperror passes through', async () => {
    const base: FixtureZones = {
      'example.com': { TXT: 'v=spf1 include:_spf.example.net -all' },
    };
    const withInner = (record: string) => check({ ...base, '_spf.example.net': { TXT: record } });
    expect((await withInner('v=spf1 ip4:192.0.2.0/24 -all')).mechanism?.term).toBe(
      'include:_spf.example.net',
    );
    for (const inner of ['v=spf1 -all', 'v=spf1 ~all', 'v=spf1 ?all']) {
      expect((await withInner(inner)).mechanism?.term).toBe('-all');
    }
    expect((await withInner('not spf')).result).toBe('permerror');
    expect((await check(base)).result).toBe('permerror');
    expect((await check({ ...base, '_spf.example.net': { timeout: true } })).result).toBe('temperror');
    expect((await withInner('v=spf1 moo')).result).toBe('permerror');
  });

  it('redirect continues at the target, whose missing record is permerror', async () => {
    const zones: FixtureZones = {
      'example.com': { TXT: 'v=spf1 ip4:198.51.100.1 redirect=_spf.example.net' },
      '_spf.example.net': { TXT: 'v=spf1 ip4:192.0.2.0/24 -all' },
    };
    const outcome = await check(zones);
    expect(outcome.mechanism).toMatchObject({ term: 'ip4:192.0.2.0/24', domain: '_spf.example.net' });
    expect(outcome.trace.map((s) => s.depth)).toContain(1);
    expect((await check({ 'example.com': zones['example.com']! })).result).toBe('permerror');
  });

  it('follows a CNAME to the record', async () => {
    const zones: FixtureZones = {
      'example.com': { CNAME: 'spf.provider.example' },
      'spf.provider.example': { TXT: 'v=spf1 ip4:192.0.2.10 -all' },
    };
    expect((await check(zones)).result).toBe('pass');
  });

  it('a target name that cannot be looked up matches nothing', async () => {
    const outcome = await check(
      { 'example.com': { TXT: 'v=spf1 a:%{l}.example.com -all' } },
      { sender: `${'x'.repeat(70)}@example.com` },
    );
    expect(outcome.result).toBe('fail');
    expect(outcome.trace.find((s) => s.term?.startsWith('a:'))?.message).toMatch(/cannot be looked up/);
  });
});

describe('processing limits (RFC 7208 §4.6.4)', () => {
  const aTerms = (n: number) => Array.from({ length: n }, (_, i) => `a:h${i}.example.com`).join(' ');
  const hosts = (n: number): FixtureZones =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`h${i}.example.com`, { A: '198.51.100.1' }]));

  it('allows 10 DNS-querying terms and stops at the 11th', async () => {
    const at = await check({
      ...hosts(11),
      'example.com': { TXT: `v=spf1 ${aTerms(10)} ip4:192.0.2.10 -all` },
    });
    expect(at).toMatchObject({ result: 'pass', lookups: 10 });
    const over = await check({
      ...hosts(11),
      'example.com': { TXT: `v=spf1 ${aTerms(11)} ip4:192.0.2.10 -all` },
    });
    expect(over).toMatchObject({
      result: 'permerror',
      lookups: 11,
      mechanism: { term: 'a:h10.example.com' },
    });
    expect(over.trace.at(-1)).toMatchObject({
      term: 'a:h10.example.com',
      outcome: 'error',
      result: 'permerror',
      queries: [],
    });
    expect(over.reason).toMatch(/11th term that queries the DNS; the limit is 10/);
  });

  it('counts across include and redirect', async () => {
    const zones: FixtureZones = {
      ...hosts(10),
      'example.com': { TXT: `v=spf1 include:inc.example.com ${aTerms(2)} redirect=r.example.com` },
      'inc.example.com': { TXT: `v=spf1 ${aTerms(5)}` },
      'r.example.com': { TXT: 'v=spf1 a:h9.example.com ip4:192.0.2.10' },
    };
    // include 1 + 5 + 2 + redirect 1 + 1 = 10
    expect(await check(zones)).toMatchObject({ result: 'pass', lookups: 10 });
    zones['r.example.com'] = { TXT: 'v=spf1 a:h9.example.com a:h8.example.com ip4:192.0.2.10' };
    expect((await check(zones)).result).toBe('permerror');
  });

  it('allows two void lookups and stops at the third', async () => {
    const two = await check({ 'example.com': { TXT: 'v=spf1 a:nx1.example.com mx:nx2.example.com ?all' } });
    expect(two).toMatchObject({ result: 'neutral', voidLookups: 2 });
    const three = await check({
      'example.com': { TXT: 'v=spf1 a:nx1.example.com mx:nx2.example.com exists:nx3.example.com ?all' },
    });
    expect(three).toMatchObject({
      result: 'permerror',
      voidLookups: 3,
      mechanism: { term: 'exists:nx3.example.com' },
    });
    expect(three.trace.at(-1)).toMatchObject({
      term: 'exists:nx3.example.com',
      outcome: 'error',
      queries: [{ name: 'nx3.example.com', type: 'A', status: 'nxdomain', void: true }],
    });
    const configured = await checkHost(
      { ip: '192.0.2.10', sender: 'a@example.com' },
      {
        resolver: createFixtureResolver({
          'example.com': { TXT: 'v=spf1 a:nx1.example.com mx:nx2.example.com exists:nx3.example.com ?all' },
        }),
        voidLookupLimit: 3,
      },
    );
    expect(configured.result).toBe('neutral');
  });

  it('does not count the exp= lookup as void', async () => {
    const outcome = await check({
      'example.com': { TXT: 'v=spf1 a:nx1.example.com a:nx2.example.com -all exp=nx3.example.com' },
    });
    expect(outcome).toMatchObject({ result: 'fail', voidLookups: 2 });
    expect(outcome.explanation).toBeUndefined();
  });

  it('is permerror when a name has more than 10 MX records, and checks 10', async () => {
    const mx = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ preference: i, exchange: `mx${i}.example.com` }));
    const exchanges: FixtureZones = Object.fromEntries(
      Array.from({ length: 11 }, (_, i) => [
        `mx${i}.example.com`,
        { A: i === 9 ? '192.0.2.10' : '198.51.100.1' },
      ]),
    );
    expect((await check({ ...exchanges, 'example.com': { TXT: 'v=spf1 mx -all', MX: mx(10) } })).result).toBe(
      'pass',
    );
    expect((await check({ ...exchanges, 'example.com': { TXT: 'v=spf1 mx -all', MX: mx(11) } })).result).toBe(
      'permerror',
    );
  });

  it('uses only the first 10 PTR names', async () => {
    const names = Array.from({ length: 11 }, (_, i) => `h${i}.example.com`);
    const zones: FixtureZones = {
      'example.com': { TXT: 'v=spf1 ptr -all' },
      '10.2.0.192.in-addr.arpa': { PTR: names },
      'h10.example.com': { A: '192.0.2.10' },
    };
    expect((await check(zones)).result).toBe('fail');
    zones['h9.example.com'] = { A: '192.0.2.10' };
    expect((await check(zones)).result).toBe('pass');
  });

  it('catches include and redirect loops', async () => {
    const include = await check({
      'example.com': { TXT: 'v=spf1 include:b.example.com -all' },
      'b.example.com': { TXT: 'v=spf1 include:example.com -all' },
    });
    expect(include.result).toBe('permerror');
    expect(include.reason).toBe('include loop: example.com → b.example.com → example.com');
    const redirect = await check({ 'example.com': { TXT: 'v=spf1 redirect=Example.COM.' } });
    expect(redirect.result).toBe('permerror');
    expect(redirect.reason).toMatch(/^redirect loop/);
  });

  it('may include the same domain twice side by side', async () => {
    const outcome = await check({
      'example.com': { TXT: 'v=spf1 include:a.example.com include:b.example.com -all' },
      'a.example.com': { TXT: 'v=spf1 ip4:198.51.100.1 -all' },
      'b.example.com': { CNAME: 'a.example.com' },
    });
    expect(outcome).toMatchObject({ result: 'fail', lookups: 2 });
  });

  it('ends in temperror when the resolver does not answer in time', async () => {
    const silent: Resolver = { query: () => new Promise(() => undefined) };
    const outcome = await checkHost(
      { ip: '192.0.2.1', sender: 'a@example.com' },
      { resolver: silent, timeoutMs: 20 },
    );
    expect(outcome.result).toBe('temperror');
    expect(outcome.trace[0]?.queries[0]).toMatchObject({
      name: 'example.com',
      type: 'TXT',
      status: 'timeout',
    });
  });

  it('ends in temperror when the resolver throws, against its contract', async () => {
    const broken: Resolver = {
      query: () => Promise.reject(new Error('socket closed')),
    };
    const outcome = await checkHost({ ip: '192.0.2.1', sender: 'a@example.com' }, { resolver: broken });
    expect(outcome.result).toBe('temperror');
    expect(outcome.reason).toMatch(/socket closed/);
  });
});

describe('explanations (RFC 7208 §6.2)', () => {
  it('expands the exp= text after a fail', async () => {
    const outcome = await checkHost(
      { ip: '192.0.2.10', sender: 'user@example.com', helo: 'mail.example.com' },
      {
        resolver: createFixtureResolver({
          'example.com': { TXT: 'v=spf1 -all exp=why.%{d}' },
          'why.example.com': {
            TXT: '%{c} may not send for %{o} (%{l}); see https://%{d}/spf, checked by %{r} at %{t}',
          },
        }),
        receivingHost: 'mx.receiver.example',
        now: 1_700_000_000_000,
      },
    );
    expect(outcome.explanation).toBe(
      '192.0.2.10 may not send for example.com (user); see https://example.com/spf, checked by mx.receiver.example at 1700000000',
    );
    expect(outcome.trace.at(-1)).toMatchObject({
      kind: 'explanation',
      outcome: 'found',
      target: 'why.example.com',
    });
  });

  it("gives none for pass, softfail or a fail inside an include; uses the redirect target's exp", async () => {
    const zones: FixtureZones = {
      'why.example.com': { TXT: 'outer' },
      'inner-why.example.com': { TXT: 'inner' },
    };
    const soft = await check({ ...zones, 'example.com': { TXT: 'v=spf1 ~all exp=why.example.com' } });
    expect(soft.explanation).toBeUndefined();
    const resolver = createFixtureResolver({
      ...zones,
      'example.com': { TXT: 'v=spf1 include:inner.example.com -all exp=why.example.com' },
      'inner.example.com': { TXT: 'v=spf1 -all exp=inner-why.example.com' },
    });
    const included = await checkHost({ ip: '192.0.2.10', sender: 'a@example.com' }, { resolver });
    expect(included.explanation).toBe('outer');
    // the inner exp= is never fetched
    expect(resolver.queries.map((q) => q.name)).not.toContain('inner-why.example.com');
    const redirected = await check({
      ...zones,
      'example.com': { TXT: 'v=spf1 exp=why.example.com redirect=inner.example.com' },
      'inner.example.com': { TXT: 'v=spf1 -all exp=inner-why.example.com' },
    });
    expect(redirected.explanation).toBe('inner');
  });

  it('ignores an exp= whose lookup or text fails', async () => {
    for (const target of [
      { TXT: ['one', 'two'] },
      { servfail: true },
      { TXT: 'bad %{x}' },
      { TXT: 'caf\u00e9' },
    ]) {
      const outcome = await check({
        'example.com': { TXT: 'v=spf1 -all exp=why.example.com' },
        'why.example.com': target,
      });
      expect(outcome).toMatchObject({ result: 'fail' });
      expect(outcome.explanation).toBeUndefined();
    }
  });
});

describe('%{p} (RFC 7208 §7.3)', () => {
  it('prefers the domain, then a subdomain of it, and looks PTR up once', async () => {
    const resolver = createFixtureResolver({
      'example.com': { TXT: 'v=spf1 exists:%{p}.ok.example.net exists:%{p}.again.example.net -all' },
      '10.2.0.192.in-addr.arpa': { PTR: ['mx.other.example', 'mx.example.com'] },
      'mx.other.example': { A: '192.0.2.10' },
      'mx.example.com': { A: '192.0.2.10' },
      'mx.example.com.again.example.net': { A: '127.0.0.2' },
    });
    const outcome = await checkHost({ ip: '192.0.2.10', sender: 'a@example.com' }, { resolver });
    expect(outcome.mechanism?.term).toBe('exists:%{p}.again.example.net');
    expect(resolver.queries.filter((q) => q.type === 'PTR')).toHaveLength(1);
    expect(outcome.trace.some((s) => s.kind === 'macro')).toBe(true);
  });
});

describe('the trace', () => {
  it('records each step with what was queried and what came back, and fits the API schema', async () => {
    const outcome = await check({
      'example.com': { TXT: 'v=spf1 ip4:198.51.100.0/24 a include:_spf.example.net -all' },
      '_spf.example.net': { TXT: 'v=spf1 ip4:192.0.2.0/24 -all' },
    });
    expect(outcome.result).toBe('pass');
    expect(
      outcome.trace.map((s) => [
        s.depth,
        s.domain,
        s.kind,
        s.term ?? s.record,
        s.outcome,
        s.queries.map((q) => `${q.name} ${q.type} ${q.status}`),
      ]),
    ).toEqual([
      [
        0,
        'example.com',
        'record',
        'v=spf1 ip4:198.51.100.0/24 a include:_spf.example.net -all',
        'found',
        ['example.com TXT ok'],
      ],
      [0, 'example.com', 'term', 'ip4:198.51.100.0/24', 'no-match', []],
      [0, 'example.com', 'term', 'a', 'no-match', ['example.com A nodata']],
      [0, 'example.com', 'term', 'include:_spf.example.net', 'match', []],
      [1, '_spf.example.net', 'record', 'v=spf1 ip4:192.0.2.0/24 -all', 'found', ['_spf.example.net TXT ok']],
      [1, '_spf.example.net', 'term', 'ip4:192.0.2.0/24', 'match', []],
    ]);
    expect(outcome.trace[3]).toMatchObject({
      result: 'pass',
      message: '_spf.example.net gave pass, so the include matches',
    });
    expect(outcome.trace[2]).toMatchObject({ lookups: 1, voidLookups: 1, target: 'example.com' });
    expect(spfCheckResultSchema.parse(JSON.parse(JSON.stringify(outcome)))).toEqual(outcome);
  });
});

describe('a pasted record evaluated as if published (overlay resolver)', () => {
  it('uses the pasted TXT record and the real A records of the domain', async () => {
    const dns = createFixtureResolver({
      'example.com': { TXT: 'v=spf1 -all', A: '192.0.2.10' },
    });
    const passed: string[] = [];
    const recording: Resolver = {
      query<T extends DnsRecordType>(name: string, type: T): Promise<DnsResult<T>> {
        passed.push(`${name} ${type}`);
        return dns.query(name, type);
      },
    };
    const resolver = overlayResolver({ 'example.com': { TXT: ['v=spf1 a -all'] } }, recording);
    const outcome = await checkHost({ ip: '192.0.2.10', sender: 'a@example.com' }, { resolver });
    expect(outcome.result).toBe('pass');
    expect(passed).toEqual(['example.com A']);
  });
});
