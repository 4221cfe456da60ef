import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import {
  analyzeDmarcRecord,
  checkDmarc,
  createDmarcDns,
  createFixtureResolver,
  discoverDmarc,
  dmarcTreeWalk,
  type DmarcDiscovery,
  type DmarcVerdict,
  type FixtureName,
  type FixtureZones,
} from '@rfckit/standards';

/*
 * The DMARC cases of the shared conformance data (record parsing, policy discovery, external
 * report destinations), run against the parser, the validator, discovery over a zone-data resolver
 * and the report-destination check. Where RFC 7489 and RFC 9989 differ the data gives both, and
 * both are asserted. Our choices where the data or the tools disagree are listed in `choices` and
 * asserted as made.
 */

const dir = path.join(process.env.CONFORMANCE_DIR!, 'dmarc');
const load = <T>(file: string) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as T;

interface RecordCase {
  record: string;
  rfc7489: DmarcVerdict;
  rfc9989: DmarcVerdict;
  note: string;
  tags?: Record<string, string | string[]>;
}

type CaseZone = Record<string, Record<string, unknown[]>>;

interface DiscoveryCase {
  id: string;
  author_domain: string;
  zone: CaseZone;
  expect: Record<string, unknown>;
}

interface DestinationCase {
  id: string;
  record_domain: string;
  rua: string;
  zone: CaseZone;
  expect: string;
}

const records = load<{ cases: RecordCase[] }>('record-cases.json').cases;
const discoveries = load<{ cases: DiscoveryCase[] }>('discovery-cases.json').cases;
const destinations = load<{ cases: DestinationCase[] }>('report-destination-cases.json').cases;

/** The data's zone format as the fixture resolver's: MX `[preference, exchange]` pairs become objects. */
function fixtureZones(zone: CaseZone): FixtureZones {
  const zones: FixtureZones = {};
  for (const [owner, rrsets] of Object.entries(zone)) {
    const fixture: Record<string, unknown> = {};
    for (const [type, rdata] of Object.entries(rrsets)) {
      fixture[type] =
        type === 'MX'
          ? (rdata as [number, string][]).map(([preference, exchange]) => ({ preference, exchange }))
          : rdata;
    }
    zones[owner] = fixture as FixtureName;
  }
  return zones;
}

/**
 * Every record without a rua gets our missing-rua warning (RFC 9989 §8: a Domain Owner MUST
 * collect aggregate reports). The data marks only `v=DMARC1; p=reject` valid-warn for it and lists
 * other records without rua as plain valid, so for `valid` we assert: valid, and no warning other
 * than that advice.
 */
const adviceOnly = new Set(['DMARC_RUA_MISSING']);

function assertVerdict(record: string, spec: 'RFC 9989' | 'RFC 7489', expected: DmarcVerdict) {
  const analysis = analyzeDmarcRecord(record, spec);
  const warnings = analysis.diagnostics.filter((d) => d.severity === 'warning').map((d) => d.code);
  const detail = `${spec} on ${JSON.stringify(record)}: ${analysis.diagnostics.map((d) => `${d.severity} ${d.code}`).join(', ')}`;
  if (expected === 'valid') {
    assert.ok(analysis.verdict === 'valid' || analysis.verdict === 'valid-warn', detail);
    assert.deepEqual(
      warnings.filter((code) => !adviceOnly.has(code)),
      [],
      detail,
    );
  } else if (expected === 'valid-warn') {
    assert.equal(analysis.verdict, 'valid-warn', detail);
  } else {
    assert.equal(analysis.verdict, expected, detail);
  }
}

describe('DMARC record cases (record-cases.json)', () => {
  for (const testCase of records) {
    it(`${JSON.stringify(testCase.record)}: RFC 9989 ${testCase.rfc9989}, RFC 7489 ${testCase.rfc7489}`, () => {
      assertVerdict(testCase.record, 'RFC 9989', testCase.rfc9989);
      assertVerdict(testCase.record, 'RFC 7489', testCase.rfc7489);
      const parsed = analyzeDmarcRecord(testCase.record, 'RFC 9989').parsed;
      for (const [tag, value] of Object.entries(testCase.tags ?? {})) {
        assert.ok(parsed, 'a record with tags parses');
        const actual =
          tag === 'p'
            ? (parsed.effective?.domain ?? parsed.p)
            : tag === 'rua' || tag === 'ruf'
              ? parsed[tag].map((uri) => uri.uri)
              : parsed[tag as 'adkim' | 'aspf' | 'np' | 'psd' | 't' | 'sp'];
        assert.deepEqual(actual, value, `tag ${tag}`);
      }
    });
  }
});

/** The leading word of the data's policy text ("reject (sp absent, …)" → "reject"). */
function policyWord(value: unknown): string {
  return String(value).split(/\s/, 1)[0]!;
}

function assertView(
  discovery: { policy: { recordDomain: string; requested: string } | null; organizationalDomain: string },
  expect: Record<string, unknown>,
  label: string,
) {
  if ('org_domain' in expect)
    assert.equal(discovery.organizationalDomain, expect.org_domain, `${label}: org_domain`);
  if ('policy' in expect)
    assert.equal(discovery.policy?.requested, policyWord(expect.policy), `${label}: policy`);
}

/**
 * multiple-records-at-author-stop: the data (after mailauth, and RFC 7489 §6.6.3 step 5) ends
 * discovery at a multi-record set at the Author Domain. RFC 9989 §4.10 step 2 discards the set,
 * and §4.10.1 walks the tree when "no valid DMARC Policy Record is found by the first query", so
 * our RFC 9989 reading falls back to the Organizational Domain's record; the multiple records
 * are an error either way. The RFC 7489 reading gives the data's verdict.
 */
