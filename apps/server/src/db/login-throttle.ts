import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.ts';

/** When the address may try again, if it is locked now. */
export async function findLockedUntil(
  db: Kysely<Database>,
  accountKey: string,
  now = new Date(),
): Promise<string | undefined> {
  const row = await db
    .selectFrom('login_throttle')
    .select('locked_until')
    .where('account_key', '=', accountKey)
    .executeTakeFirst();
  return row?.locked_until !== null && row?.locked_until !== undefined && row.locked_until > now.toISOString()
    ? row.locked_until
    : undefined;
}

/**
 * Counts one failed sign-in, atomically (concurrent guesses each count), starting again from one
 * when the last failure is older than `forgetBefore`. Returns the count.
 */
export async function countFailure(
  db: Kysely<Database>,
  accountKey: string,
  forgetBefore: Date,
  now = new Date(),
): Promise<number> {
  const timestamp = now.toISOString();
  const row = await db
    .insertInto('login_throttle')
    .values({ account_key: accountKey, failures: 1, last_failure_at: timestamp, locked_until: null })
    .onConflict((conflict) =>
      conflict.column('account_key').doUpdateSet({
        failures: sql<number>`case when login_throttle.last_failure_at < ${forgetBefore.toISOString()} then 1 else login_throttle.failures + 1 end`,
        last_failure_at: timestamp,
      }),
    )
    .returning('failures')
    .executeTakeFirstOrThrow();
  return Number(row.failures);
}

export async function lockUntil(db: Kysely<Database>, accountKey: string, until: Date): Promise<void> {
  await db
    .updateTable('login_throttle')
    .set({ locked_until: until.toISOString() })
    .where('account_key', '=', accountKey)
    .execute();
}

/** A successful sign-in, an unlock link or a new password: the count starts again. */
export async function clearFailures(db: Kysely<Database>, accountKey: string): Promise<void> {
  await db.deleteFrom('login_throttle').where('account_key', '=', accountKey).execute();
}
