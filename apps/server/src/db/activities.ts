import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { newSortableId } from './ids.ts';
import type { ActivityAction, Database } from './schema.ts';

export interface NewActivity {
  organisationId: string;
  userId: string | null;
  username: string | null;
  action: ActivityAction;
  description: string;
  details?: Record<string, unknown> | null;
  ipAddress: string | null;
}

/** Appends one entry to the organisation's audit log. */
export async function recordActivity(
  db: Kysely<Database>,
  input: NewActivity,
  now = new Date(),
): Promise<void> {
  await db
    .insertInto('activity')
    .values({
      id: newSortableId(now.getTime()),
      organisation_id: input.organisationId,
      user_id: input.userId,
      username: input.username,
      action: input.action,
      description: input.description,
      details: input.details ? JSON.stringify(input.details) : null,
      ip_address: input.ipAddress,
      created_at: now.toISOString(),
    })
    .execute();
}

/** Which records: one organisation, optionally narrowed to a user, an action and a time range. */
export interface ActivityScope {
  organisationId: string;
  /** Only this user's records (a member's scope, or an admin's filter). */
  userId?: string;
  action?: ActivityAction;
  /** Inclusive lower bound, ISO 8601. */
  from?: string;
  /** Exclusive upper bound, ISO 8601. */
  before?: string;
}

export interface ActivityFilter extends ActivityScope {
  page: number;
  limit: number;
}

export interface ActivityRow {
  id: string;
  action: ActivityAction;
  username: string | null;
  organisation_name: string;
  created_at: string;
  description: string;
  details: string | null;
  ip_address: string | null;
}

/**
 * The scope's records. Every condition is an equality on the leading columns of one of the
 * activity indexes (organisation, then user or action) or a range on created_at after them, so
 * each query reads one contiguous stretch of an index.
 */
export function scopedActivities(db: Kysely<Database>, scope: ActivityScope) {
  let query = db.selectFrom('activity').where('activity.organisation_id', '=', scope.organisationId);
  if (scope.userId !== undefined) query = query.where('activity.user_id', '=', scope.userId);
  if (scope.action !== undefined) query = query.where('activity.action', '=', scope.action);
  if (scope.from !== undefined) query = query.where('activity.created_at', '>=', scope.from);
  if (scope.before !== undefined) query = query.where('activity.created_at', '<', scope.before);
  return query;
}

/**
 * The ids of one page. Only the index is read (organisation, created_at, id cover it), so an
 * OFFSET skips index entries rather than joined rows. Both databases step over an OFFSET entry by
 * entry, so given the number of matching records (`total`), a page in the older half is read from
 * the oldest end: the last page of 100,000 costs what the first does.
 */
export function activityPageIds(db: Kysely<Database>, filter: ActivityFilter, total?: number) {
  const offset = (filter.page - 1) * filter.limit;
  const fromOldest = total !== undefined && offset * 2 > total;
  const direction = fromOldest ? 'asc' : 'desc';
  const end = total === undefined ? offset + filter.limit : Math.min(total, offset + filter.limit);
  return scopedActivities(db, filter)
    .select('activity.id')
    .orderBy('activity.created_at', direction)
    .orderBy('activity.id', direction)
    .limit(fromOldest ? Math.max(0, end - offset) : filter.limit)
    .offset(fromOldest ? Math.max(0, total - end) : offset);
}

/** The displayed columns of the given activity rows, newest first. */
function withDisplayColumns(
  db: Kysely<Database>,
  ids: SelectQueryBuilder<Database, 'activity', { id: string }>,
) {
  return db
    .selectFrom(ids.as('page'))
    .innerJoin('activity', 'activity.id', 'page.id')
    .innerJoin('organisation', 'organisation.id', 'activity.organisation_id')
    .leftJoin('user', 'user.id', 'activity.user_id')
    .select((eb) => [
      'activity.id',
      'activity.action',
      // the actor's email when it happened, else the account's current one
      eb.fn.coalesce('activity.username', 'user.email').as('username'),
      'organisation.name as organisation_name',
      'activity.created_at',
      'activity.description',
      'activity.details',
      'activity.ip_address',
    ])
    .orderBy('activity.created_at', 'desc')
    .orderBy('activity.id', 'desc');
}

/** The number of records in the scope. */
export async function countActivities(db: Kysely<Database>, scope: ActivityScope): Promise<number> {
  const counted = await scopedActivities(db, scope)
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('total'))
    .executeTakeFirst();
  return Number(counted?.total ?? 0);
}

/** One page of the organisation's log, newest first, and the number of matching records. */
export async function listActivities(
  db: Kysely<Database>,
  filter: ActivityFilter,
): Promise<{ rows: ActivityRow[]; total: number }> {
  const total = await countActivities(db, filter);
  const offset = (filter.page - 1) * filter.limit;
  // past the end: no need to walk the index to find nothing
  const rows =
    offset >= total ? [] : await withDisplayColumns(db, activityPageIds(db, filter, total)).execute();
  return { rows, total };
}

