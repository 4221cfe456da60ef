import type { Kysely } from 'kysely';
import { emailTaken } from '../auth/accounts.ts';
import { hashPassword } from '../auth/passwords.ts';
import { hashToken } from '../auth/tokens.ts';
import { recordActivity } from '../db/activities.ts';
import { isUniqueViolation } from '../db/errors.ts';
import {
  consumeInvitation,
  findInvitationByTokenHash,
  type Invitation,
  invitationState,
} from '../db/invitations.ts';
import { addMembership, countMembers, findPrimaryMembership, removeMembership } from '../db/memberships.ts';
import {
  deleteOrganisation,
  findOrganisationById,
  lockOrganisation,
  type Organisation,
} from '../db/organisations.ts';
import type { Database } from '../db/schema.ts';
import { createUser, findUserByEmail, findUserById, type User } from '../db/users.ts';
import { HttpError } from '../plugins/errors.ts';
import { roleLabel } from './caller.ts';
import { newPasswordIssue } from '@rfckit/standards';

/*
 * Seeing and accepting an invitation. Rule: an account belongs to one organisation. Accepting
 * moves an existing account only when nobody else is in its current organisation, which is then
 * deleted with everything it holds (it could never be reached again); otherwise the answer is a
 * 409 that says what to do. Someone without an account chooses a password and joins: following
 * the mailed link proves the address, so the account starts verified.
 */

const NOT_FOUND_MESSAGE =
  'This invitation link is not valid. It may have been replaced by a newer invitation: use the link in the latest message.';
const EXPIRED_MESSAGE = "This invitation has expired. Ask the organisation's admin to send it again.";
const USED_MESSAGE = 'This invitation has already been used.';
const REVOKED_MESSAGE = 'This invitation was revoked by the organisation.';
const PASSWORD_NEEDED_MESSAGE = 'Choose a password to create your account';

export interface UsableInvitation {
  invitation: Invitation;
  organisation: Organisation;
}

export interface InvitationPreview extends UsableInvitation {
  /** The inviter's account, undefined once it is gone. */
  inviter: User | undefined;
  accountExists: boolean;
}

/** 404 for an unknown (or replaced) token; 410 with the reason for one that can no longer be used. */
function unusable(invitation: Invitation | undefined, now = new Date()): HttpError | undefined {
  if (invitation === undefined) return new HttpError(404, 'INVITATION_NOT_FOUND', NOT_FOUND_MESSAGE);
  switch (invitationState(invitation, now)) {
    case 'accepted':
      return new HttpError(410, 'INVITATION_USED', USED_MESSAGE);
    case 'revoked':
      return new HttpError(410, 'INVITATION_REVOKED', REVOKED_MESSAGE);
    case 'expired':
      return new HttpError(410, 'INVITATION_EXPIRED', EXPIRED_MESSAGE);
    case 'pending':
      return undefined;
  }
}

/** Uses the invitation up inside the transaction, or throws why it cannot be used (a racing request won). */
async function consume(trx: Kysely<Database>, invitation: Invitation): Promise<void> {
  if (await consumeInvitation(trx, invitation.id)) return;
  const current = await findInvitationByTokenHash(trx, invitation.token_hash);
  throw unusable(current) ?? new HttpError(410, 'INVITATION_USED', USED_MESSAGE);
}

/** A paid subscription that would vanish with the organisation. */
async function hasPaidSubscription(trx: Kysely<Database>, organisationId: string): Promise<boolean> {
  const row = await trx
    .selectFrom('subscription')
    .select('id')
    .where('organisation_id', '=', organisationId)
    .where('amount_minor', '>', 0)
    .where('status', '!=', 'canceled')
    .executeTakeFirst();
  return row !== undefined;
}

/** The invitation a link's token names and its organisation, or why it cannot be used. */
export async function loadUsableInvitation(db: Kysely<Database>, token: string): Promise<UsableInvitation> {
  const invitation = await findInvitationByTokenHash(db, hashToken(token));
  const problem = unusable(invitation);
  if (problem) throw problem;
  const organisation = await findOrganisationById(db, invitation!.organisation_id);
  if (!organisation) throw unusable(undefined)!;
  return { invitation: invitation!, organisation };
}

/** What an invitation link is for: the organisation, the inviter and whether the address has an account. */
export async function previewInvitation(db: Kysely<Database>, token: string): Promise<InvitationPreview> {
  const { invitation, organisation } = await loadUsableInvitation(db, token);
  const inviter = invitation.invited_by === null ? undefined : await findUserById(db, invitation.invited_by);
  return {
    invitation,
    organisation,
    inviter,
    accountExists: (await findUserByEmail(db, invitation.email)) !== undefined,
  };
}

async function joinedDescription(db: Kysely<Database>, invitation: Invitation, how: string): Promise<string> {
  const inviter = invitation.invited_by === null ? undefined : await findUserById(db, invitation.invited_by);
  const from = inviter ? ` from ${inviter.email}` : '';
  return `${invitation.email} joined as ${roleLabel(invitation.role)} (${how} the invitation${from})`;
}

