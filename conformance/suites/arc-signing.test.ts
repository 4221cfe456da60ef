// The ARC signing suite (ValiMail arc_test_suite, arc-draft-sign-tests.yml): each test seals a
// message with the scenario's key at a fixed t= and compares our ARC-Seal, ARC-Message-Signature
// and ARC-Authentication-Results with the expected values. The suite fixes the field format
// ("Signing Header Format Standardization" in UPSTREAM-README.md), so with RSA PKCS#1 v1.5 being
// deterministic the signatures themselves must match.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { arcGenerateBody, createFixtureResolver } from '@rfckit/standards';
import { sealMessage } from '../../apps/server/src/tools/arc/seal.ts';

const file = path.join(process.env.CONFORMANCE_DIR!, 'arc', 'arc-draft-sign-tests.yml');

interface SigningTest {
  spec: string;
  description: string;
  message: string;
  t: number;
  'sig-headers': string;
  'srv-id': string;
  AS: string;
  AMS: string;
  AAR: string;
}

interface Scenario {
  description: string;
  tests: Record<string, SigningTest>;
  domain: string;
  sel: string;
  privatekey: string;
  'txt-records': Record<string, string>;
}

const scenarios = parseAllDocuments(readFileSync(file, 'utf8')).map(
  (document) => document.toJS() as Scenario,
);

/**
 * The suite's expected values are folded YAML text: a line break after a ';' stands for the one
 * space the standardized format puts there, any other line break is inside a value (b=) and stands
 * for nothing. Our fields are folded with CRLF and a space, read the same way.
 */
function unfold(value: string): string {
  return value
    .replace(/;[ \t]*\r?\n[ \t]*/g, '; ')
    .replace(/[ \t]*\r?\n[ \t]*/g, '')
    .trim();
}

/** The standardized format (UPSTREAM-README.md): one space after each ';' and no other whitespace. */
function assertStandardized(value: string, tags: string[]): void {
  assert.doesNotMatch(value, /;$/, 'no trailing semicolon');
  const parts = value.split('; ');
  for (const part of parts) assert.doesNotMatch(part, /\s/, `no whitespace inside ${part.slice(0, 20)}`);
  const names = parts.map((part) => part.slice(0, part.indexOf('=')));
  assert.deepEqual(names, tags);
  for (const part of parts) {
    const [name, ...rest] = part.split('=');
    if (name !== 'b' && name !== 'bh') assert.equal(rest.join('='), rest.join('=').toLowerCase());
  }
}

describe('ARC signing suite (arc-draft-sign-tests.yml)', () => {
  it('has the 17 published tests in 2 scenarios', () => {
    assert.equal(scenarios.length, 2);
    assert.equal(
      scenarios.reduce((sum, scenario) => sum + Object.keys(scenario.tests).length, 0),
      17,
    );
  });

  for (const scenario of scenarios) {
    // the key records are folded YAML lines: the DNS data is their concatenation
    const zones = Object.fromEntries(
      Object.entries(scenario['txt-records']).map(([name, text]) => [
        name,
        { TXT: text.replace(/\r?\n/g, '') },
      ]),
    );

    describe(scenario.description, () => {
      for (const [name, test] of Object.entries(scenario.tests)) {
        it(`${name}: ${test.description}`, async () => {
          const body = arcGenerateBody.parse({
            domain: scenario.domain,
            selector: scenario.sel,
            privateKey: scenario.privatekey,
            message: test.message,
            headers: test['sig-headers'].split(':'),
            authservId: test['srv-id'],
            timestamp: test.t,
            // "All tests in the signing test suite are generated using the relaxed/relaxed
            // cannonicalization rules"
            canonicalization: 'relaxed/relaxed',
            algorithm: 'rsa-sha256',
          });
          const resolver = createFixtureResolver(zones);
          const outcome = await sealMessage(body, { resolver });

          if (unfold(test.AS) === '') {
            // no_additional_sig: a chain whose newest seal says cv=fail is not sealed again
            // (RFC 8617 §5.1): the suite expects no ARC set at all
            assert.equal(unfold(test.AMS), '');
            assert.equal(unfold(test.AAR), '');
            assert.equal(outcome.ok, false);
            assert.ok(!outcome.ok && outcome.code === 'ARC_CHAIN_FAILED', JSON.stringify(outcome));
            return;
          }

          assert.ok(outcome.ok, JSON.stringify(outcome));
          const { result } = outcome;
          // the chain on the message was validated with the scenario's keys
          if (result.instance > 1)
            assert.ok(resolver.queries.length > 0, 'the existing seals were validated');

          const seal = unfold(result.arcSeal);
          const signature = unfold(result.arcMessageSignature);
          assertStandardized(seal, ['a', 'b', 'cv', 'd', 'i', 's', 't']);
          assertStandardized(signature, ['a', 'b', 'bh', 'c', 'd', 'h', 'i', 's', 't']);
          assert.equal(unfold(result.arcAuthenticationResults), unfold(test.AAR), 'AAR');
          assert.equal(signature, unfold(test.AMS), 'AMS');
          assert.equal(seal, unfold(test.AS), 'AS');
        });
      }
    });
  }
});
