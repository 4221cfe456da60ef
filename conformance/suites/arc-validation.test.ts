// The ValiMail ARC validation suite (arc/arc-draft-validation-tests.yml, 171 tests in 10
// scenarios): every message must give the expected chain validation status. Keys come from each
// scenario's txt-records through the fixture resolver, and the messages go through the same
// validateArc the API route uses.
//
// Three tests (cv_fail_i1_as_cv_fail, cv_fail_i2_as2_fail, cv_fail_i2_as1_fail) have an empty cv.
// The suite dates from draft-ietf-dmarc-arc-protocol-18, and its reference runner (dkimpy) gave no
// result at all for a chain that carries a cv=fail seal, which the YAML recorded as an empty value.
// RFC 8617 §5.2 decides these chains: a newest seal with cv=fail is "fail" (step 2), and a cv=fail
// on any older seal breaks step 3 ("the cv value for all ARC-Seal header fields MUST NOT be
// fail"). So an empty cv is checked as fail, and the test checks which RFC step gave it. mailauth's
// own run of the suite reads the empty value the same way.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createFixtureResolver, type FixtureZones } from '@rfckit/standards';
import { parseAllDocuments } from 'yaml';
import { validateArc } from '../../apps/server/src/tools/arc/validate.ts';

const file = path.join(process.env.CONFORMANCE_DIR!, 'arc', 'arc-draft-validation-tests.yml');

interface SuiteTest {
  spec?: string;
  description?: string;
  message?: string | null;
  cv?: string | null;
}

interface Scenario {
  description: string;
  tests: Record<string, SuiteTest>;
  'txt-records'?: Record<string, string>;
}

const scenarios = parseAllDocuments(readFileSync(file, 'utf8')).map((doc) => doc.toJS() as Scenario);

function zonesOf(records: Record<string, string> | undefined): FixtureZones {
  // the suite folds long records in YAML; the value is one TXT record
  return Object.fromEntries(Object.entries(records ?? {}).map(([name, text]) => [name, { TXT: text }]));
}

/** The RFC 8617 §5.2 step that gives `fail` to a chain with a cv=fail seal, by the parser's code. */
const cvFailSteps = new Set(['ARC_CHAIN_FAILED', 'ARC_CV_NOT_NONE', 'ARC_CV_NOT_PASS']);

describe('ARC validation suite (arc-draft-validation-tests.yml)', () => {
  const all = scenarios.flatMap((scenario) => Object.keys(scenario.tests));

  it('has the 171 published tests in 10 scenarios, 3 of them with an empty cv', () => {
    assert.equal(scenarios.length, 10);
    assert.equal(all.length, 171);
    const empty = scenarios.flatMap((s) => Object.values(s.tests)).filter((t) => !t.cv);
    assert.equal(empty.length, 3);
  });

  for (const scenario of scenarios) {
    describe(scenario.description, () => {
      for (const [name, test] of Object.entries(scenario.tests)) {
        const expected = (test.cv ?? '').trim().toLowerCase();
        const title = expected === '' ? `${name} (empty cv: RFC 8617 §5.2 says fail)` : name;
        it(title, async () => {
          const result = await validateArc(test.message ?? '', 'example.org', {
            resolver: createFixtureResolver(zonesOf(scenario['txt-records'])),
          });
          const why = `${result.chain.result}: ${result.chain.reason ?? ''}`;
          if (expected === '') {
            assert.equal(result.chain.result, 'fail', why);
            // the cv=fail seal is what failed it, not a signature that happened to break too
            assert.ok(
              result.diagnostics.some((d) => cvFailSteps.has(d.code) && /cv=fail/.test(d.message)),
              why,
            );
            return;
          }
          assert.equal(result.chain.result, expected, why);
          assert.equal(result.valid, expected === 'pass');
          if (expected === 'fail') assert.ok(result.chain.reason, 'a failed chain says why');
        });
      }
    });
  }

  // Where mailauth 7.1.0 (lenient mode, which verifies the crypto for us) and the suite disagree,
  // our parser or RFC 8301 decides, and the reason says which rule did it
  describe('where the library alone would answer differently', () => {
    const find = (name: string) => {
      const scenario = scenarios.find((s) => name in s.tests)!;
      return { test: scenario.tests[name]!, zones: zonesOf(scenario['txt-records']) };
    };
    const run = async (name: string) => {
      const { test, zones } = find(name);
      return validateArc(test.message ?? '', 'example.org', { resolver: createFixtureResolver(zones) });
    };

    it('as_fields_b_512: the 512-bit seal key verifies in the library; RFC 8301 §3.2 fails it', async () => {
      const result = await run('as_fields_b_512');
      assert.equal(result.sets[0]!.seal.keyBits, 512);
      assert.match(result.sets[0]!.seal.reason ?? '', /RFC 8301 §3\.2/);
      assert.ok(result.diagnostics.some((d) => d.code === 'ARC_RSA_SHORT_KEY'));
    });

    for (const [name, code] of [
      ['as_format_inv_tag_key', 'ARC_TAG_NAME'],
      ['as_format_tags_dup', 'ARC_DUPLICATE_TAG'],
      ['as_format_tags_key_case', 'ARC_MISSING_TAG'],
      ['as_format_tags_sc', 'ARC_EMPTY_TAG'],
    ] as const) {
      it(`${name}: the lenient library reads the seal; the RFC 6376 §3.2 tag-list rules fail it (${code})`, async () => {
        const result = await run(name);
        assert.equal(result.chain.result, 'fail');
        assert.ok(result.diagnostics.some((d) => d.code === code && d.severity === 'error'));
      });
    }

    it('ams_fields_h_empty: the library ignores an AMS without From; the suite passes it, with our warning', async () => {
      const result = await run('ams_fields_h_empty');
      assert.equal(result.chain.result, 'pass');
      assert.deepEqual(result.sets[0]!.messageSignature.signedHeaders, []);
      assert.ok(result.diagnostics.some((d) => d.code === 'ARC_AMS_H_EMPTY' && d.severity === 'warning'));
    });

    it('ams_fields_c_na: an AMS without c= verifies as the ARC drafts read it (relaxed/relaxed), with a note', async () => {
      const result = await run('ams_fields_c_na');
      assert.equal(result.sets[0]!.messageSignature.canonicalization, 'relaxed/relaxed');
      assert.ok(result.diagnostics.some((d) => d.code === 'ARC_AMS_NO_C'));
    });

    it('cv_pass_i2_1_ams1_invalid: only the newest AMS counts; oldest-pass is 2', async () => {
      const result = await run('cv_pass_i2_1_ams1_invalid');
      assert.equal(result.chain.result, 'pass');
      assert.equal(result.sets[0]!.messageSignature.result, 'fail');
      assert.equal(result.chain.oldestPass, 2);
    });
  });
});
