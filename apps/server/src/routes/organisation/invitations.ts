import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { hashToken, randomToken } from '../../auth/tokens.ts';
import { recordActivity } from '../../db/activities.ts';
import {
  createInvitation,
  deleteInvitation,
  findInvitation,
  findOpenInvitation,
  type Invitation,
  invitationState,
  listOpenInvitations,
  renewInvitation,
  revokeInvitation,
} from '../../db/invitations.ts';
import { findMembershipRole } from '../../db/memberships.ts';
import { findOrganisationById, lockOrganisation } from '../../db/organisations.ts';
import { findUserByEmail, findUserById } from '../../db/users.ts';
import { invitationMessage } from '../../mail/templates.ts';
import { errorEnvelopeSchema, HttpError, successEnvelope } from '../../plugins/errors.ts';
import { inviteMemberBody, normaliseEmail, ORGANISATION_MESSAGES } from '@rfckit/standards';
import { requireAdmin } from './access.ts';
import { acceptanceRoutes } from './invitation-acceptance.ts';
import {
  bearer,
  fullName,
  invitationSchema,
  type InvitationView,
  messageWith,
  roleLabel,
} from './schemas.ts';

export const INVITATION_TTL_DAYS = 7;
export const INVITATION_TTL_MS = INVITATION_TTL_DAYS * 24 * 60 * 60 * 1000;
const RESEND_FAILED = 'Failed to resend the invitation. Please try again.';

const invitationParams = z.object({ id: z.string().max(100).describe("The invitation's id") });

/** The web page that accepts an invitation. */
export function invitationLink(appUrl: string, token: string): string {
  return `${appUrl}/invitation?token=${encodeURIComponent(token)}`;
}

function invitationView(row: Invitation, invitedBy: string | null, now = new Date()): InvitationView {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    role: row.role,
    status: invitationState(row, now) === 'expired' ? 'expired' : 'pending',
    invitedBy,
    createdAt: row.created_at,
    sentAt: row.sent_at,
    expiresAt: row.expires_at,
  };
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

