import type { Kysely, Selectable } from 'kysely';
import type { Database, PaymentMethodTable } from './schema.ts';

export type PaymentMethod = Selectable<PaymentMethodTable>;

/** The organisation's cards, the default first, then newest first. */
export function listPaymentMethods(db: Kysely<Database>, organisationId: string): Promise<PaymentMethod[]> {
  return db
    .selectFrom('payment_method')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .orderBy('is_default', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

/** One card of the organisation; another organisation's card is not found. */
export function findPaymentMethod(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
): Promise<PaymentMethod | undefined> {
  return db
    .selectFrom('payment_method')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findDefaultPaymentMethod(
  db: Kysely<Database>,
  organisationId: string,
): Promise<PaymentMethod | undefined> {
  return db
    .selectFrom('payment_method')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('is_default', '=', 1)
    .executeTakeFirst();
}

export async function countPaymentMethods(db: Kysely<Database>, organisationId: string): Promise<number> {
  const row = await db
    .selectFrom('payment_method')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('total'))
    .where('organisation_id', '=', organisationId)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

export async function insertPaymentMethod(db: Kysely<Database>, row: PaymentMethod): Promise<void> {
  await db.insertInto('payment_method').values(row).execute();
}

/** Makes one card the default and every other card of the organisation not. */
export async function setDefaultPaymentMethod(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
): Promise<void> {
  await db
    .updateTable('payment_method')
    .set({ is_default: 0 })
    .where('organisation_id', '=', organisationId)
    .where('id', '!=', id)
    .execute();
  await db
    .updateTable('payment_method')
    .set({ is_default: 1 })
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .execute();
}

export async function updatePaymentMethodExpiry(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
  expiry: { month: number; year: number },
): Promise<void> {
  await db
    .updateTable('payment_method')
    .set({ expiry_month: expiry.month, expiry_year: expiry.year })
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .execute();
}

export async function deletePaymentMethod(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
): Promise<void> {
  await db
    .deleteFrom('payment_method')
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .execute();
}
