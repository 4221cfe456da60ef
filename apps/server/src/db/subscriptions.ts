import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Database, SubscriptionStatus, SubscriptionTable } from './schema.ts';

export type Subscription = Selectable<SubscriptionTable>;
export type SubscriptionChanges = Omit<
  Updateable<SubscriptionTable>,
  'id' | 'organisation_id' | 'created_at'
>;

export function findSubscription(
  db: Kysely<Database>,
  organisationId: string,
): Promise<Subscription | undefined> {
  return db
    .selectFrom('subscription')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .executeTakeFirst();
}

export async function insertSubscription(db: Kysely<Database>, row: Subscription): Promise<void> {
  await db.insertInto('subscription').values(row).execute();
}

/**
 * Compare-and-set: applies `changes` only if the row is still as it was read (same status and
 * `updated_at`). Returns whether it did, so that two processes acting on one subscription at once
 * cannot both charge for it.
 */
export async function updateSubscriptionIf(
  db: Kysely<Database>,
  expected: { id: string; status: SubscriptionStatus; updatedAt: string },
  changes: SubscriptionChanges,
): Promise<boolean> {
  const result = await db
    .updateTable('subscription')
    .set(changes)
    .where('id', '=', expected.id)
    .where('status', '=', expected.status)
    .where('updated_at', '=', expected.updatedAt)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Subscriptions whose period has ended (renewal, scheduled downgrade or overdue ending), oldest first. */
export function listDueSubscriptions(
  db: Kysely<Database>,
  now: string,
  limit: number,
): Promise<Subscription[]> {
  return db
    .selectFrom('subscription')
    .selectAll()
    .where('current_period_end', '<=', now)
    .orderBy('current_period_end')
    .limit(limit)
    .execute();
}
