import type { Kysely } from 'kysely';
import { normaliseEmail, ORGANISATION_MESSAGES } from '@rfckit/standards';
import { hashToken, randomToken } from '../auth/tokens.ts';
import { recordActivity } from '../db/activities.ts';
import {
  createInvitation,
  deleteInvitation,
  findInvitation,
  findOpenInvitation,
  type Invitation,
  listOpenInvitations,
  renewInvitation,
  revokeInvitation as markInvitationRevoked,
} from '../db/invitations.ts';
import { findMembershipRole } from '../db/memberships.ts';
import { findOrganisationById, lockOrganisation } from '../db/organisations.ts';
import type { Database, Role } from '../db/schema.ts';
import { findUserByEmail, findUserById } from '../db/users.ts';
import type { Mailer } from '../mail/mailer.ts';
import { invitationMessage } from '../mail/templates.ts';
import { HttpError } from '../plugins/errors.ts';
import { fullName, type OrganisationCaller, roleLabel } from './caller.ts';

export const INVITATION_TTL_DAYS = 7;
export const INVITATION_TTL_MS = INVITATION_TTL_DAYS * 24 * 60 * 60 * 1000;
const RESEND_FAILED = 'Failed to resend the invitation. Please try again.';

/** What sending invitations needs besides the database. */
export interface InvitationContext {
  db: Kysely<Database>;
  mailer: Mailer;
  appUrl: string;
}

/** An invitation with its inviter's email, null when that account is gone. */
export interface InvitationWithInviter {
  invitation: Invitation;
  invitedBy: string | null;
}

export interface NewInvitation {
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
}

/** The web page that accepts an invitation. */
export function invitationLink(appUrl: string, token: string): string {
  return `${appUrl}/invitation?token=${encodeURIComponent(token)}`;
}

/** A 409 that says why a closed invitation cannot be resent or revoked. */
function closed(invitation: Invitation): HttpError {
  return new HttpError(
    409,
    'INVITATION_CLOSED',
    invitation.accepted_at !== null
      ? `The invitation to ${invitation.email} was already accepted`
      : `The invitation to ${invitation.email} was already revoked`,
  );
}

function noSuchInvitation(): HttpError {
  return new HttpError(404, 'NOT_FOUND', 'No such invitation in this organisation');
}

async function inviterLabel(db: Kysely<Database>, userId: string | null): Promise<string | null> {
  if (userId === null) return null;
  const user = await findUserById(db, userId);
  if (!user) return null;
  const name = fullName(user.first_name, user.last_name);
  return name === null ? user.email : `${name} (${user.email})`;
}

async function inviterEmail(db: Kysely<Database>, userId: string | null): Promise<string | null> {
  return userId === null ? null : ((await findUserById(db, userId))?.email ?? null);
}

/** Builds the mail for the invitation's current token; the organisation and inviter are read now. */
async function mailFor(context: InvitationContext, invitation: Invitation, token: string) {
  const organisation = await findOrganisationById(context.db, invitation.organisation_id);
  return invitationMessage(invitation.email, invitationLink(context.appUrl, token), {
    organisationName: organisation?.name ?? 'an organisation',
    inviter: await inviterLabel(context.db, invitation.invited_by),
    inviteeName: `${invitation.first_name} ${invitation.last_name}`,
    role: invitation.role,
    validDays: INVITATION_TTL_DAYS,
  });
}

/** Invitations neither accepted nor revoked, oldest first, with their inviters. */
export async function listInvitations(
  db: Kysely<Database>,
  organisationId: string,
): Promise<InvitationWithInviter[]> {
  const rows = await listOpenInvitations(db, organisationId);
  const inviters = new Map<string, string | null>();
  for (const row of rows) {
    if (row.invited_by !== null && !inviters.has(row.invited_by)) {
      inviters.set(row.invited_by, await inviterEmail(db, row.invited_by));
    }
  }
  return rows.map((invitation) => ({
    invitation,
    invitedBy: invitation.invited_by === null ? null : (inviters.get(invitation.invited_by) ?? null),
  }));
}

/**
 * Invites someone who is neither a member nor already invited, and mails the link. When the mail
 * cannot be sent nothing is kept (502 MAIL_FAILED).
 */
