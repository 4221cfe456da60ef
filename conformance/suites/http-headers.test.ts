import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import {
  gradeChart,
  gradeResponse,
  minimumScoreForExtraCredit,
  scoreTable,
  testTitles,
} from '@rfckit/standards';
import { expectationVectors, site } from '@rfckit/standards/testing';

interface SharedTable {
  gradeChart: Record<string, string>;
  minimumScoreForExtraCredit: number;
  testTitles: Record<string, string>;
  scoreTable: { expectation: string; modifier: number; description: string; recommendation: string }[];
}

const shared = JSON.parse(
  readFileSync(
    path.join(process.env.CONFORMANCE_DIR!, 'http-headers', 'observatory-score-table.json'),
    'utf8',
  ),
) as SharedTable;
const sharedModifier = new Map(shared.scoreTable.map((entry) => [entry.expectation, entry.modifier]));

/** The published scoring rule, computed from the shared table alone. */
function expectedScore(modifiers: number[]): { score: number; grade: string } {
  const penalties = modifiers.filter((m) => m < 0).reduce((a, b) => a + b, 0);
  const bonuses = modifiers.filter((m) => m > 0).reduce((a, b) => a + b, 0);
  const uncurved = 100 + penalties;
  const score = Math.max(0, uncurved >= shared.minimumScoreForExtraCredit ? uncurved + bonuses : uncurved);
  const grade = shared.gradeChart[String(Math.min(score - (score % 5), 100))]!;
  return { score, grade };
}

describe('HTTP headers: MDN HTTP Observatory score table (algorithm version 6)', () => {
  it('our copy of the table equals the published one', () => {
    assert.deepEqual(
      scoreTable.map((entry) => ({ ...entry })),
      shared.scoreTable,
    );
    assert.deepEqual({ ...gradeChart }, shared.gradeChart);
    assert.equal(minimumScoreForExtraCredit, shared.minimumScoreForExtraCredit);
    assert.deepEqual({ ...testTitles }, shared.testTitles);
  });

  it('has a site for every result of the table', () => {
    assert.deepEqual(
      expectationVectors.map(([expectation]) => expectation).sort(),
      shared.scoreTable.map((entry) => entry.expectation).sort(),
    );
  });

  for (const [expectation, testName, spec] of expectationVectors) {
    it(`${expectation}: modifier ${sharedModifier.get(expectation)} applied as the table says`, () => {
      const analysis = gradeResponse(site(spec));
      const test = analysis.tests.find((t) => t.name === testName);
      assert.ok(test, `no ${testName} test`);
      assert.equal(test.result, expectation);
      assert.equal(test.modifier, sharedModifier.get(expectation));
      assert.equal(
        test.explanation,
        shared.scoreTable.find((e) => e.expectation === expectation)?.description,
      );
      // the whole score follows from the shared modifiers of all twelve results
      const modifiers = analysis.tests.map((t) => {
        assert.ok(t.result !== null, `${t.name} not evaluated`);
        const modifier = sharedModifier.get(t.result);
        assert.notEqual(modifier, undefined, `${t.result} is not in the table`);
        return modifier!;
      });
      const expected = expectedScore(modifiers);
      assert.equal(analysis.score, expected.score);
      assert.equal(analysis.grade, expected.grade);
    });
  }
});
