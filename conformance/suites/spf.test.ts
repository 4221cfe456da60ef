import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createFixtureResolver, parseSpfRecord, spfResults, type FixtureZones } from '@rfckit/standards';
import { createRng, mutateSpfRecord } from '@rfckit/standards/testing';
import { readSpfSuite, runSpfTest, scenarioResolver, spfTestFailure } from '../spf-suite.ts';

// Read from CONFORMANCE_DIR, never copied: the suite is BSD-licensed with its own notice
const file = path.join(process.env.CONFORMANCE_DIR!, 'spf', 'rfc7208-tests.yml');
const scenarios = readSpfSuite(readFileSync(file, 'utf8'));

describe('RFC 7208 SPF test suite (openspf 2014.04 + 2019.08, via pyspf)', () => {
  it('holds the 203 tests of its 16 scenarios', () => {
    assert.equal(scenarios.length, 16);
    assert.equal(
      scenarios.reduce((n, s) => n + s.tests.length, 0),
      203,
    );
  });

  for (const scenario of scenarios) {
    describe(scenario.description, () => {
      for (const test of scenario.tests) {
        it(`${test.name}${test.spec === undefined ? '' : ` (RFC 7208 ${test.spec})`}`, async () => {
          const actual = await runSpfTest(test, scenarioResolver(scenario));
          const failure = spfTestFailure(test, actual);
          assert.equal(failure, undefined, failure);
        });
      }
    });
  }
});

describe("the suite's records, mutated (fuzz)", () => {
  it('parses and evaluates 2,000 mutations without an exception, always to one of the seven results', async () => {
    const rng = createRng(4408);
    const published = scenarios.flatMap((scenario) =>
      Object.entries(scenario.zones).flatMap(([name, fixture]) =>
        (Array.isArray(fixture.TXT) ? (fixture.TXT as (string | string[])[]) : [])
          .map((txt) => (typeof txt === 'string' ? txt : txt.join('')))
          .filter((txt) => txt.toLowerCase().startsWith('v=spf1'))
          .map((txt) => ({ scenario, name, txt })),
      ),
    );
    assert.ok(published.length > 150, `only ${published.length} records found`);
    for (let n = 0; n < 2000; n++) {
      const { scenario, name, txt } = published[Math.floor(rng() * published.length)]!;
      const mutated = mutateSpfRecord(rng, txt);
      parseSpfRecord(mutated);
      const zones: FixtureZones = { ...scenario.zones, [name]: { ...scenario.zones[name], TXT: [mutated] } };
      const test = scenario.tests[Math.floor(rng() * scenario.tests.length)]!;
      const resolver = createFixtureResolver(zones, { emptyNonTerminals: false });
      const outcome = await runSpfTest({ ...test, mailfrom: `fuzz@${name}` }, resolver);
      assert.ok(spfResults.includes(outcome.result), `${mutated}: ${outcome.result}`);
    }
  });
});
