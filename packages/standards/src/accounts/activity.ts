/**
 * The activity history's query (spec part 1 §3, §7, §9): paging and the filters dateFrom, dateTo,
 * userId and action, with the snake_case names of the spec's shared request (start_date, end_date,
 * user_id) as aliases. Shared by the server's list, summary and export routes and by the web page,
 * which reads its state from the URL through the same rules. Pure zod: runs in the browser and in Node.
 */
import { z } from 'zod';

/** The audit log's actions; anything else is shown as unknown (spec part 1 §4). */
export const ACTIVITY_ACTIONS = ['login', 'logout', 'create', 'update', 'delete'] as const;
export type ActivityActionName = (typeof ACTIVITY_ACTIONS)[number];

/** Records per page (spec part 1 §9). */
export const ACTIVITY_PAGE_SIZE = 20;
export const ACTIVITY_LIMIT_MAX = 100;
export const ACTIVITY_PAGE_MAX = 1_000_000;
/** The CSV export stops after this many rows and says so in its headers. */
export const ACTIVITY_EXPORT_MAX_ROWS = 100_000;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

const blankToUndefined = (value: unknown) => (value === '' ? undefined : value);

function integer(name: string, min: number, max: number) {
  return z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^\d{1,9}$/, `${name} must be a whole number`)
      .transform(Number)
      .refine((value) => value >= min && value <= max, `${name} must be between ${min} and ${max}`)
      .optional(),
  );
}

/** True for a calendar day `YYYY-MM-DD` that exists. */
export function isCalendarDate(value: string): boolean {
  if (!DATE_ONLY.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00.000Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(value);
}

/** A calendar day (UTC) or an ISO 8601 date-time with an offset; anything else is refused. */
function dateBound(name: string) {
  return z.preprocess(
    blankToUndefined,
    z
      .string()
      .max(40)
      .refine(
        (value) =>
          isCalendarDate(value) ||
          (z.iso.datetime({ offset: true }).safeParse(value).success && !Number.isNaN(Date.parse(value))),
        `${name} must be a date (YYYY-MM-DD) or an ISO 8601 date-time`,
      )
      .optional(),
  );
}

const userIdField = z.preprocess(
  blankToUndefined,
  z
    .string()
    .max(100, 'userId is too long')
    .regex(/^[A-Za-z0-9-]+$/, 'userId must be a user id')
    .optional(),
);

const actionField = z.preprocess(
  blankToUndefined,
  z.enum(ACTIVITY_ACTIONS, { error: `action must be one of ${ACTIVITY_ACTIONS.join(', ')}` }).optional(),
);

/** The filters; blank values, as a form sends them, mean no filter. */
export const activityFilterQuery = z.object({
  dateFrom: dateBound('dateFrom').describe(
    'From this day (UTC, YYYY-MM-DD) or instant (ISO 8601 with offset), inclusive',
  ),
  dateTo: dateBound('dateTo').describe(
    'Up to this day (UTC, the whole day included) or this instant (inclusive)',
  ),
  userId: userIdField.describe("Only this user's records"),
  action: actionField.describe(`One of ${ACTIVITY_ACTIONS.join(', ')}`),
  start_date: dateBound('start_date').describe('Same as dateFrom'),
  end_date: dateBound('end_date').describe('Same as dateTo'),
  user_id: userIdField.describe('Same as userId'),
});

/** The list's query: the filters plus page (from 1) and limit (default 20, at most 100). */
export const activityListQuery = activityFilterQuery.extend({
  page: integer('page', 1, ACTIVITY_PAGE_MAX).describe('Page number, from 1'),
  limit: integer('limit', 1, ACTIVITY_LIMIT_MAX).describe(
    `Records per page, default ${ACTIVITY_PAGE_SIZE}, at most ${ACTIVITY_LIMIT_MAX}`,
  ),
});

export type ActivityFilterQuery = z.infer<typeof activityFilterQuery>;
export type ActivityListQuery = z.infer<typeof activityListQuery>;

/** The filters in their camelCase names, a snake_case alias filling in where the camelCase one is absent. */
export interface ActivityFilters {
  dateFrom?: string;
  dateTo?: string;
  userId?: string;
  action?: ActivityActionName;
}

export function activityFilters(query: ActivityFilterQuery): ActivityFilters {
  const dateFrom = query.dateFrom ?? query.start_date;
  const dateTo = query.dateTo ?? query.end_date;
  const userId = query.userId ?? query.user_id;
  return {
    ...(dateFrom === undefined ? {} : { dateFrom }),
    ...(dateTo === undefined ? {} : { dateTo }),
    ...(userId === undefined ? {} : { userId }),
    ...(query.action === undefined ? {} : { action: query.action }),
  };
}
