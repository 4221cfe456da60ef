import { describe, expect, it } from 'vitest';
import { activityFilterQuery, activityFilters, activityListQuery, isCalendarDate } from './activity.ts';

describe('isCalendarDate', () => {
  it.each([
    ['2025-01-31', true],
    ['2024-02-29', true],
    ['2025-02-29', false],
    ['2025-02-30', false],
    ['2025-13-01', false],
    ['2025-00-10', false],
    ['2025-1-1', false],
    ['2025-01-01T00:00:00Z', false],
    ['', false],
  ])('%j → %s', (value, expected) => {
    expect(isCalendarDate(value)).toBe(expected);
  });
});

describe('activityListQuery', () => {
  it('reads paging and filters from query-string values, blanks as absent', () => {
    expect(
      activityListQuery.parse({ page: '2', limit: '', action: 'login', dateFrom: '', userId: 'abc-123' }),
    ).toEqual({ page: 2, action: 'login', userId: 'abc-123' });
  });

  it.each([
    [{ page: '0' }, 'page must be between 1 and 1000000'],
    [{ limit: '101' }, 'limit must be between 1 and 100'],
    [{ limit: '2.5' }, 'limit must be a whole number'],
    [{ action: 'hack' }, 'action must be one of login, logout, create, update, delete'],
    [{ dateTo: '2025-02-30' }, 'dateTo must be a date (YYYY-MM-DD) or an ISO 8601 date-time'],
    [
      { start_date: '2025-01-01T00:00:00' },
      'start_date must be a date (YYYY-MM-DD) or an ISO 8601 date-time',
    ],
    [{ user_id: 'a b' }, 'userId must be a user id'],
  ])('refuses %j: %s', (query, message) => {
    const result = activityListQuery.safeParse(query);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(message);
  });
});

describe('activityFilters', () => {
  it('takes the camelCase name first and a snake_case alias where it is absent', () => {
    const query = activityFilterQuery.parse({
      dateFrom: '2025-01-10',
      start_date: '2025-01-01',
      end_date: '2025-01-31T23:59:59.999+01:00',
      user_id: 'u-1',
    });
    expect(activityFilters(query)).toEqual({
      dateFrom: '2025-01-10',
      dateTo: '2025-01-31T23:59:59.999+01:00',
      userId: 'u-1',
    });
    expect(activityFilters(activityFilterQuery.parse({}))).toEqual({});
  });
});
