import type { Kysely, Selectable } from 'kysely';
import { newId } from './ids.ts';
import type { Database, InvitationTable, Role } from './schema.ts';

export type Invitation = Selectable<InvitationTable>;

/** Why an invitation can no longer be used, or 'pending' while it can. */
export type InvitationState = 'pending' | 'expired' | 'accepted' | 'revoked';

export function invitationState(invitation: Invitation, now = new Date()): InvitationState {
  if (invitation.accepted_at !== null) return 'accepted';
  if (invitation.revoked_at !== null) return 'revoked';
  return invitation.expires_at <= now.toISOString() ? 'expired' : 'pending';
}

export interface NewInvitation {
  organisationId: string;
  /** Normalised already. */
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  tokenHash: string;
  invitedBy: string | null;
  expiresAt: Date;
}

export async function createInvitation(
  db: Kysely<Database>,
  input: NewInvitation,
  now = new Date(),
): Promise<Invitation> {
  const timestamp = now.toISOString();
  const row: Invitation = {
    id: newId(),
    organisation_id: input.organisationId,
    email: input.email,
    first_name: input.firstName,
    last_name: input.lastName,
    role: input.role,
    token_hash: input.tokenHash,
    invited_by: input.invitedBy,
    created_at: timestamp,
    sent_at: timestamp,
    expires_at: input.expiresAt.toISOString(),
    accepted_at: null,
    revoked_at: null,
  };
  await db.insertInto('invitation').values(row).execute();
  return row;
}

/** An invitation of this organisation (never another's). */
export function findInvitation(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
): Promise<Invitation | undefined> {
  return db
    .selectFrom('invitation')
    .selectAll()
    .where('id', '=', id)
    .where('organisation_id', '=', organisationId)
    .executeTakeFirst();
}

export function findInvitationByTokenHash(
  db: Kysely<Database>,
  tokenHash: string,
): Promise<Invitation | undefined> {
  return db.selectFrom('invitation').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Invitations neither accepted nor revoked (expired ones included: a resend revives them), oldest first. */
export function listOpenInvitations(db: Kysely<Database>, organisationId: string): Promise<Invitation[]> {
  return db
    .selectFrom('invitation')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The open invitation of this organisation to this address, if any. */
export function findOpenInvitation(
  db: Kysely<Database>,
  organisationId: string,
  email: string,
): Promise<Invitation | undefined> {
  return db
    .selectFrom('invitation')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('email', '=', email)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

/**
 * Gives an open invitation a new token and expiry (the old link stops working at once); false when
 * it was accepted or revoked meanwhile.
 */
export async function renewInvitation(
  db: Kysely<Database>,
  id: string,
  tokenHash: string,
  expiresAt: Date,
  now = new Date(),
): Promise<boolean> {
  const result = await db
    .updateTable('invitation')
    .set({ token_hash: tokenHash, sent_at: now.toISOString(), expires_at: expiresAt.toISOString() })
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Revokes an open invitation; false when it was accepted or revoked already. */
export async function revokeInvitation(db: Kysely<Database>, id: string, now = new Date()): Promise<boolean> {
  const result = await db
    .updateTable('invitation')
    .set({ revoked_at: now.toISOString() })
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Marks a pending, unexpired invitation accepted, in one statement, so the same link cannot be
 * used twice however many requests race; false when it was not usable.
 */
export async function consumeInvitation(
  db: Kysely<Database>,
  id: string,
  now = new Date(),
): Promise<boolean> {
  const timestamp = now.toISOString();
  const result = await db
    .updateTable('invitation')
    .set({ accepted_at: timestamp })
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', timestamp)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Removes an invitation whose mail could not be sent, so the admin can simply try again. */
export async function deleteInvitation(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('invitation').where('id', '=', id).execute();
}
