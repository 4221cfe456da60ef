import type { Kysely, Selectable } from 'kysely';
import { newId } from './ids.ts';
import type { Database, UserTable } from './schema.ts';

export type User = Selectable<UserTable>;

export interface NewUser {
  email: string;
  passwordHash: string;
  firstName?: string | null;
  lastName?: string | null;
  company?: string | null;
  phone?: string | null;
  emailVerifiedAt?: string | null;
}

/** Inserts a user; the email must already be normalised. Throws on a duplicate email (see isUniqueViolation). */
export async function createUser(db: Kysely<Database>, input: NewUser, now = new Date()): Promise<User> {
  const timestamp = now.toISOString();
  const row: User = {
    id: newId(),
    email: input.email,
    password_hash: input.passwordHash,
    first_name: input.firstName ?? null,
    last_name: input.lastName ?? null,
    company: input.company ?? null,
    phone: input.phone ?? null,
    email_verified_at: input.emailVerifiedAt ?? null,
    created_at: timestamp,
    updated_at: timestamp,
  };
  await db.insertInto('user').values(row).execute();
  return row;
}

export function findUserById(db: Kysely<Database>, id: string): Promise<User | undefined> {
  return db.selectFrom('user').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findUserByEmail(db: Kysely<Database>, email: string): Promise<User | undefined> {
  return db.selectFrom('user').selectAll().where('email', '=', email).executeTakeFirst();
}

export interface UserChanges {
  email?: string;
  firstName?: string | null | undefined;
  lastName?: string | null | undefined;
  company?: string | null | undefined;
  phone?: string | null | undefined;
  passwordHash?: string;
  emailVerifiedAt?: string | null;
}

/** Applies the given changes (undefined leaves a column alone) and bumps updated_at. */
export async function updateUser(
  db: Kysely<Database>,
  id: string,
  changes: UserChanges,
  now = new Date(),
): Promise<void> {
  const set: Partial<User> = { updated_at: now.toISOString() };
  if (changes.email !== undefined) set.email = changes.email;
  if (changes.firstName !== undefined) set.first_name = changes.firstName;
  if (changes.lastName !== undefined) set.last_name = changes.lastName;
  if (changes.company !== undefined) set.company = changes.company;
  if (changes.phone !== undefined) set.phone = changes.phone;
  if (changes.passwordHash !== undefined) set.password_hash = changes.passwordHash;
  if (changes.emailVerifiedAt !== undefined) set.email_verified_at = changes.emailVerifiedAt;
  await db.updateTable('user').set(set).where('id', '=', id).execute();
}
