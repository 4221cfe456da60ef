import type { Kysely } from 'kysely';
import type { Database, Role } from './schema.ts';

export async function addMembership(
  db: Kysely<Database>,
  input: { userId: string; organisationId: string; role: Role },
  now = new Date(),
): Promise<void> {
  await db
    .insertInto('membership')
    .values({
      user_id: input.userId,
      organisation_id: input.organisationId,
      role: input.role,
      created_at: now.toISOString(),
    })
    .execute();
}

export interface UserOrganisation {
  organisationId: string;
  organisationName: string;
  role: Role;
}

/** The user's organisation: the first one joined (registration creates it). */
export async function findPrimaryMembership(
  db: Kysely<Database>,
  userId: string,
): Promise<UserOrganisation | undefined> {
  const row = await db
    .selectFrom('membership')
    .innerJoin('organisation', 'organisation.id', 'membership.organisation_id')
    .select(['membership.organisation_id', 'organisation.name', 'membership.role'])
    .where('membership.user_id', '=', userId)
    .orderBy('membership.created_at')
    .orderBy('membership.organisation_id')
    .executeTakeFirst();
  return row && { organisationId: row.organisation_id, organisationName: row.name, role: row.role };
}