export interface ActivitySummary {
  /** Records in the scope. */
  totalRecords: number;
  /** Of those, the ones of the last 24 hours. */
  last24Hours: number;
  /** Of those, sign-ins. */
  logins: number;
  /** Distinct users among them (records of deleted accounts count for none). */
  users: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The activity page's counters for the scope, each a count over one index range. */
export async function summarizeActivities(
  db: Kysely<Database>,
  scope: ActivityScope,
  now = new Date(),
): Promise<ActivitySummary> {
  const totalRecords = await countActivities(db, scope);
  if (totalRecords === 0) return { totalRecords, last24Hours: 0, logins: 0, users: 0 };

  const dayAgo = new Date(now.getTime() - DAY_MS).toISOString();
  const from = scope.from !== undefined && scope.from > dayAgo ? scope.from : dayAgo;
  const last24Hours =
    scope.before !== undefined && scope.before <= from ? 0 : await countActivities(db, { ...scope, from });

  let logins: number;
  if (scope.action === undefined) logins = await countActivities(db, { ...scope, action: 'login' });
  else logins = scope.action === 'login' ? totalRecords : 0;

  let users: number;
  if (scope.userId !== undefined) {
    users = 1;
  } else if (scope.action === undefined && scope.from === undefined && scope.before === undefined) {
    users = (await actorIds(db, scope.organisationId)).length;
  } else {
    // a filtered range: its rows are found through the filter's index, then their users counted
    const distinct = await scopedActivities(db, scope)
      .select((eb) => eb.fn.count<number | string | bigint>('activity.user_id').distinct().as('users'))
      .executeTakeFirst();
    users = Number(distinct?.users ?? 0);
  }
  return { totalRecords, last24Hours, logins, users };
}

/**
 * The scope's records, newest first, in batches of `batchSize`, at most `maxRows` in all. Each
 * batch continues after the last row of the one before (keyset paging on created_at and id), so
 * late batches cost what early ones do and a record written meanwhile is neither lost nor repeated.
 */
export async function* activityBatches(
  db: Kysely<Database>,
  scope: ActivityScope,
  options: { batchSize: number; maxRows: number },
): AsyncGenerator<ActivityRow[]> {
  let sent = 0;
  let last: { created_at: string; id: string } | undefined;
  while (sent < options.maxRows) {
    const after = last;
    let ids = scopedActivities(db, scope);
    if (after !== undefined) {
      ids = ids.where((eb) =>
        eb(eb.refTuple('activity.created_at', 'activity.id'), '<', eb.tuple(after.created_at, after.id)),
      );
    }
    const batch = await withDisplayColumns(
      db,
      ids
        .select('activity.id')
        .orderBy('activity.created_at', 'desc')
        .orderBy('activity.id', 'desc')
        .limit(Math.min(options.batchSize, options.maxRows - sent)),
    ).execute();
    if (batch.length === 0) return;
    sent += batch.length;
    const tail = batch[batch.length - 1]!;
    last = { created_at: tail.created_at, id: tail.id };
    yield batch;
    if (batch.length < options.batchSize) return;
  }
}

export interface ActivityUser {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
}

/**
 * The accounts that appear in the organisation's log (members past and present), for the
 * activity filter's user choice; with `onlyUserId`, that user alone if they appear.
 */
/**
 * The distinct user ids of the organisation's log, by a loose index scan: each step seeks the next
 * larger user_id in the (organisation_id, user_id, …) index, so the cost grows with the number of
 * users, not of records (neither SQLite without statistics nor PostgreSQL skip-scans on their own).
 */
async function actorIds(db: Kysely<Database>, organisationId: string): Promise<string[]> {
  const result = await sql<{ user_id: string | null }>`
    with recursive actor(user_id) as (
      select min(user_id) from activity where organisation_id = ${organisationId} and user_id is not null
      union all
      select (
        select min(later.user_id) from activity as later
        where later.organisation_id = ${organisationId} and later.user_id > actor.user_id
      )
      from actor where actor.user_id is not null
    )
    select user_id from actor where user_id is not null`.execute(db);
  return result.rows.map((row) => row.user_id!);
}

/**
 * The accounts that appear in the organisation's log (members past and present), for the
 * activity filter's user choice; with `onlyUserId`, that user alone if they appear.
 */
export async function activityUsers(
  db: Kysely<Database>,
  organisationId: string,
  onlyUserId?: string,
): Promise<ActivityUser[]> {
  let ids = await actorIds(db, organisationId);
  if (onlyUserId !== undefined) ids = ids.filter((id) => id === onlyUserId);
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('user')
    .select(['user.id', 'user.email', 'user.first_name', 'user.last_name'])
    .where('user.id', 'in', ids)
    .orderBy('user.email')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
  }));
}
