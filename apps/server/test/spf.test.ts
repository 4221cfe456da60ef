// POST /v1/spf/verify, /check and /generate with the server's DNS client pointed at the lab DNS
// server: whole scenarios of the RFC 7208 test suite served by the lab and checked through the
// API, a lab domain whose include chain is over the lookup limit, a pasted record, the generator,
// sign-in, and a fuzz of request bodies that must never produce a 5xx.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DnsNameFixture, DnsZones } from '@rfckit/testlab';
import type { SpfCheckResultData, SpfGenerateResultData, SpfVerifyResultData } from '@rfckit/standards';
import { createRng } from '@rfckit/standards/testing';
import { parseAllDocuments } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from './helpers/databases.ts';
import { testTld } from './helpers/lab-fixtures.ts';
import { toolTestApp } from './helpers/tool-test-app.ts';

// The suite is BSD-licensed and read in place, never copied (as conformance/ does)
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const suiteFile = path.join(
  path.resolve(repoRoot, process.env.CONFORMANCE_DIR ?? '../shared/conformance'),
  'spf',
  'rfc7208-tests.yml',
);

interface SuiteTest {
  name: string;
  helo: string;
  host: string;
  mailfrom: string;
  results: string[];
  explanation?: string;
}

interface Scenario {
  description: string;
  tests: SuiteTest[];
  zones: DnsZones;
}

type ZoneEntry = string | Record<string, unknown>;

/**
 * One name's suite entries as a lab fixture, by the suite's harness rules (its README): SPF
 * entries are served as TXT unless the name has TXT entries of its own, and `TXT: NONE` adds
 * nothing. The scenarios served here have no TIMEOUT entries.
 */
function labFixture(entries: readonly ZoneEntry[]): DnsNameFixture {
  const hasTxt = entries.some((e) => typeof e === 'object' && 'TXT' in e);
  const text = (v: unknown): string | string[] => (Array.isArray(v) ? v.map(String) : String(v));
  const A: string[] = [];
  const AAAA: string[] = [];
  const PTR: string[] = [];
  const TXT: (string | string[])[] = [];
  const MX: { preference: number; exchange: string }[] = [];
  const fixture: DnsNameFixture = {};
  for (const entry of entries) {
    if (typeof entry !== 'object') throw new Error(`unexpected zone entry ${JSON.stringify(entry)}`);
    for (const [type, value] of Object.entries(entry)) {
      if (type === 'SPF' && !hasTxt) TXT.push(text(value));
      else if (type === 'TXT' && value !== 'NONE') TXT.push(text(value));
      else if (type === 'A') A.push(String(value));
      else if (type === 'AAAA') AAAA.push(String(value));
      else if (type === 'PTR') PTR.push(String(value));
      else if (type === 'CNAME') fixture.CNAME = String(value);
      else if (type === 'MX') {
        const [preference, exchange] = value as [number, string];
        MX.push({ preference, exchange: exchange === '' ? '.' : exchange });
      } else if (type !== 'SPF' && type !== 'TXT') throw new Error(`unexpected record type ${type}`);
    }
  }
  if (A.length > 0) fixture.A = A;
  if (AAAA.length > 0) fixture.AAAA = AAAA;
  if (PTR.length > 0) fixture.PTR = PTR;
  if (TXT.length > 0) fixture.TXT = TXT;
  if (MX.length > 0) fixture.MX = MX;
  return fixture;
}

function readScenarios(descriptions: readonly string[]): Scenario[] {
  const docs = parseAllDocuments(readFileSync(suiteFile, 'utf8')).map(
    (document) =>
      document.toJS() as {
        description: string;
        tests: Record<string, Omit<SuiteTest, 'name' | 'results'> & { result: string | string[] }>;
        zonedata?: Record<string, ZoneEntry[]>;
      },
  );
  return docs
    .filter((doc) => descriptions.includes(doc.description))
    .map((doc) => {
      const zones: DnsZones = {};
      for (const [name, entries] of Object.entries(doc.zonedata ?? {})) zones[name] = labFixture(entries);
      const tests = Object.entries(doc.tests).map(([name, t]) => ({
        name,
        helo: String(t.helo),
        host: String(t.host),
        mailfrom: String(t.mailfrom),
        results: Array.isArray(t.result) ? t.result : [t.result],
        ...(t.explanation === undefined ? {} : { explanation: t.explanation }),
      }));
      return { description: doc.description, tests, zones };
    });
}

/**
 * Whole scenarios served by the lab DNS server and checked through POST /v1/spf/check: every
 * scenario without TIMEOUT entries except "Macro expansion rules", whose single-label names a real
 * authoritative server (the lab's) refuses where the suite expects NXDOMAIN; its name with spaces
 * and `%` (macro-mania-in-domain) is served and checked on its own.
 */
