import { describe, expect, it } from 'vitest';
import {
  gradeForScore,
  minimumScoreForExtraCredit,
  scoreEntry,
  scoreTable,
  testTitles,
} from './score-table.ts';

describe('grade chart', () => {
  // the boundaries of the Observatory's chart (README of the shared data), written out by hand
  it.each([
    [165, 'A+'],
    [100, 'A+'],
    [99, 'A'],
    [90, 'A'],
    [89, 'A-'],
    [85, 'A-'],
    [84, 'B+'],
    [80, 'B+'],
    [79, 'B'],
    [70, 'B'],
    [69, 'B-'],
    [65, 'B-'],
    [64, 'C+'],
    [60, 'C+'],
    [59, 'C'],
    [50, 'C'],
    [49, 'C-'],
    [45, 'C-'],
    [44, 'D+'],
    [40, 'D+'],
    [39, 'D'],
    [30, 'D'],
    [29, 'D-'],
    [25, 'D-'],
    [24, 'F'],
    [0, 'F'],
    [-40, 'F'],
  ])('%i is %s', (score, grade) => {
    expect(gradeForScore(score)).toBe(grade);
  });
});

describe('score table', () => {
  it('holds the 77 results of algorithm version 6 and the extra-credit threshold', () => {
    expect(scoreTable).toHaveLength(77);
    expect(minimumScoreForExtraCredit).toBe(90);
    expect(new Set(scoreTable.map((e) => e.expectation)).size).toBe(77);
  });

  it('looks results up and refuses unknown ids', () => {
    expect(scoreEntry('hsts-not-implemented').modifier).toBe(-20);
    expect(scoreEntry('cross-origin-resource-sharing-implemented-with-universal-access').modifier).toBe(-50);
    expect(() => scoreEntry('hsts-perfect')).toThrow(/no result/);
    expect(testTitles['strict-transport-security']).toBe('Strict Transport Security (HSTS)');
  });
});
