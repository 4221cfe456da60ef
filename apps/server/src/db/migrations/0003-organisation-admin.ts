import { type Kysely, sql } from 'kysely';

// Organisation administration: invitations, billing (plans, subscriptions, cards, invoices) and
// API keys. Money is integer minor units with an ISO 4217 currency; booleans are 0/1 integers so
// the same statements run on SQLite and PostgreSQL.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('invitation')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('organisation_id', 'text', (column) =>
      column.notNull().references('organisation.id').onDelete('cascade'),
    )
    .addColumn('email', 'text', (column) => column.notNull())
    .addColumn('first_name', 'text', (column) => column.notNull())
    .addColumn('last_name', 'text', (column) => column.notNull())
    .addColumn('role', 'text', (column) => column.notNull().check(sql`role in ('admin', 'member')`))
    // SHA-256 of the single-use link token; a resend replaces it
    .addColumn('token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('invited_by', 'text', (column) => column.references('user.id').onDelete('set null'))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('sent_at', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('accepted_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema
    .createIndex('invitation_organisation_idx')
    .on('invitation')
    .columns(['organisation_id', 'email'])
    .execute();

  await db.schema
    .createTable('plan')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('description', 'text', (column) => column.notNull())
    .addColumn('price_minor', 'integer', (column) => column.notNull().check(sql`price_minor >= 0`))
    .addColumn('currency', 'text', (column) => column.notNull())
    .addColumn('billing_interval', 'text', (column) =>
      column.notNull().check(sql`billing_interval in ('month', 'year')`),
    )
    // JSON array of feature lines shown on the plan card
    .addColumn('features', 'text', (column) => column.notNull())
    .addColumn('sort_order', 'integer', (column) => column.notNull())
    .addColumn('active', 'integer', (column) => column.notNull().defaultTo(1))
    .execute();

  await db.schema
    .createTable('subscription')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('organisation_id', 'text', (column) =>
      column.notNull().unique().references('organisation.id').onDelete('cascade'),
    )
    .addColumn('plan_id', 'text', (column) => column.notNull().references('plan.id'))
    .addColumn('status', 'text', (column) =>
      column.notNull().check(sql`status in ('active', 'trialing', 'past_due', 'canceled', 'incomplete')`),
    )
    .addColumn('amount_minor', 'integer', (column) => column.notNull())
    .addColumn('currency', 'text', (column) => column.notNull())
    .addColumn('current_period_start', 'text', (column) => column.notNull())
    // the next billing date
    .addColumn('current_period_end', 'text', (column) => column.notNull())
    .addColumn('canceled_at', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('payment_method')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('organisation_id', 'text', (column) =>
      column.notNull().references('organisation.id').onDelete('cascade'),
    )
    .addColumn('type', 'text', (column) => column.notNull().defaultTo('card'))
    .addColumn('brand', 'text', (column) => column.notNull())
    .addColumn('last4', 'text', (column) => column.notNull())
    .addColumn('expiry_month', 'integer', (column) => column.notNull())
    .addColumn('expiry_year', 'integer', (column) => column.notNull())
    .addColumn('cardholder_name', 'text', (column) => column.notNull())
    .addColumn('is_default', 'integer', (column) => column.notNull().defaultTo(0))
    // the payment provider's reference for the card; never a card number
    .addColumn('provider_ref', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('payment_method_organisation_idx')
    .on('payment_method')
    .column('organisation_id')
    .execute();

  await db.schema
    .createTable('invoice')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('organisation_id', 'text', (column) =>
      column.notNull().references('organisation.id').onDelete('cascade'),
    )
    .addColumn('number', 'text', (column) => column.notNull().unique())
    .addColumn('description', 'text', (column) => column.notNull())
    .addColumn('amount_minor', 'integer', (column) => column.notNull())
    .addColumn('currency', 'text', (column) => column.notNull())
    .addColumn('status', 'text', (column) =>
      column.notNull().check(sql`status in ('paid', 'open', 'void', 'uncollectible')`),
    )
    .addColumn('plan_id', 'text', (column) => column.references('plan.id'))
    .addColumn('period_start', 'text', (column) => column.notNull())
    .addColumn('period_end', 'text', (column) => column.notNull())
    .addColumn('payment_method_id', 'text', (column) =>
      column.references('payment_method.id').onDelete('set null'),
    )
    // what the card looked like when it paid, kept after the card is removed
    .addColumn('payment_summary', 'text')
    .addColumn('issued_at', 'text', (column) => column.notNull())
    .addColumn('paid_at', 'text')
    .execute();
  await db.schema
    .createIndex('invoice_organisation_issued_idx')
    .on('invoice')
    .columns(['organisation_id', 'issued_at'])
    .execute();

  await db.schema
    .createTable('api_key')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('organisation_id', 'text', (column) =>
      column.notNull().references('organisation.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (column) => column.notNull())
    // the first characters of the key, shown to tell keys apart
    .addColumn('prefix', 'text', (column) => column.notNull())
    .addColumn('key_hash', 'text', (column) => column.notNull().unique())
    .addColumn('created_by', 'text', (column) => column.references('user.id').onDelete('set null'))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('api_key_organisation_idx').on('api_key').column('organisation_id').execute();
  // a name tells the organisation's active keys apart; a revoked key frees its name
  await db.schema
    .createIndex('api_key_organisation_active_name_idx')
    .on('api_key')
    .columns(['organisation_id', 'name'])
    .unique()
    .where(sql.ref('revoked_at'), 'is', null)
    .execute();

  // The activity list orders by created_at, then id. With id in each index a page's ids (and a
  // deep OFFSET before them) are read from the index alone, already in order: 0002's
  // (organisation_id, created_at) index gives way to one that ends in id, and filters by user
  // and by action get their own.
  await db.schema.dropIndex('activity_organisation_created_idx').execute();
  await db.schema
    .createIndex('activity_organisation_created_idx')
    .on('activity')
    .columns(['organisation_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('activity_organisation_user_created_idx')
    .on('activity')
    .columns(['organisation_id', 'user_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('activity_organisation_action_created_idx')
    .on('activity')
    .columns(['organisation_id', 'action', 'created_at', 'id'])
    .execute();

  const plans = [
    {
      id: 'free',
      name: 'Free',
      description: 'Every checker and generator for one organisation.',
      price_minor: 0,
      currency: 'USD',
      billing_interval: 'month',
      // what each plan really gives: every feature works on Free; Professional is paid and invoiced
      features: JSON.stringify([
        'All tools',
        'Team members and invitations',
        'Activity history with CSV export',
        'API keys for automation',
      ]),
      sort_order: 1,
      active: 1,
    },
    {
      id: 'professional',
      name: 'Professional',
      description: 'For organisations that pay for rfckit and need an invoice each month.',
      price_minor: 4999,
      currency: 'USD',
      billing_interval: 'month',
      features: JSON.stringify(['Everything in Free', 'A monthly invoice as PDF for your records']),
      sort_order: 2,
      active: 1,
    },
  ];
  await (db as Kysely<{ plan: (typeof plans)[number] }>).insertInto('plan').values(plans).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('activity_organisation_action_created_idx').execute();
  await db.schema.dropIndex('activity_organisation_user_created_idx').execute();
  await db.schema.dropIndex('activity_organisation_created_idx').execute();
  await db.schema
    .createIndex('activity_organisation_created_idx')
    .on('activity')
    .columns(['organisation_id', 'created_at'])
    .execute();
  for (const table of ['api_key', 'invoice', 'payment_method', 'subscription', 'plan', 'invitation']) {
    await db.schema.dropTable(table).execute();
  }
}
