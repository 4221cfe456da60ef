import { describe, expect, it } from 'vitest';

import {
  activityApiQuery,
  localDayEnd,
  localDayStart,
  NO_FILTERS,
  readActivitySearch,
  writeActivitySearch,
  type ActivitySearch,
} from './activity-search.ts';

const USER = '3f9a1c2e-5b7d-4e8f-9a0b-1c2d3e4f5a6b';

describe('readActivitySearch', () => {
  it.each<[string, ActivitySearch]>([
    ['', { page: 1, ...NO_FILTERS }],
    ['?page=3', { page: 3, ...NO_FILTERS }],
    [
      `?page=2&dateFrom=2025-01-10&dateTo=2025-01-16&userId=${USER}&action=login`,
      { page: 2, dateFrom: '2025-01-10', dateTo: '2025-01-16', userId: USER, action: 'login' },
    ],
    // what the server would refuse is dropped, the rest kept
    ['?page=0&action=login', { page: 1, ...NO_FILTERS, action: 'login' }],
    ['?page=x', { page: 1, ...NO_FILTERS }],
    ['?page=2000000', { page: 1, ...NO_FILTERS }],
    ['?action=hack', { page: 1, ...NO_FILTERS }],
    ['?dateFrom=2025-02-30&dateTo=yesterday', { page: 1, ...NO_FILTERS }],
    ['?dateFrom=2025-01-10T00:00:00Z', { page: 1, ...NO_FILTERS }],
    ["?userId=1' OR 1=1", { page: 1, ...NO_FILTERS }],
    ['?action=&userId=&page=', { page: 1, ...NO_FILTERS }],
  ])('%s', (query, expected) => {
    expect(readActivitySearch(new URLSearchParams(query))).toEqual(expected);
  });
});

describe('writeActivitySearch', () => {
  it.each<[ActivitySearch, string]>([
    [{ page: 1, ...NO_FILTERS }, ''],
    [{ page: 4, ...NO_FILTERS }, 'page=4'],
    [{ page: 1, ...NO_FILTERS, action: 'delete', dateTo: '2025-01-31' }, 'dateTo=2025-01-31&action=delete'],
  ])('%j → %s', (search, expected) => {
    expect(writeActivitySearch(search).toString()).toBe(expected);
  });

  it('reads back what it wrote', () => {
    const search = { page: 2, dateFrom: '2025-01-01', dateTo: '2025-01-02', userId: USER, action: 'update' };
    expect(readActivitySearch(writeActivitySearch(search))).toEqual(search);
  });
});

describe('activityApiQuery', () => {
  it('sends page, the page size and only the filters that are set, days as local instants', () => {
    expect(activityApiQuery(NO_FILTERS)).toBe('');
    expect(activityApiQuery(NO_FILTERS, 3)).toBe('?page=3&limit=20');
    const query = new URLSearchParams(
      activityApiQuery({ dateFrom: '2025-01-10', dateTo: '2025-01-16', userId: USER, action: 'login' }, 1),
    );
    expect(Object.fromEntries(query)).toEqual({
      page: '1',
      limit: '20',
      dateFrom: new Date(2025, 0, 10, 0, 0, 0, 0).toISOString(),
      dateTo: new Date(2025, 0, 16, 23, 59, 59, 999).toISOString(),
      userId: USER,
      action: 'login',
    });
  });

  it('spans whole local days', () => {
    expect(Date.parse(localDayEnd('2025-03-01')) - Date.parse(localDayStart('2025-03-01'))).toBe(
      // a day in the browser's zone; 23 or 25 hours across a daylight-saving change
      new Date(2025, 2, 2).getTime() - new Date(2025, 2, 1).getTime() - 1,
    );
    expect(new Date(localDayStart('2025-03-01')).getDate()).toBe(1);
    expect(new Date(localDayEnd('2025-03-01')).getDate()).toBe(1);
  });
});
