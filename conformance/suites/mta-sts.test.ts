import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import {
  judgePolicyFetch,
  matchMxToPolicy,
  parseMtaStsRecord,
  selectMtaStsRecord,
  validateMtaStsPolicy,
  validateMtaStsRecord,
  type Diagnostic,
  type MtaStsPolicyFetchOutcome,
} from '@rfckit/standards';

/*
 * The MTA-STS cases of the shared conformance data (RFC 8461): TXT records and record sets, policy
 * files, MX matching and the HTTPS fetch rules. Where checkdmarc or mailauth differ from the RFC
 * (README of the data), the RFC's reading is asserted: unknown fields and a repeated non-mx field
 * are warnings, not errors (§3.2); V=STSv1, mode Enforce and max_age 1e3 are errors (§3.1, §3.2 ABNF).
 */

const dir = path.join(process.env.CONFORMANCE_DIR!, 'mta-sts');
const cases = JSON.parse(readFileSync(path.join(dir, 'cases.json'), 'utf8')) as {
  txt_records: Array<{ txt: string; expect: string; note: string }>;
  txt_record_sets: Array<{ txt_set: string[]; expect: string; note: string }>;
  policies: Array<{
    policy: string;
    expect: string;
    note: string;
    parsed?: { mode?: string; max_age?: number; mx?: string[] };
  }>;
  mx_matching: Array<{ mx: string; patterns: string[]; match: boolean }>;
  policy_fetch_rules: Array<{ case: string; expect: string }>;
};

/** The data's verdict words from diagnostics: errors make invalid, warnings valid-warn; info is guidance. */
function verdictOf(diagnostics: Diagnostic[]): 'valid' | 'valid-warn' | 'invalid' {
  if (diagnostics.some((d) => d.severity === 'error')) return 'invalid';
  return diagnostics.some((d) => d.severity === 'warning') ? 'valid-warn' : 'valid';
}

describe('MTA-STS TXT records (RFC 8461 §3.1)', () => {
  for (const item of cases.txt_records) {
    it(`${item.txt} → ${item.expect}`, () => {
      const parsed = parseMtaStsRecord(item.txt);
      if (item.expect === 'not-mta-sts') {
        assert.equal(parsed.kind, 'not-mta-sts');
        assert.equal(validateMtaStsRecord(item.txt).valid, false);
        return;
      }
      assert.equal(parsed.kind, 'mta-sts');
      assert.equal(
        verdictOf(validateMtaStsRecord(item.txt).diagnostics),
        item.expect === 'valid' ? 'valid' : 'invalid',
        item.note,
      );
    });
  }
});

describe('MTA-STS TXT record sets (RFC 8461 §3.1)', () => {
  for (const item of cases.txt_record_sets) {
    it(`${JSON.stringify(item.txt_set)} → ${item.expect}`, () => {
      const selection = selectMtaStsRecord(item.txt_set);
      const valid = /^valid \(id=(.+)\)$/.exec(item.expect);
      if (valid) {
        assert.equal(selection.outcome, 'record');
        assert.equal(parseMtaStsRecord(selection.record ?? '').id, valid[1]);
      } else {
        assert.equal(item.expect, 'no-policy');
        assert.notEqual(selection.outcome, 'record', item.note);
      }
    });
  }
});

describe('MTA-STS policies (RFC 8461 §3.2)', () => {
  for (const item of cases.policies) {
    it(`${JSON.stringify(item.policy)} → ${item.expect}`, () => {
      const result = validateMtaStsPolicy(item.policy);
      const verdict = verdictOf(result.diagnostics);
      if (item.expect === 'invalid-or-warn') assert.notEqual(verdict, 'valid', item.note);
      else assert.equal(verdict, item.expect, item.note);
      const parsed = result.parsed;
      if (item.parsed?.mode !== undefined) assert.equal(parsed?.mode, item.parsed.mode);
      if (item.parsed?.max_age !== undefined) assert.equal(parsed?.maxAge, item.parsed.max_age);
      if (item.parsed?.mx !== undefined) assert.deepEqual(parsed?.mx, item.parsed.mx);
    });
  }
});

describe('MTA-STS MX matching (RFC 8461 §4.1)', () => {
  for (const item of cases.mx_matching) {
    it(`${item.mx} against ${item.patterns.join(', ')} → ${item.match}`, () => {
      assert.equal(matchMxToPolicy(item.mx, item.patterns) !== null, item.match);
    });
  }
});

const host = 'mta-sts.example.com';
const good: MtaStsPolicyFetchOutcome = {
  status: 200,
  redirected: false,
  contentType: 'text/plain',
  bytes: 120,
  certificateTrusted: true,
  nameMatches: true,
  timedOut: false,
  host,
};

/** Each fetch rule of the data as the outcomes the fetcher reports, and what must follow. */
const fetchCases: Record<
  string,
  Array<{ outcome: MtaStsPolicyFetchOutcome; usable: boolean; codes: string[] }>
