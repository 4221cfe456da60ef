import { describe, expect, it } from 'vitest';
import { addInterval, isoDay, unusedShare } from './periods.ts';

describe('addInterval', () => {
  it.each([
    ['2026-01-15T10:30:00.000Z', 'month', '2026-02-15T10:30:00.000Z'],
    ['2026-01-31T00:00:00.000Z', 'month', '2026-02-28T00:00:00.000Z'],
    ['2028-01-31T00:00:00.000Z', 'month', '2028-02-29T00:00:00.000Z'],
    ['2026-12-20T08:00:00.000Z', 'month', '2027-01-20T08:00:00.000Z'],
    ['2026-03-31T23:59:59.999Z', 'month', '2026-04-30T23:59:59.999Z'],
    ['2028-02-29T12:00:00.000Z', 'year', '2029-02-28T12:00:00.000Z'],
  ] as const)('%s + 1 %s = %s', (from, interval, expected) => {
    expect(addInterval(new Date(from), interval).toISOString()).toBe(expected);
  });

  it('adds several intervals at once', () => {
    expect(addInterval(new Date('2026-01-31T00:00:00Z'), 'month', 3).toISOString()).toBe(
      '2026-04-30T00:00:00.000Z',
    );
  });
});

describe('unusedShare', () => {
  const start = '2026-01-01T00:00:00.000Z';
  const end = '2026-01-31T00:00:00.000Z';

  it('credits the unused part, rounded down', () => {
    // 10 of 30 days left: a third of 4999 is 1666.33
    expect(unusedShare(4999, start, end, new Date('2026-01-21T00:00:00Z'))).toBe(1666);
    expect(unusedShare(4999, start, end, new Date(start))).toBe(4999);
    expect(unusedShare(4999, start, end, new Date(end))).toBe(0);
    expect(unusedShare(4999, start, end, new Date('2026-02-10T00:00:00Z'))).toBe(0);
    expect(unusedShare(0, start, end, new Date('2026-01-10T00:00:00Z'))).toBe(0);
  });
});

describe('isoDay', () => {
  it('is the UTC day', () => {
    expect(isoDay('2026-01-15T23:59:59.000Z')).toBe('2026-01-15');
  });
});
