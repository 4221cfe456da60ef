import type { Kysely, Selectable } from 'kysely';
import { newId } from './ids.ts';
import type { Database, OrganisationTable } from './schema.ts';

export type Organisation = Selectable<OrganisationTable>;

export interface NewOrganisation {
  name: string;
  domain?: string | null;
  adminEmail?: string | null;
}

export async function createOrganisation(
  db: Kysely<Database>,
  input: NewOrganisation,
  now = new Date(),
): Promise<Organisation> {
  const timestamp = now.toISOString();
  const row: Organisation = {
    id: newId(),
    name: input.name,
    domain: input.domain ?? null,
    address: null,
    phone: null,
    admin_email: input.adminEmail ?? null,
    description: null,
    created_at: timestamp,
    updated_at: timestamp,
  };
  await db.insertInto('organisation').values(row).execute();
  return row;
}

export function findOrganisationById(db: Kysely<Database>, id: string): Promise<Organisation | undefined> {
  return db.selectFrom('organisation').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Organisations with exactly this name (names are not unique), oldest first. */
export function findOrganisationsByName(db: Kysely<Database>, name: string): Promise<Organisation[]> {
  return db.selectFrom('organisation').selectAll().where('name', '=', name).orderBy('created_at').execute();
}

export interface OrganisationChanges {
  name: string;
  domain?: string | null | undefined;
  address?: string | null | undefined;
  phone?: string | null | undefined;
  adminEmail?: string | null | undefined;
  description?: string | null | undefined;
}

/** Applies the given changes (undefined leaves a column alone) and bumps updated_at. */
export async function updateOrganisation(
  db: Kysely<Database>,
  id: string,
  changes: OrganisationChanges,
  now = new Date(),
): Promise<void> {
  const set: Partial<Organisation> = { name: changes.name, updated_at: now.toISOString() };
  if (changes.domain !== undefined) set.domain = changes.domain;
  if (changes.address !== undefined) set.address = changes.address;
  if (changes.phone !== undefined) set.phone = changes.phone;
  if (changes.adminEmail !== undefined) set.admin_email = changes.adminEmail;
  if (changes.description !== undefined) set.description = changes.description;
  await db.updateTable('organisation').set(set).where('id', '=', id).execute();
}

/**
 * Inside a transaction: a no-op write to the organisation's row, which makes concurrent
 * transactions touching the same organisation wait their turn (a row lock on PostgreSQL, the
 * write lock on SQLite). Membership rules such as "keep one admin" check under it.
 */
export async function lockOrganisation(db: Kysely<Database>, id: string): Promise<boolean> {
  const result = await db
    .updateTable('organisation')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Deletes the organisation and, by cascade, everything it owns (log, invitations, billing, API keys). */
export async function deleteOrganisation(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('organisation').where('id', '=', id).execute();
}