const servedScenarios = [
  'Record evaluation',
  'ALL mechanism syntax',
  'MX mechanism syntax',
  'IP4 mechanism syntax',
  'Processing limits',
  'Selecting records',
  'PTR mechanism syntax',
  'A mechanism syntax',
  'IP6 mechanism syntax',
  'Test cases from implementation bugs',
];

// 4 includes, each with a:host and one nested include: 4 + 4 × 2 = 12 lookups
const overRecord =
  'v=spf1 ip4:192.0.2.1 include:p1.over.test include:p2.over.test include:p3.over.test include:p4.over.test -all';
const labZones: DnsZones = {
  ...testTld,
  'over.test': { TXT: overRecord },
  'ok.test': { TXT: 'v=spf1 mx include:_spf.ok.test -all', MX: { preference: 10, exchange: 'mx.ok.test' } },
  'mx.ok.test': { A: '192.0.2.25' },
  '_spf.ok.test': { TXT: 'v=spf1 ip4:198.51.100.0/24 ~all' },
  'broken.test': { TXT: 'v=spf1 include:gone.test -all' },
  'gone.test': { TXT: 'site-verification=abc' },
  'slow.test': { TXT: 'v=spf1 include:fail.test -all' },
  'fail.test': { servfail: true },
};
for (const n of [1, 2, 3, 4]) {
  labZones[`p${n}.over.test`] = { TXT: `v=spf1 a:mail.p${n}.over.test include:n${n}.over.test ~all` };
  labZones[`mail.p${n}.over.test`] = { A: `198.51.100.${n}` };
  labZones[`n${n}.over.test`] = { TXT: `v=spf1 ip4:203.0.113.${n * 16}/28 -all` };
}