export async function inviteMember(
  context: InvitationContext,
  caller: OrganisationCaller,
  input: NewInvitation,
  ipAddress: string,
): Promise<InvitationWithInviter> {
  const { db } = context;
  const email = normaliseEmail(input.email);
  const token = randomToken();
  // One clock reading, so the link lives exactly INVITATION_TTL_MS from its creation.
  const now = new Date();
  const invitation = await db.transaction().execute(async (trx) => {
    await lockOrganisation(trx, caller.organisationId);
    const existing = await findUserByEmail(trx, email);
    if (existing && (await findMembershipRole(trx, existing.id, caller.organisationId)) !== undefined) {
      throw new HttpError(409, 'ALREADY_MEMBER', `${email} is already a member of this organisation`);
    }
    if (await findOpenInvitation(trx, caller.organisationId, email)) {
      throw new HttpError(
        409,
        'INVITATION_PENDING',
        `${email} already has a pending invitation: resend it instead`,
      );
    }
    return createInvitation(
      trx,
      {
        organisationId: caller.organisationId,
        email,
        firstName: input.firstName.trim(),
        lastName: input.lastName.trim(),
        role: input.role,
        tokenHash: hashToken(token),
        invitedBy: caller.userId,
        expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
      },
      now,
    );
  });
  try {
    await context.mailer.send(await mailFor(context, invitation, token));
  } catch (error) {
    await deleteInvitation(db, invitation.id);
    throw new HttpError(502, 'MAIL_FAILED', ORGANISATION_MESSAGES.invitationFailed, { cause: error });
  }
  const actor = await findUserById(db, caller.userId);
  await recordActivity(db, {
    organisationId: caller.organisationId,
    userId: caller.userId,
    username: actor?.email ?? null,
    action: 'create',
    description: `Invited ${email} to join as ${roleLabel(invitation.role)}`,
    details: { invitationId: invitation.id, role: invitation.role },
    ipAddress,
  });
  return { invitation, invitedBy: actor?.email ?? null };
}

/** Mails a new link valid from now; the earlier one stops working. */
export async function resendInvitation(
  context: InvitationContext,
  caller: OrganisationCaller,
  id: string,
  ipAddress: string,
): Promise<InvitationWithInviter> {
  const { db } = context;
  const invitation = await findInvitation(db, caller.organisationId, id);
  if (!invitation) throw noSuchInvitation();
  const token = randomToken();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
  if (!(await renewInvitation(db, invitation.id, hashToken(token), expiresAt, now))) throw closed(invitation);
  const renewed = (await findInvitation(db, caller.organisationId, invitation.id)) ?? invitation;
  try {
    await context.mailer.send(await mailFor(context, renewed, token));
  } catch (error) {
    throw new HttpError(502, 'MAIL_FAILED', RESEND_FAILED, { cause: error });
  }
  const actor = await findUserById(db, caller.userId);
  await recordActivity(db, {
    organisationId: caller.organisationId,
    userId: caller.userId,
    username: actor?.email ?? null,
    action: 'update',
    description: `Invitation to ${invitation.email} resent; the earlier link no longer works`,
    details: { invitationId: invitation.id },
    ipAddress,
  });
  return { invitation: renewed, invitedBy: await inviterEmail(db, renewed.invited_by) };
}

/** Revokes an open invitation: its link stops working at once. */
export async function revokeInvitation(
  db: Kysely<Database>,
  caller: OrganisationCaller,
  id: string,
  ipAddress: string,
): Promise<Invitation> {
  const invitation = await findInvitation(db, caller.organisationId, id);
  if (!invitation) throw noSuchInvitation();
  if (!(await markInvitationRevoked(db, invitation.id))) throw closed(invitation);
  const actor = await findUserById(db, caller.userId);
  await recordActivity(db, {
    organisationId: caller.organisationId,
    userId: caller.userId,
    username: actor?.email ?? null,
    action: 'delete',
    description: `Invitation to ${invitation.email} revoked`,
    details: { invitationId: invitation.id },
    ipAddress,
  });
  return invitation;
}
