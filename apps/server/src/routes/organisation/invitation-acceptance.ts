import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fullName } from '../../organisation/caller.ts';
import {
  acceptAsSignedIn,
  acceptWithNewAccount,
  loadUsableInvitation,
  previewInvitation,
} from '../../organisation/invitation-acceptance.ts';
import { errorEnvelopeSchema, successEnvelope } from '../../plugins/errors.ts';
import { acceptInvitationBody, invitationTokenBody } from '@rfckit/standards';
import { roleSchema, userSchema } from '../auth/schemas.ts';
import { ACCESS_TOKEN_EXPIRES_IN, userView } from '../auth/session.ts';
import { messageWith } from './schemas.ts';

const previewSchema = z.object({
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: roleSchema,
  organisation: z.object({ name: z.string() }),
  invitedBy: z.object({ name: z.string().nullable(), email: z.string() }).nullable(),
  expiresAt: z.string(),
  accountExists: z
    .boolean()
    .describe('Whether an account with the invited email exists (sign in) or not (sign up)'),
});

/** Seeing and accepting an invitation (the rules: organisation/invitation-acceptance.ts). */
export const acceptanceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/organisation/invitations/preview',
    {
      schema: {
        tags: ['Organisation'],
        summary: 'What an invitation link is for',
        description:
          'No sign-in needed: the token is the credential. Answers the organisation, the inviter and whether the ' +
          'invited address has an account. 404 for an unknown or replaced link; 410 when it expired, was used or revoked.',
        body: invitationTokenBody,
        response: { 200: successEnvelope(previewSchema), '4xx': errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const { invitation, organisation, inviter, accountExists } = await previewInvitation(
        app.db,
        request.body.token,
      );
      reply.header('cache-control', 'no-store');
      return {
        success: true as const,
        data: {
          email: invitation.email,
          firstName: invitation.first_name,
          lastName: invitation.last_name,
          role: invitation.role,
          organisation: { name: organisation.name },
          invitedBy: inviter
            ? { name: fullName(inviter.first_name, inviter.last_name), email: inviter.email }
            : null,
          expiresAt: invitation.expires_at,
          accountExists,
        },
      };
    },
  );

  app.post(
    '/organisation/invitations/accept',
    {
      schema: {
        tags: ['Organisation'],
        summary: 'Accept an invitation',
        description:
          'Signed in (bearer token) as the invited address: joins and answers a fresh access token for the new ' +
          'organisation. Without an account: send `password` and `confirmPassword`; the account is created, counts as ' +
          'verified (the link proves the address) and can sign in at once. An account belongs to one organisation: an ' +
          'account that shares its organisation with others gets 409 MEMBER_ELSEWHERE, and an organisation left empty ' +
          'by the move is deleted.',
        body: acceptInvitationBody,
        response: {
          200: successEnvelope(
            messageWith({
              user: userSchema,
              token: z.string().describe('Access token for the new organisation'),
              expiresIn: z.number().int(),
            }),
          ),
          201: successEnvelope(
            messageWith({ email: z.string(), organisation: z.object({ name: z.string() }) }),
          ),
          '4xx': errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      // a presented but stale token is a 401, so the client refreshes and retries as the same user
      if (request.authFailure !== null) await app.authenticate(request, reply);
      const usable = await loadUsableInvitation(app.db, request.body.token);
      const { invitation, organisation } = usable;
      reply.header('cache-control', 'no-store');

      if (request.user !== null) {
        const caller = request.user;
        const user = await acceptAsSignedIn(app.db, caller.id, usable, request.ip);
        const membership = {
          organisationId: organisation.id,
          organisationName: organisation.name,
          role: invitation.role,
        };
        // the same sign-in continues: its refresh token now yields tokens for the new organisation
        const token = await app.accessTokens.sign({
          userId: user.id,
          organisationId: organisation.id,
          role: invitation.role,
          sessionId: caller.sessionId,
        });
        return {
          success: true as const,
          data: {
            message: `You joined ${organisation.name}`,
            user: userView(user, membership),
            token,
            expiresIn: ACCESS_TOKEN_EXPIRES_IN,
          },
        };
      }

      await acceptWithNewAccount(app.db, invitation, request.body.password, request.ip);
      reply.code(201);
      return {
        success: true as const,
        data: {
          message: `Your account is ready and you joined ${organisation.name}. You can sign in now.`,
          email: invitation.email,
          organisation: { name: organisation.name },
        },
      };
    },
  );
};
