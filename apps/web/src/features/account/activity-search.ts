/**
 * The activity page's state in the URL (page and filters), so reload, links and back/forward show
 * the same list, and the API query it turns into. Values are checked with the server's own rules
 * (`activityListQuery` from @rfckit/standards); anything the server would refuse is left out.
 */
import { ACTIVITY_ACTIONS, ACTIVITY_PAGE_SIZE, activityListQuery, isCalendarDate } from '@rfckit/standards';

export interface ActivitySearch {
  page: number;
  /** A calendar day, YYYY-MM-DD, or '' for none (as the date input gives it). */
  dateFrom: string;
  dateTo: string;
  /** A user id or '' for all. */
  userId: string;
  /** One of ACTIVITY_ACTIONS or '' for all. */
  action: string;
}

export type ActivityFilterValues = Omit<ActivitySearch, 'page'>;

export const NO_FILTERS: ActivityFilterValues = { dateFrom: '', dateTo: '', userId: '', action: '' };

const { page: pageField, userId: userIdField } = activityListQuery.shape;

/** Reads the page's state from the query string, dropping what is not valid. */
export function readActivitySearch(params: URLSearchParams): ActivitySearch {
  const page = pageField.safeParse(params.get('page') ?? undefined);
  const userId = userIdField.safeParse(params.get('userId') ?? undefined);
  const action = params.get('action') ?? '';
  const date = (name: string) => {
    const value = params.get(name) ?? '';
    return isCalendarDate(value) ? value : '';
  };
  return {
    page: page.success ? (page.data ?? 1) : 1,
    dateFrom: date('dateFrom'),
    dateTo: date('dateTo'),
    userId: userId.success ? (userId.data ?? '') : '',
    action: (ACTIVITY_ACTIONS as readonly string[]).includes(action) ? action : '',
  };
}

/** The query string of a state: empty filters and page 1 are left out. */
export function writeActivitySearch(search: ActivitySearch): URLSearchParams {
  const params = new URLSearchParams();
  if (search.page > 1) params.set('page', String(search.page));
  for (const name of ['dateFrom', 'dateTo', 'userId', 'action'] as const) {
    if (search[name] !== '') params.set(name, search[name]);
  }
  return params;
}

/** Midnight at the start of a calendar day in the browser's time zone, as an instant. */
export function localDayStart(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(year, month - 1, date).toISOString();
}

/** The last millisecond of a calendar day in the browser's time zone: dateTo takes the whole day. */
export function localDayEnd(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(year, month - 1, date, 23, 59, 59, 999).toISOString();
}

/**
 * The API's query for the filters (and the page, when given): only non-empty filters are sent
 * (spec part 1 §7), the days as instants of the user's own time zone.
 */
export function activityApiQuery(filters: ActivityFilterValues, page?: number): string {
  const params = new URLSearchParams();
  if (page !== undefined) {
    params.set('page', String(page));
    params.set('limit', String(ACTIVITY_PAGE_SIZE));
  }
  if (filters.dateFrom !== '') params.set('dateFrom', localDayStart(filters.dateFrom));
  if (filters.dateTo !== '') params.set('dateTo', localDayEnd(filters.dateTo));
  if (filters.userId !== '') params.set('userId', filters.userId);
  if (filters.action !== '') params.set('action', filters.action);
  const query = params.toString();
  return query === '' ? '' : `?${query}`;
}
