// The MDN HTTP Observatory's scoring data (MPL-2.0, see NOTICE.md). Every modifier, description,
// recommendation and grade used by the grader comes from this file, never from retyped numbers.
import table from './observatory-score-table.json' with { type: 'json' };

/** The twelve tests of the Observatory (algorithm version 6), in the order it runs them. */
export const observatoryTestNames = [
  'content-security-policy',
  'cookies',
  'cross-origin-resource-sharing',
  'redirection',
  'referrer-policy',
  'strict-transport-security',
  'subresource-integrity',
  'x-content-type-options',
  'x-frame-options',
  'cross-origin-resource-policy',
  'cross-origin-opener-policy',
  'cross-origin-embedder-policy',
] as const;

export type ObservatoryTestName = (typeof observatoryTestNames)[number];

export interface ScoreTableEntry {
  /** Expectation id, e.g. `hsts-not-implemented`. */
  expectation: string;
  /** Points added to the score (negative: a penalty; positive: a bonus). */
  modifier: number;
  description: string;
  /** Empty when the result needs no change. */
  recommendation: string;
}

export const observatoryAlgorithmVersion = 6;

/** Result rows in the table's order. */
export const scoreTable: readonly ScoreTableEntry[] = table.scoreTable;

/** Scores at or above this, counting penalties only, also get the bonuses. */
export const minimumScoreForExtraCredit: number = table.minimumScoreForExtraCredit;

/** Grade for each multiple of 5 from 0 to 100. */
export const gradeChart: Readonly<Record<string, string>> = table.gradeChart;

export const testTitles: Readonly<Record<ObservatoryTestName, string>> = table.testTitles;

const byExpectation = new Map(scoreTable.map((entry) => [entry.expectation, entry]));

/** The table row of an expectation id; throws for an id the table does not have (a bug in a test). */
export function scoreEntry(expectation: string): ScoreTableEntry {
  const entry = byExpectation.get(expectation);
  if (!entry) throw new Error(`The Observatory score table has no result "${expectation}"`);
  return entry;
}

/**
 * The grade for a score: below 0 counts as 0, anything from 100 up is A+, otherwise the score is
 * floored to a multiple of 5 and looked up in the chart.
 */
export function gradeForScore(score: number): string {
  const floored = Math.max(0, score);
  const key = Math.min(floored - (floored % 5), 100);
  const grade = gradeChart[String(key)];
  if (grade === undefined) throw new Error(`The grade chart has no entry for ${key}`);
  return grade;
}