const choices: Record<string, (discovery: DmarcDiscovery) => void> = {
  'multiple-records-at-author-stop': (discovery) => {
    assert.equal(discovery.rfc7489.result, 'none');
    assert.equal(discovery.rfc7489.policy, null);
    assert.equal(discovery.result, 'policy');
    assert.equal(discovery.policy?.recordDomain, 'example.com');
    assert.equal(discovery.policy?.requested, 'none');
    assert.ok(
      discovery.diagnostics.some((d) => d.code === 'DMARC_MULTIPLE_RECORDS' && d.severity === 'error'),
    );
    assert.ok(discovery.diagnostics.some((d) => d.code === 'DMARC_RFC7489_DIFFERENT'));
  },
};

describe('DMARC discovery cases (discovery-cases.json)', () => {
  for (const testCase of discoveries) {
    it(`${testCase.id}: ${testCase.author_domain}`, async () => {
      const resolver = createFixtureResolver(fixtureZones(testCase.zone));
      const discovery = await discoverDmarc(testCase.author_domain, resolver);
      const { expect } = testCase;
      const choice = choices[testCase.id];
      if (choice !== undefined) {
        choice(discovery);
        return;
      }

      if ('record_at' in expect)
        assert.equal(discovery.record?.domain ?? null, expect.record_at, 'record_at');
      if ('result' in expect) {
        assert.equal(discovery.result, expect.result);
        assert.equal(discovery.policy, null);
      }
      assertView(discovery, expect, 'RFC 9989');
      if ('warning' in expect) {
        assert.ok(
          discovery.diagnostics.some((d) => d.code === 'DMARC_RECORD_AT_APEX' && d.severity === 'warning'),
        );
      }
      if ('failing_message_policy' in expect) {
        assert.equal(discovery.policy?.testMode, true);
        assert.equal(discovery.policy?.applied, expect.failing_message_policy);
      }
      if ('rfc9989' in expect) assertView(discovery, expect.rfc9989 as Record<string, unknown>, 'RFC 9989');
      if ('rfc7489_psl' in expect)
        assertView(discovery.rfc7489, expect.rfc7489_psl as Record<string, unknown>, 'RFC 7489');
      if ('rfc9989_queries' in expect) {
        assert.deepEqual(
          discovery.lookups.map((lookup) => lookup.name),
          expect.rfc9989_queries,
        );
        // and the walk asked for nothing else
        assert.deepEqual(
          resolver.queries
            .filter((q) => q.name.startsWith('_dmarc.') && q.type === 'TXT')
            .map((q) => q.name)
            .slice(0, 8),
          expect.rfc9989_queries,
        );
      }
      if (testCase.id === 'psd-y-stops-walk') {
        // "SPF mail.giant.bank.example aligns (relaxed); DKIM d=mail.mega.bank.example does not"
        const dns = createDmarcDns(resolver);
        const spf = await dmarcTreeWalk('mail.giant.bank.example', dns);
        const dkim = await dmarcTreeWalk('mail.mega.bank.example', dns);
        assert.equal(spf.organizationalDomain, discovery.organizationalDomain);
        assert.equal(dkim.organizationalDomain, 'mega.bank.example');
        assert.notEqual(dkim.organizationalDomain, discovery.organizationalDomain);
      }
    });
  }
});

/**
 * External destinations. When the check applies: only when the Organizational Domains differ
 * (RFC 9990 §3, RFC 7489 §7.1; internet.nl does the same), not whenever the host differs
 * (checkdmarc). Two authorisation records: authorised, since step 8 needs "at least one" (internet.nl
 * fails it); we add an info note. An override naming another host: the destination stays
 * authorised and the override is ignored, as step 9's MUST says (internet.nl fails the whole
 * destination); we warn.
 */
const expectedStatus: Record<string, { status: string; codes?: string[] }> = {
  'same-domain': { status: 'same-organization' },
  'same-org-domain': { status: 'same-organization' },
  'external-authorized': { status: 'authorized' },
  'external-wildcard': { status: 'authorized' },
  'external-missing': { status: 'unauthorized', codes: ['DMARC_REPORT_UNAUTHORIZED'] },
  'external-unrelated-txt': { status: 'authorized' },
  'external-two-dmarc-records': { status: 'authorized', codes: ['DMARC_REPORT_AUTH_MULTIPLE'] },
  'external-rua-override-other-host': { status: 'authorized', codes: ['DMARC_REPORT_OVERRIDE_OTHER_HOST'] },
};

describe('DMARC report destination cases (report-destination-cases.json)', () => {
  for (const testCase of destinations) {
    it(`${testCase.id}: ${testCase.expect}`, async () => {
      const expected = expectedStatus[testCase.id];
      assert.ok(expected, `no expectation written for ${testCase.id}`);
      // the record is checked as if published at _dmarc.<record_domain>, as the validator does
      const result = await checkDmarc(
        { record: `v=DMARC1; p=none; rua=${testCase.rua}`, domain: testCase.record_domain },
        createFixtureResolver(fixtureZones(testCase.zone)),
      );
      assert.equal(result.reportDestinations.length, 1);
      const [destination] = result.reportDestinations;
      assert.equal(destination!.status, expected.status);
      assert.equal(destination!.required, expected.status !== 'same-organization');
      const codes = result.diagnostics.map((d) => d.code);
      for (const code of expected.codes ?? [])
        assert.ok(codes.includes(code), `${code} in ${codes.join(', ')}`);
      if (expected.status === 'authorized') {
        assert.equal(destination!.name, `${testCase.record_domain}._report._dmarc.thirdparty.example`);
        assert.ok(!codes.includes('DMARC_REPORT_UNAUTHORIZED'));
      }
    });
  }
});
