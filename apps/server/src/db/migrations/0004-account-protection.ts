import { type Kysely, sql } from 'kysely';

// Account protection: single-use links that unlock an account after failed sign-ins or undo an
// email or password change, and the per-account count of failed sign-ins. Kept apart from
// email_token, whose CHECK on kind SQLite could only widen by rebuilding the table.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('security_token')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) => column.notNull().references('user.id').onDelete('cascade'))
    .addColumn('kind', 'text', (column) => column.notNull().check(sql`kind in ('unlock', 'undo-change')`))
    // SHA-256 of the link token, like email_token
    .addColumn('token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('used_at', 'text')
    // the address an undo link puts back (null: a password change, whose undo only signs out)
    .addColumn('restore_email', 'text')
    .execute();
  await db.schema.createIndex('security_token_user_idx').on('security_token').column('user_id').execute();

  await db.schema
    .createTable('login_throttle')
    // SHA-256 of the normalised address, known or not, so the table names no one
    .addColumn('account_key', 'text', (column) => column.primaryKey())
    .addColumn('failures', 'integer', (column) => column.notNull())
    .addColumn('last_failure_at', 'text', (column) => column.notNull())
    .addColumn('locked_until', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('login_throttle').execute();
  await db.schema.dropTable('security_token').execute();
}
