import type { Kysely } from 'kysely';
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

export interface ActivityFilter {
  organisationId: string;
  /** Only this user's records (a member's scope, or an admin's filter). */
  userId?: string;
  action?: ActivityAction;
  /** Inclusive lower bound, ISO 8601. */
  from?: string;
  /** Exclusive upper bound, ISO 8601. */
  before?: string;
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

/** One page of the organisation's log, newest first, and the number of matching records. */
export async function listActivities(
  db: Kysely<Database>,
  filter: ActivityFilter,
): Promise<{ rows: ActivityRow[]; total: number }> {
  let query = db.selectFrom('activity').where('activity.organisation_id', '=', filter.organisationId);
  if (filter.userId !== undefined) query = query.where('activity.user_id', '=', filter.userId);
  if (filter.action !== undefined) query = query.where('activity.action', '=', filter.action);
  if (filter.from !== undefined) query = query.where('activity.created_at', '>=', filter.from);
  if (filter.before !== undefined) query = query.where('activity.created_at', '<', filter.before);

  const counted = await query
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('total'))
    .executeTakeFirst();
  const rows = await query
    .innerJoin('organisation', 'organisation.id', 'activity.organisation_id')
    .leftJoin('user', 'user.id', 'activity.user_id')
    .select((eb) => [
      'activity.id',
      'activity.action',
      eb.fn.coalesce('activity.username', 'user.email').as('username'),
      'organisation.name as organisation_name',
      'activity.created_at',
      'activity.description',
      'activity.details',
      'activity.ip_address',
    ])
    .orderBy('activity.created_at', 'desc')
    .orderBy('activity.id', 'desc')
    .limit(filter.limit)
    .offset((filter.page - 1) * filter.limit)
    .execute();
  return { rows, total: Number(counted?.total ?? 0) };
}
