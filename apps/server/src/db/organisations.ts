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