> = {
  'HTTP 200, Content-Type text/plain': [{ outcome: good, usable: true, codes: [] }],
  // The data expects a warning, after checkdmarc. We refuse the policy: RFC 8461 §3.3 says senders
  // SHOULD validate that the media type is text/plain, and senders that do (postfix-mta-sts-resolver)
  // discard any other, so an admin must treat it as a policy that does not reach them.
  'HTTP 200, Content-Type text/html or missing': [
    {
      outcome: { ...good, contentType: 'text/html; charset=utf-8' },
      usable: false,
      codes: ['MTASTS_FETCH_CONTENT_TYPE', 'MTASTS_FETCH_NO_POLICY'],
    },
    {
      outcome: { ...good, contentType: null },
      usable: false,
      codes: ['MTASTS_FETCH_CONTENT_TYPE', 'MTASTS_FETCH_NO_POLICY'],
    },
  ],
  'HTTP 301/302 to another URL': [
    {
      outcome: { ...good, status: 301, redirected: true },
      usable: false,
      codes: ['MTASTS_FETCH_REDIRECT', 'MTASTS_FETCH_NO_POLICY'],
    },
    {
      outcome: { ...good, status: 302, redirected: true },
      usable: false,
      codes: ['MTASTS_FETCH_REDIRECT', 'MTASTS_FETCH_NO_POLICY'],
    },
  ],
  'HTTP 404 or other non-200': [
    {
      outcome: { ...good, status: 404 },
      usable: false,
      codes: ['MTASTS_FETCH_STATUS', 'MTASTS_FETCH_NO_POLICY'],
    },
    {
      outcome: { ...good, status: 204 },
      usable: false,
      codes: ['MTASTS_FETCH_STATUS', 'MTASTS_FETCH_NO_POLICY'],
    },
  ],
  'certificate not valid for mta-sts.<domain>, expired or untrusted': [
    {
      outcome: { ...good, status: null, nameMatches: false },
      usable: false,
      codes: ['MTASTS_FETCH_CERT_NAME', 'MTASTS_FETCH_NO_POLICY'],
    },
    {
      outcome: { ...good, status: null, certificateTrusted: false },
      usable: false,
      codes: ['MTASTS_FETCH_CERT_UNTRUSTED', 'MTASTS_FETCH_NO_POLICY'],
    },
  ],
  'body larger than 64 KB or no answer in 60 s': [
    {
      outcome: { ...good, bytes: 65537 },
      usable: false,
      codes: ['MTASTS_FETCH_TOO_LARGE', 'MTASTS_FETCH_NO_POLICY'],
    },
    {
      outcome: { ...good, status: null, timedOut: true, certificateTrusted: null, nameMatches: null },
      usable: false,
      codes: ['MTASTS_FETCH_TIMEOUT', 'MTASTS_FETCH_NO_POLICY'],
    },
  ],
  'TXT present but policy cannot be fetched, no cached policy': [
    {
      outcome: { ...good, status: null, certificateTrusted: null, nameMatches: null },
      usable: false,
      codes: ['MTASTS_FETCH_FAILED', 'MTASTS_FETCH_NO_POLICY'],
    },
  ],
};

describe('MTA-STS policy fetch rules (RFC 8461 §3.3)', () => {
  it('covers every rule of the data', () => {
    assert.deepEqual(
      cases.policy_fetch_rules.map((rule) => rule.case).sort(),
      Object.keys(fetchCases).sort(),
    );
  });
  for (const rule of cases.policy_fetch_rules) {
    it(`${rule.case} → ${rule.expect}`, () => {
      for (const { outcome, usable, codes } of fetchCases[rule.case] ?? []) {
        const judgement = judgePolicyFetch(outcome);
        assert.equal(judgement.usable, usable);
        assert.deepEqual(
          judgement.diagnostics.map((d) => d.code),
          codes,
        );
        if (!usable) {
          // "deliver as if no MTA-STS": said whenever the policy cannot be used
          assert.match(judgement.diagnostics.at(-1)?.message ?? '', /as if the domain had no MTA-STS/);
        }
      }
    });
  }
});

describe('every MTA-STS finding over the conformance cases has a fix', () => {
  it('records, policies and fetch outcomes', () => {
    const diagnostics = [
      ...cases.txt_records.flatMap((item) => validateMtaStsRecord(item.txt).diagnostics),
      ...cases.policies.flatMap((item) => validateMtaStsPolicy(item.policy).diagnostics),
      ...Object.values(fetchCases).flatMap((list) =>
        list.flatMap(({ outcome }) => judgePolicyFetch(outcome).diagnostics),
      ),
    ];
    const missing = diagnostics.filter((d) => d.severity !== 'info' && (d.fix ?? '').trim() === '');
    assert.deepEqual(
      missing.map((d) => `${d.code}: ${d.message}`),
      [],
    );
  });
});
