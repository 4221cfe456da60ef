import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/** Records when this installation first started; later starts leave the value alone. */
export async function recordInstalledAt(db: Kysely<Database>, now = new Date()): Promise<void> {
  const timestamp = now.toISOString();
  await db
    .insertInto('app_meta')
    .values({ key: 'installed_at', value: timestamp, updated_at: timestamp })
    // ON CONFLICT DO NOTHING: the same statement on SQLite and PostgreSQL
    .onConflict((conflict) => conflict.column('key').doNothing())
    .execute();
}

export async function getAppMeta(db: Kysely<Database>, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('app_meta').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}