/** 'Add Member' invitations: list, send, resend, revoke (admins), and their acceptance. */
const invitations: FastifyPluginAsyncZod = async (app) => {
  const { appUrl } = app.config;

  async function inviterLabel(userId: string | null): Promise<string | null> {
    if (userId === null) return null;
    const user = await findUserById(app.db, userId);
    if (!user) return null;
    const name = fullName(user.first_name, user.last_name);
    return name === null ? user.email : `${name} (${user.email})`;
  }

  async function inviterEmail(userId: string | null): Promise<string | null> {
    return userId === null ? null : ((await findUserById(app.db, userId))?.email ?? null);
  }

  /** Builds the mail for the invitation's current token; the organisation and inviter are read now. */
  async function mailFor(invitation: Invitation, token: string) {
    const organisation = await findOrganisationById(app.db, invitation.organisation_id);
    return invitationMessage(invitation.email, invitationLink(appUrl, token), {
      organisationName: organisation?.name ?? 'an organisation',
      inviter: await inviterLabel(invitation.invited_by),
      inviteeName: `${invitation.first_name} ${invitation.last_name}`,
      role: invitation.role,
      validDays: INVITATION_TTL_DAYS,
    });
  }

  app.get(
    '/organisation/invitations',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['Organisation'],
        summary: 'Open invitations',
        description:
          'Admins only. Invitations neither accepted nor revoked, oldest first; expired ones can be resent.',
        security: bearer,
        response: {
          200: successEnvelope(z.object({ invitations: z.array(invitationSchema) })),
          '4xx': errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const caller = await requireAdmin(app, request, reply);
      const rows = await listOpenInvitations(app.db, caller.organisationId);
      const inviters = new Map<string, string | null>();
      for (const row of rows) {
        if (row.invited_by !== null && !inviters.has(row.invited_by)) {
          inviters.set(row.invited_by, await inviterEmail(row.invited_by));
        }
      }
      const now = new Date();
      reply.header('cache-control', 'no-store');
      return {
        success: true as const,
        data: {
          invitations: rows.map((row) =>
            invitationView(row, row.invited_by === null ? null : (inviters.get(row.invited_by) ?? null), now),
          ),
        },
      };
    },
  );

  app.post(
    '/organisation/invitations',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['Organisation'],
        summary: 'Invite someone (Add Member)',
        description:
          `Admins only. Mails a single-use link valid ${INVITATION_TTL_DAYS} days to the address. A current member ` +
          'or an address with an open invitation is a 409 (resend the open one instead). When the mail cannot be ' +
          'sent, nothing is kept and the answer is 502.',
        security: bearer,
        body: inviteMemberBody,
        response: {
          201: successEnvelope(messageWith({ invitation: invitationSchema })),
          '4xx': errorEnvelopeSchema,
          '5xx': errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const caller = await requireAdmin(app, request, reply);
      const body = request.body;
      const email = normaliseEmail(body.email);
      const token = randomToken();
      const invitation = await app.db.transaction().execute(async (trx) => {
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
        return createInvitation(trx, {
          organisationId: caller.organisationId,
          email,
          firstName: body.firstName.trim(),
          lastName: body.lastName.trim(),
          role: body.role,
          tokenHash: hashToken(token),
          invitedBy: caller.userId,
          expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
        });
      });
      try {
        await app.mailer.send(await mailFor(invitation, token));
      } catch (error) {
        await deleteInvitation(app.db, invitation.id);
        throw new HttpError(502, 'MAIL_FAILED', ORGANISATION_MESSAGES.invitationFailed, { cause: error });
      }
      const actor = await findUserById(app.db, caller.userId);
      await recordActivity(app.db, {
        organisationId: caller.organisationId,
        userId: caller.userId,
        username: actor?.email ?? null,
        action: 'create',
        description: `Invited ${email} to join as ${roleLabel(invitation.role)}`,
        details: { invitationId: invitation.id, role: invitation.role },
        ipAddress: request.ip,
      });
      reply.code(201).header('cache-control', 'no-store');
      return {
        success: true as const,
        data: {
          message: ORGANISATION_MESSAGES.invitationSent,
          invitation: invitationView(invitation, actor?.email ?? null),
        },
      };
    },
  );

  app.post(
    '/organisation/invitations/:id/resend',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['Organisation'],
        summary: 'Resend an invitation',
        description:
          `Admins only. Mails a new link, valid ${INVITATION_TTL_DAYS} days from now; the earlier link stops working. ` +
          'An accepted or revoked invitation is a 409.',
        security: bearer,
        params: invitationParams,
        response: {
          200: successEnvelope(messageWith({ invitation: invitationSchema })),
          '4xx': errorEnvelopeSchema,
          '5xx': errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const caller = await requireAdmin(app, request, reply);
      const invitation = await findInvitation(app.db, caller.organisationId, request.params.id);
      if (!invitation) throw new HttpError(404, 'NOT_FOUND', 'No such invitation in this organisation');
      const token = randomToken();
      const expiresAt = new Date(Date.now() + INVITATION_TTL_MS);
      if (!(await renewInvitation(app.db, invitation.id, hashToken(token), expiresAt)))
        throw closed(invitation);
      const renewed = (await findInvitation(app.db, caller.organisationId, invitation.id)) ?? invitation;
      try {
        await app.mailer.send(await mailFor(renewed, token));
      } catch (error) {
        throw new HttpError(502, 'MAIL_FAILED', RESEND_FAILED, { cause: error });
      }
      const actor = await findUserById(app.db, caller.userId);
      await recordActivity(app.db, {
        organisationId: caller.organisationId,
        userId: caller.userId,
        username: actor?.email ?? null,
        action: 'update',
        description: `Invitation to ${invitation.email} resent; the earlier link no longer works`,
        details: { invitationId: invitation.id },
        ipAddress: request.ip,
      });
      reply.header('cache-control', 'no-store');
      return {
        success: true as const,
        data: {
          message: `Invitation sent again to ${invitation.email}`,
          invitation: invitationView(renewed, await inviterEmail(renewed.invited_by)),
        },
      };
    },
  );

  app.delete(
    '/organisation/invitations/:id',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['Organisation'],
        summary: 'Revoke an invitation',
        description:
          'Admins only. Its link stops working at once. An accepted or revoked invitation is a 409.',
        security: bearer,
        params: invitationParams,
        response: {
          200: successEnvelope(messageWith({ id: z.string() })),
          '4xx': errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const caller = await requireAdmin(app, request, reply);
      const invitation = await findInvitation(app.db, caller.organisationId, request.params.id);
      if (!invitation) throw new HttpError(404, 'NOT_FOUND', 'No such invitation in this organisation');
      if (!(await revokeInvitation(app.db, invitation.id))) throw closed(invitation);
      const actor = await findUserById(app.db, caller.userId);
      await recordActivity(app.db, {
        organisationId: caller.organisationId,
        userId: caller.userId,
        username: actor?.email ?? null,
        action: 'delete',
        description: `Invitation to ${invitation.email} revoked`,
        details: { invitationId: invitation.id },
        ipAddress: request.ip,
      });
      return {
        success: true as const,
        data: { message: `The invitation to ${invitation.email} was revoked`, id: invitation.id },
      };
    },
  );

  await app.register(acceptanceRoutes);
};

export default invitations;
