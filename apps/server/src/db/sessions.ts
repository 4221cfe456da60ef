import type { Kysely, Selectable } from 'kysely';
import { newId } from './ids.ts';
import type { Database, SessionTable } from './schema.ts';

export type Session = Selectable<SessionTable>;

export interface NewSession {
  userId: string;
  /** The family of a rotated token; a new sign-in starts a new family. */
  familyId?: string;
  refreshTokenHash: string;
  expiresAt: Date;
  userAgent?: string | null;
  ipAddress?: string | null;
}

export async function createSession(
  db: Kysely<Database>,
  input: NewSession,
  now = new Date(),
): Promise<Session> {
  const row: Session = {
    id: newId(),
    family_id: input.familyId ?? newId(),
    user_id: input.userId,
    refresh_token_hash: input.refreshTokenHash,
    created_at: now.toISOString(),
    expires_at: input.expiresAt.toISOString(),
    rotated_at: null,
    revoked_at: null,
    user_agent: input.userAgent ?? null,
    ip_address: input.ipAddress ?? null,
  };
  await db.insertInto('session').values(row).execute();
  return row;
}

export function findSessionByTokenHash(db: Kysely<Database>, hash: string): Promise<Session | undefined> {
  return db.selectFrom('session').selectAll().where('refresh_token_hash', '=', hash).executeTakeFirst();
}

/**
 * Marks a live session as rotated. False when another request rotated or revoked it first:
 * the caller then treats the token as reused.
 */
export async function markRotated(db: Kysely<Database>, id: string, now = new Date()): Promise<boolean> {
  const result = await db
    .updateTable('session')
    .set({ rotated_at: now.toISOString() })
    .where('id', '=', id)
    .where('rotated_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Revokes every session of one sign-in (the family); returns how many were live. */
export async function revokeFamily(
  db: Kysely<Database>,
  familyId: string,
  now = new Date(),
): Promise<number> {
  const result = await db
    .updateTable('session')
    .set({ revoked_at: now.toISOString() })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Revokes every session of a user (password change or reset). */
export async function revokeUserSessions(
  db: Kysely<Database>,
  userId: string,
  now = new Date(),
): Promise<number> {
  const result = await db
    .updateTable('session')
    .set({ revoked_at: now.toISOString() })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * The family of a session an access token names, when that sign-in is still on: not revoked
 * (sign-out, password change or reset, reuse detection, removal), not expired, its user still there.
 */
export async function findLiveSessionFamily(
  db: Kysely<Database>,
  id: string,
  userId: string,
  now = new Date(),
): Promise<string | undefined> {
  const row = await db
    .selectFrom('session')
    .innerJoin('user', 'user.id', 'session.user_id')
    .select('session.family_id')
    .where('session.id', '=', id)
    .where('session.user_id', '=', userId)
    .where('session.revoked_at', 'is', null)
    .where('session.expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return row?.family_id;
}
