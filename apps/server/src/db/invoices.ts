import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Database, InvoiceTable } from './schema.ts';

export type Invoice = Selectable<InvoiceTable>;
export type InvoiceChanges = Pick<
  Updateable<InvoiceTable>,
  'status' | 'paid_at' | 'payment_method_id' | 'payment_summary'
>;

/** The organisation's invoices, newest first. */
export function listInvoices(
  db: Kysely<Database>,
  organisationId: string,
  limit: number,
): Promise<Invoice[]> {
  return db
    .selectFrom('invoice')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .orderBy('issued_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** One invoice of the organisation; another organisation's invoice is not found. */
export function findInvoice(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
): Promise<Invoice | undefined> {
  return db
    .selectFrom('invoice')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Unpaid invoices, oldest first: the order in which they are retried. */
export function listOpenInvoices(db: Kysely<Database>, organisationId: string): Promise<Invoice[]> {
  return db
    .selectFrom('invoice')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('status', '=', 'open')
    .orderBy('issued_at')
    .orderBy('id')
    .execute();
}

export async function insertInvoice(db: Kysely<Database>, row: Invoice): Promise<void> {
  await db.insertInto('invoice').values(row).execute();
}

export async function updateInvoice(
  db: Kysely<Database>,
  id: string,
  changes: InvoiceChanges,
): Promise<void> {
  await db.updateTable('invoice').set(changes).where('id', '=', id).execute();
}