describeEachDatabase('SPF routes', (database) => {
  const tool = toolTestApp({ database, zones: labZones });
  const { post } = tool;
  const verify = (body: unknown) => tool.data<SpfVerifyResultData>('/v1/spf/verify', body);

  describe.skipIf(!existsSync(suiteFile))(
    `RFC 7208 suite scenarios served by the lab DNS (${suiteFile})`,
    () => {
      const scenarios = existsSync(suiteFile) ? readScenarios(servedScenarios) : [];

      afterAll(() => {
        tool.dns.setZones(labZones);
      });

      it('macro-mania-in-domain: a name with %, spaces and %20 is asked for as written (RFC 7208 §7.3, RFC 2181 §11)', async () => {
        const [scenario] = readScenarios(['Macro expansion rules']);
        const test = scenario?.tests.find((t) => t.name === 'macro-mania-in-domain');
        expect(test).toBeDefined();
        // the two names the test reads, served by the lab as any authoritative server would
        const names = ['e1a.example.com', 'macro%percent  space%20url-space.example.com'];
        tool.dns.setZones(Object.fromEntries(names.map((name) => [name, scenario!.zones[name]!])));
        tool.dns.clearQueries();
        const response = await post('/v1/spf/check', {
          ip: test!.host,
          sender: test!.mailfrom,
          helo: test!.helo,
        });
        expect(response.statusCode, response.body).toBe(200);
        const data = (response.json() as { data: SpfCheckResultData }).data;
        expect(test!.results).toContain(data.result);
        expect(tool.dns.queriesFor('macro%percent  space%20url-space.example.com', 'A')).toHaveLength(1);
      });

      for (const description of servedScenarios) {
        it(`${description}: every test gives the suite's result through POST /v1/spf/check`, async () => {
          const scenario = scenarios.find((s) => s.description === description);
          expect(scenario, description).toBeDefined();
          tool.dns.setZones(scenario!.zones);
          const failures: string[] = [];
          for (const test of scenario!.tests) {
            const response = await post('/v1/spf/check', {
              ip: test.host,
              sender: test.mailfrom,
              helo: test.helo,
            });
            expect(response.statusCode, `${test.name}: ${response.body}`).toBe(200);
            const data = (response.json() as { data: SpfCheckResultData }).data;
            if (!test.results.includes(data.result)) {
              failures.push(
                `${test.name}: expected ${test.results.join(' or ')}, got ${data.result} (${data.reason})`,
              );
            } else if (test.explanation !== undefined && data.result === 'fail') {
              const expected = test.explanation === 'DEFAULT' ? undefined : test.explanation;
              if (data.explanation !== expected) {
                failures.push(`${test.name}: explanation ${JSON.stringify(data.explanation)}`);
              }
            }
          }
          expect(failures).toEqual([]);
          expect(scenario!.tests.length).toBeGreaterThan(0);
        });
      }
    },
  );

  it('lints a lab domain whose include chain is over the limit, explaining the permerror', async () => {
    const data = await verify({ domain: 'Over.test.' });
    expect(data.domain).toBe('over.test');
    expect(data.status).toBe('permerror');
    expect(data.valid).toBe(false);
    expect(data.lookups).toBe(12);
    const over = data.diagnostics.find((d) => d.code === 'SPF_TREE_LOOKUP_LIMIT');
    expect(over?.message).toMatch(/12 DNS lookups.*permerror/);
    expect(data.errors).toContain(over?.message);
    expect(data.tree.map((n) => n.domain)).toEqual([
      'over.test',
      'p1.over.test',
      'p2.over.test',
      'p3.over.test',
      'p4.over.test',
      'n1.over.test',
      'n2.over.test',
      'n3.over.test',
      'n4.over.test',
    ]);
    expect(data.tree[1]).toMatchObject({ lookups: 2, children: [5] });
    expect(data.networks.entries.map((e) => e.network)).toContain('198.51.100.3/32');
    expect(data.spfRecord).toBe(overRecord);
  });

  it('lints a good domain as valid with its networks', async () => {
    const data = await verify({ domain: 'ok.test' });
    expect(data).toMatchObject({ status: 'valid', valid: true, lookups: 2, voidLookups: 0, errors: [] });
    expect(data.networks.flattened).toBe('v=spf1 ip4:192.0.2.25 ip4:198.51.100.0/24 -all');
  });

  it('reports an include without SPF record and a failing include inside the result', async () => {
    const broken = await verify({ domain: 'broken.test' });
    expect(broken.status).toBe('permerror');
    expect(broken.diagnostics.map((d) => d.code)).toContain('SPF_INCLUDE_NO_RECORD');
    const slow = await verify({ domain: 'slow.test' });
    expect(slow.status).toBe('temperror');
    expect(slow.tree[1]?.status).toBe('temperror');
    const none = await verify({ domain: 'nothing-here.test' });
    expect(none).toMatchObject({ status: 'none', spfRecord: null, valid: false });
  });

  it('lints a pasted record as if published at the domain', async () => {
    const data = await verify({
      domain: 'ok.test',
      spfRecord: 'v=spf1 include:_spf.ok.test include:gone.test ?all',
    });
    expect(data.spfRecord).toBe('v=spf1 include:_spf.ok.test include:gone.test ?all');
    expect(data.tree[0]).toMatchObject({ pasted: true });
    expect(data.tree.slice(1).map((n) => [n.domain, n.status])).toEqual([
      ['_spf.ok.test', 'ok'],
      ['gone.test', 'none'],
    ]);
    expect(data.status).toBe('permerror');
    expect(data.diagnostics.map((d) => d.code)).toEqual(expect.arrayContaining(['SPF_ALL_NEUTRAL']));
  });

  it('lints a pasted record without a domain, resolving its includes', async () => {
    const data = await verify({ spfRecord: 'v=spf1 mx include:_spf.ok.test -all' });
    expect(data).toMatchObject({ domain: '', spfRecord: 'v=spf1 mx include:_spf.ok.test -all' });
    expect(data.tree[1]).toMatchObject({ domain: '_spf.ok.test', status: 'ok' });
    expect(data.diagnostics.map((d) => d.code)).toContain('SPF_DOMAIN_NEEDED');
  });

  it.each([
    [{ domain: '  ' }, 'Domain is required'],
    [{}, 'Domain is required'],
    [{ domain: 'not a domain!' }, "'not a domain!' is not a domain name: it contains a space"],
    [
      { domain: 'not a domain!', spfRecord: 'v=spf1 -all' },
      "'not a domain!' is not a domain name: it contains a space",
    ],
  ])('answers %j with a 400 and the schema message', async (body, message) => {
    const response = await post('/v1/spf/verify', body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, error: expect.stringContaining(message) });
  });

  it('answers a check for a domain that is not one with a 400', async () => {
    const response = await post('/v1/spf/check', {
      ip: '192.0.2.1',
      helo: 'mail.ok.test',
      domain: 'not a domain!',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: expect.stringContaining("'not a domain!' is not a domain name"),
    });
  });

  it('checks a client address against a lab domain with a trace', async () => {
    const response = await post('/v1/spf/check', {
      ip: '198.51.100.9',
      sender: 'user@ok.test',
      helo: 'mail.ok.test',
    });
    expect(response.statusCode, response.body).toBe(200);
    const data = (response.json() as { data: SpfCheckResultData }).data;
    expect(data.result).toBe('pass');
    // the deciding term is the domain's own: the include that passed
    expect(data.mechanism).toMatchObject({ term: 'include:_spf.ok.test', domain: 'ok.test' });
    expect(data.lookups).toBe(2);
    expect(data.trace.length).toBeGreaterThan(0);
  });

  it('generates a record', async () => {
    const response = await post('/v1/spf/generate', {
      ip4: ['192.0.2.0/24'],
      mxSelf: true,
      include: ['_spf.ok.test', ''],
      all: '-',
    });
    expect(response.statusCode, response.body).toBe(200);
    const data = (response.json() as { data: SpfGenerateResultData }).data;
    expect(data).toMatchObject({
      record: 'v=spf1 ip4:192.0.2.0/24 mx include:_spf.ok.test -all',
      lookups: 2,
      valid: true,
    });
    expect((await post('/v1/spf/generate', { ip4: 'x' })).statusCode).toBe(400);
  });

  it('refuses callers who are not signed in', async () => {
    for (const [url, body] of [
      ['/v1/spf/verify', { domain: 'ok.test' }],
      ['/v1/spf/check', { ip: '192.0.2.1', helo: 'ok.test' }],
      ['/v1/spf/generate', {}],
    ] as const) {
      expect((await post(url, body, {})).statusCode).toBe(401);
    }
  });

  it('answers a few hundred fuzzed bodies without a server error', async () => {
    const next = createRng(0x5bf7208);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
    const records = [
      overRecord,
      'v=spf1 include:%{ir}.%{v}._spf.%{d2} exists:%{l1r-}.x.test -all',
      'v=spf1 redirect=ok.test',
      'v=spf1 include:over.test include:over.test include:over.test',
      'v=spf1 a:gone.test mx:gone.test ptr exists:gone.test -all',
      'v=spf1 include:slow.test ip6:2001:db8::/129 -all',
      'v=spf1 include:broken.test include:fail.test',
      '\u0000\ud800😀',
      'x'.repeat(5000),
      '',
    ];
    const names = [
      'ok.test',
      'over.test',
      'broken.test',
      'slow.test',
      'gone.test',
      'a..b',
      '.',
      '[1.2.3.4]',
      'é.test',
      'x'.repeat(300),
    ];
    const mutate = (text: string): string => {
      const chars = [...text];
      for (let i = Math.floor(next() * 4); i >= 0; i--) {
        const at = Math.floor(next() * (chars.length + 1));
        const op = next();
        if (op < 0.4) chars.splice(at, 1);
        else if (op < 0.8)
          chars.splice(at, 0, pick([' ', ':', '/', '%', '{', '}', '=', '-', '.', 'a', '9', 'include:']));
        else chars.splice(at, 0, String.fromCharCode(Math.floor(next() * 0x3000)));
      }
      return chars.join('');
    };
    const value = (): unknown =>
      pick([
        () => pick(names),
        () => mutate(pick(records)),
        () => 42,
        () => null,
        () => [pick(names)],
        () => ({ a: 1 }),
        () => true,
      ])();
    const bodies: [string, unknown][] = [];
    for (let i = 0; i < 300; i++) {
      const kind = i % 3;
      if (kind === 0) {
        const body: Record<string, unknown> = { domain: next() < 0.8 ? pick(names) : value() };
        if (next() < 0.6) body.spfRecord = next() < 0.8 ? mutate(pick(records)) : value();
        if (next() < 0.05) body.extra = value();
        bodies.push(['/v1/spf/verify', body]);
      } else if (kind === 1) {
        bodies.push([
          '/v1/spf/check',
          {
            ip: pick(['192.0.2.1', '2001:db8::1', '198.51.100.3', mutate('203.0.113.7'), '']),
            sender: pick(['user@ok.test', 'a@over.test', '', mutate('x@broken.test')]),
            helo: pick(['ok.test', 'slow.test', '', mutate('helo.test')]),
            ...(next() < 0.3 ? { domain: next() < 0.7 ? pick(names) : value() } : {}),
          },
        ]);
      } else {
        bodies.push([
          '/v1/spf/generate',
          {
            ip4: [mutate('192.0.2.0/24'), ''],
            include: next() < 0.8 ? [mutate('_spf.ok.test')] : value(),
            all: pick(['-', '~', '?', '+', 'none', 'x']),
            redirect: next() < 0.3 ? mutate('ok.test') : '',
            exp: next() < 0.2 ? mutate('%{d}') : '',
          },
        ]);
      }
    }
    const statuses = new Map<number, number>();
    for (const [url, body] of bodies) {
      const response = await post(url, body);
      statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
      expect(response.statusCode, `${url} ${JSON.stringify(body)}: ${response.body}`).toBeLessThan(500);
      if (response.statusCode === 200) expect(response.json()).toMatchObject({ success: true });
      else expect(response.json()).toMatchObject({ success: false, error: expect.any(String) });
    }
    // the fuzz reaches the linter and the evaluator, not only the body schema
    expect(statuses.get(200) ?? 0).toBeGreaterThan(100);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(10);
  });
});
