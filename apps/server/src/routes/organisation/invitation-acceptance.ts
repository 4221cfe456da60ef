import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { emailTaken } from '../../auth/accounts.ts';
import { hashPassword } from '../../auth/passwords.ts';
import { hashToken } from '../../auth/tokens.ts';
import { recordActivity } from '../../db/activities.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import {
  consumeInvitation,
  findInvitationByTokenHash,
  type Invitation,
  invitationState,
} from '../../db/invitations.ts';
import {
  addMembership,
  countMembers,
  findPrimaryMembership,
  removeMembership,
} from '../../db/memberships.ts';
import {
  deleteOrganisation,
  findOrganisationById,
  lockOrganisation,
  type Organisation,
} from '../../db/organisations.ts';
import type { Database } from '../../db/schema.ts';
import { createUser, findUserByEmail, findUserById, type User } from '../../db/users.ts';
import { errorEnvelopeSchema, HttpError, successEnvelope } from '../../plugins/errors.ts';
import { acceptInvitationBody, invitationTokenBody } from '@rfckit/standards';
import { roleSchema, userSchema } from '../auth/schemas.ts';
import { ACCESS_TOKEN_EXPIRES_IN, userView } from '../auth/session.ts';
import { fullName, messageWith, roleLabel } from './schemas.ts';

const NOT_FOUND_MESSAGE =
  'This invitation link is not valid. It may have been replaced by a newer invitation: use the link in the latest message.';
const EXPIRED_MESSAGE = "This invitation has expired. Ask the organisation's admin to send it again.";
const USED_MESSAGE = 'This invitation has already been used.';
const REVOKED_MESSAGE = 'This invitation was revoked by the organisation.';
const PASSWORD_NEEDED_MESSAGE = 'Choose a password to create your account';

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

/**
 * Seeing and accepting an invitation. Rule: an account belongs to one organisation. Accepting
 * moves an existing account only when nobody else is in its current organisation, which is then
 * deleted with everything it holds (it could never be reached again); otherwise the answer is a
 * 409 that says what to do. Someone without an account chooses a password and joins: following
 * the mailed link proves the address, so the account starts verified.
 */
export const acceptanceRoutes: FastifyPluginAsyncZod = async (app) => {
  async function loadUsable(token: string): Promise<{ invitation: Invitation; organisation: Organisation }> {
    const invitation = await findInvitationByTokenHash(app.db, hashToken(token));
    const problem = unusable(invitation);
    if (problem) throw problem;
    const organisation = await findOrganisationById(app.db, invitation!.organisation_id);
    if (!organisation) throw unusable(undefined)!;
    return { invitation: invitation!, organisation };
  }

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
      const { invitation, organisation } = await loadUsable(request.body.token);
      const inviter =
        invitation.invited_by === null ? undefined : await findUserById(app.db, invitation.invited_by);
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
          accountExists: (await findUserByEmail(app.db, invitation.email)) !== undefined,
        },
      };
    },
  );

  async function joinedDescription(invitation: Invitation, how: string): Promise<string> {
    const inviter =
      invitation.invited_by === null ? undefined : await findUserById(app.db, invitation.invited_by);
    const from = inviter ? ` from ${inviter.email}` : '';
    return `${invitation.email} joined as ${roleLabel(invitation.role)} (${how} the invitation${from})`;
  }

  /** A signed-in account with the invited email moves here from an organisation it is alone in. */
  async function moveExisting(user: User, invitation: Invitation, organisation: Organisation, ip: string) {
    const description = await joinedDescription(invitation, 'accepted');
    await app.db.transaction().execute(async (trx) => {
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
  async function createJoined(invitation: Invitation, password: string, ip: string) {
    const passwordHash = await hashPassword(password);
    const description = await joinedDescription(invitation, 'created an account by accepting');
    try {
      await app.db.transaction().execute(async (trx) => {
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
      const { invitation, organisation } = await loadUsable(request.body.token);
      reply.header('cache-control', 'no-store');

      if (request.user !== null) {
        const caller = request.user;
        const user = await findUserById(app.db, caller.id);
        if (!user) throw new HttpError(401, 'UNAUTHORIZED', 'Authentication required');
        if (user.email !== invitation.email) {
          throw new HttpError(
            403,
            'INVITATION_EMAIL_MISMATCH',
            `This invitation is for ${invitation.email}, and you are signed in as ${user.email}. ` +
              'Sign out, then open the link again.',
          );
        }
        await moveExisting(user, invitation, organisation, request.ip);
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

      if (await findUserByEmail(app.db, invitation.email)) {
        throw new HttpError(
          409,
          'ACCOUNT_EXISTS',
          `An account with ${invitation.email} already exists: sign in with it to accept the invitation.`,
        );
      }
      const password = request.body.password;
      if (password === undefined) throw new HttpError(400, 'PASSWORD_REQUIRED', PASSWORD_NEEDED_MESSAGE);
      await createJoined(invitation, password, request.ip);
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