/** A signed-in account with the invited email moves here from an organisation it is alone in. */
async function moveExisting(
  db: Kysely<Database>,
  user: User,
  invitation: Invitation,
  organisation: Organisation,
  ip: string,
): Promise<void> {
  const description = await joinedDescription(db, invitation, 'accepted');
  await db.transaction().execute(async (trx) => {
    // both organisations, always in the same order, so two opposite moves cannot deadlock
    const before = await findPrimaryMembership(trx, user.id);
    const locked = new Set([
      invitation.organisation_id,
      before?.organisationId ?? invitation.organisation_id,
    ]);
    for (const id of [...locked].sort()) await lockOrganisation(trx, id);
    await consume(trx, invitation);
    const current = await findPrimaryMembership(trx, user.id);
    if (current?.organisationId === invitation.organisation_id) {
      throw new HttpError(409, 'ALREADY_MEMBER', `You are already a member of ${organisation.name}`);
    }
    if (current !== undefined) {
      if ((await countMembers(trx, current.organisationId)) > 1) {
        throw new HttpError(
          409,
          'MEMBER_ELSEWHERE',
          `An account belongs to one organisation, and you share ${current.organisationName} with other members. ` +
            `Leave it (or remove its other members) before joining ${organisation.name}.`,
        );
      }
      if (await hasPaidSubscription(trx, current.organisationId)) {
        throw new HttpError(
          409,
          'PAID_SUBSCRIPTION',
          `${current.organisationName} has a paid subscription. Cancel it before joining ${organisation.name}: ` +
            'your current organisation is closed when you move.',
        );
      }
      await removeMembership(trx, user.id, current.organisationId);
      await deleteOrganisation(trx, current.organisationId);
    }
    await addMembership(trx, { userId: user.id, organisationId: organisation.id, role: invitation.role });
    await recordActivity(trx, {
      organisationId: organisation.id,
      userId: user.id,
      username: user.email,
      action: 'create',
      description,
      details: { invitationId: invitation.id, role: invitation.role, newAccount: false },
      ipAddress: ip,
    });
  });
}

/** Someone without an account: the account is made, verified by this link, and joins. */
async function createJoined(
  db: Kysely<Database>,
  invitation: Invitation,
  password: string,
  ip: string,
): Promise<void> {
  const refused = newPasswordIssue(password, invitation.email);
  if (refused !== undefined) throw new HttpError(400, 'VALIDATION_ERROR', refused);
  const passwordHash = await hashPassword(password);
  const description = await joinedDescription(db, invitation, 'created an account by accepting');
  try {
    await db.transaction().execute(async (trx) => {
      await consume(trx, invitation);
      const now = new Date();
      const user = await createUser(
        trx,
        {
          email: invitation.email,
          passwordHash,
          firstName: invitation.first_name,
          lastName: invitation.last_name,
          emailVerifiedAt: now.toISOString(),
        },
        now,
      );
      await addMembership(trx, {
        userId: user.id,
        organisationId: invitation.organisation_id,
        role: invitation.role,
      });
      await recordActivity(trx, {
        organisationId: invitation.organisation_id,
        userId: user.id,
        username: user.email,
        action: 'create',
        description,
        details: { invitationId: invitation.id, role: invitation.role, newAccount: true },
        ipAddress: ip,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
}

/** The signed-in account `userId` accepts: it must hold the invited email. Answers the account. */
export async function acceptAsSignedIn(
  db: Kysely<Database>,
  userId: string,
  { invitation, organisation }: UsableInvitation,
  ip: string,
): Promise<User> {
  const user = await findUserById(db, userId);
  if (!user) throw new HttpError(401, 'UNAUTHORIZED', 'Authentication required');
  if (user.email !== invitation.email) {
    throw new HttpError(
      403,
      'INVITATION_EMAIL_MISMATCH',
      `This invitation is for ${invitation.email}, and you are signed in as ${user.email}. ` +
        'Sign out, then open the link again.',
    );
  }
  await moveExisting(db, user, invitation, organisation, ip);
  return user;
}

/** Someone not signed in accepts: only an address without an account, with a password chosen. */
export async function acceptWithNewAccount(
  db: Kysely<Database>,
  invitation: Invitation,
  password: string | undefined,
  ip: string,
): Promise<void> {
  if (await findUserByEmail(db, invitation.email)) {
    throw new HttpError(
      409,
      'ACCOUNT_EXISTS',
      `An account with ${invitation.email} already exists: sign in with it to accept the invitation.`,
    );
  }
  if (password === undefined) throw new HttpError(400, 'PASSWORD_REQUIRED', PASSWORD_NEEDED_MESSAGE);
  await createJoined(db, invitation, password, ip);
}
