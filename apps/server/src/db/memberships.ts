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

/** The user's role in this organisation now (the access token's role may be up to 15 minutes old). */
export async function findMembershipRole(
  db: Kysely<Database>,
  userId: string,
  organisationId: string,
): Promise<Role | undefined> {
  const row = await db
    .selectFrom('membership')
    .select('role')
    .where('user_id', '=', userId)
    .where('organisation_id', '=', organisationId)
    .executeTakeFirst();
  return row?.role;
}

export interface MemberRow {
  userId: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  role: Role;
  joinedAt: string;
}

/** The organisation's members, in the order they joined. */
export async function listMembers(db: Kysely<Database>, organisationId: string): Promise<MemberRow[]> {
  const rows = await db
    .selectFrom('membership')
    .innerJoin('user', 'user.id', 'membership.user_id')
    .select([
      'user.id',
      'user.email',
      'user.first_name',
      'user.last_name',
      'membership.role',
      'membership.created_at',
    ])
    .where('membership.organisation_id', '=', organisationId)
    .orderBy('membership.created_at')
    .orderBy('user.id')
    .execute();
  return rows.map((row) => ({
    userId: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    role: row.role,
    joinedAt: row.created_at,
  }));
}

/** How many members the organisation has, or how many admins with `role`. */
export async function countMembers(
  db: Kysely<Database>,
  organisationId: string,
  role?: Role,
): Promise<number> {
  let query = db.selectFrom('membership').where('organisation_id', '=', organisationId);
  if (role !== undefined) query = query.where('role', '=', role);
  const row = await query
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('total'))
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

export async function setMembershipRole(
  db: Kysely<Database>,
  userId: string,
  organisationId: string,
  role: Role,
): Promise<void> {
  await db
    .updateTable('membership')
    .set({ role })
    .where('user_id', '=', userId)
    .where('organisation_id', '=', organisationId)
    .execute();
}

export async function removeMembership(
  db: Kysely<Database>,
  userId: string,
  organisationId: string,
): Promise<void> {
  await db
    .deleteFrom('membership')
    .where('user_id', '=', userId)
    .where('organisation_id', '=', organisationId)
    .execute();
}
