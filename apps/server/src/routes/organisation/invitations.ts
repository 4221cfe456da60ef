import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Invitation, invitationState } from '../../db/invitations.ts';
import {
  INVITATION_TTL_DAYS,
  inviteMember,
  listInvitations,
  resendInvitation,
  revokeInvitation,
} from '../../organisation/invitations.ts';
import { errorEnvelopeSchema, successEnvelope } from '../../plugins/errors.ts';
import { inviteMemberBody, ORGANISATION_MESSAGES } from '@rfckit/standards';
import { requireAdmin } from './access.ts';
import { acceptanceRoutes } from './invitation-acceptance.ts';
import { bearer, invitationSchema, type InvitationView, messageWith } from './schemas.ts';

const invitationParams = z.object({ id: z.string().max(100).describe("The invitation's id") });

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

/** 'Add Member' invitations: list, send, resend, revoke (admins), and their acceptance. */
const invitations: FastifyPluginAsyncZod = async (app) => {
  const context = () => ({ db: app.db, mailer: app.mailer, appUrl: app.config.appUrl });

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
      const rows = await listInvitations(app.db, caller.organisationId);
      const now = new Date();
      reply.header('cache-control', 'no-store');
      return {
        success: true as const,
        data: {
          invitations: rows.map((row) => invitationView(row.invitation, row.invitedBy, now)),
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
      const { invitation, invitedBy } = await inviteMember(context(), caller, request.body, request.ip);
      reply.code(201).header('cache-control', 'no-store');
      return {
        success: true as const,
        data: {
          message: ORGANISATION_MESSAGES.invitationSent,
          invitation: invitationView(invitation, invitedBy),
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
      const { invitation, invitedBy } = await resendInvitation(
        context(),
        caller,
        request.params.id,
        request.ip,
      );
      reply.header('cache-control', 'no-store');
      return {
        success: true as const,
        data: {
          message: `Invitation sent again to ${invitation.email}`,
          invitation: invitationView(invitation, invitedBy),
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
      const invitation = await revokeInvitation(app.db, caller, request.params.id, request.ip);
      return {
        success: true as const,
        data: { message: `The invitation to ${invitation.email} was revoked`, id: invitation.id },
      };
    },
  );

  await app.register(acceptanceRoutes);
};

export default invitations;
