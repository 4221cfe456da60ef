import { type Kysely, sql } from 'kysely';

// Migrations take Kysely<unknown>: they must not depend on the current schema types.
// Ids are UUIDs and timestamps ISO 8601 text, so the same statements run on SQLite and PostgreSQL.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('email', 'text', (column) => column.notNull().unique())
    .addColumn('password_hash', 'text', (column) => column.notNull())
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('company', 'text')
    .addColumn('phone', 'text')
    .addColumn('email_verified_at', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('organisation')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('domain', 'text')
    .addColumn('address', 'text')
    .addColumn('phone', 'text')
    .addColumn('admin_email', 'text')
    .addColumn('description', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('membership')
    .addColumn('user_id', 'text', (column) => column.notNull().references('user.id').onDelete('cascade'))
    .addColumn('organisation_id', 'text', (column) =>
      column.notNull().references('organisation.id').onDelete('cascade'),
    )
    .addColumn('role', 'text', (column) => column.notNull().check(sql`role in ('admin', 'member')`))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('membership_pkey', ['user_id', 'organisation_id'])
    .execute();
  await db.schema
    .createIndex('membership_organisation_idx')
    .on('membership')
    .column('organisation_id')
    .execute();

  await db.schema
    .createTable('session')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('family_id', 'text', (column) => column.notNull())
    .addColumn('user_id', 'text', (column) => column.notNull().references('user.id').onDelete('cascade'))
    .addColumn('refresh_token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('rotated_at', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('ip_address', 'text')
    .execute();
  await db.schema.createIndex('session_family_idx').on('session').column('family_id').execute();
  await db.schema.createIndex('session_user_idx').on('session').column('user_id').execute();

  await db.schema
    .createTable('email_token')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) => column.notNull().references('user.id').onDelete('cascade'))
    .addColumn('kind', 'text', (column) =>
      column.notNull().check(sql`kind in ('verify', 'reset', 'email-change')`),
    )
    .addColumn('token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('used_at', 'text')
    .addColumn('new_email', 'text')
    .execute();
  await db.schema.createIndex('email_token_user_idx').on('email_token').column('user_id').execute();

  await db.schema
    .createTable('activity')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('organisation_id', 'text', (column) =>
      column.notNull().references('organisation.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (column) => column.references('user.id').onDelete('set null'))
    // the actor's email when the event happened: kept when the user is renamed or deleted
    .addColumn('username', 'text')
    .addColumn('action', 'text', (column) =>
      column.notNull().check(sql`action in ('login', 'logout', 'create', 'update', 'delete')`),
    )
    .addColumn('description', 'text', (column) => column.notNull())
    .addColumn('details', 'text')
    .addColumn('ip_address', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('activity_organisation_created_idx')
    .on('activity')
    .columns(['organisation_id', 'created_at'])
    .execute();
  await db.schema.createIndex('activity_user_idx').on('activity').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['activity', 'email_token', 'session', 'membership', 'organisation', 'user']) {
    await db.schema.dropTable(table).execute();
  }
}
