import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { prepareLinkMail, preparePasswordChangedMail, requireMembership } from '../../auth/accounts.ts';
import { hashPassword, verifyPassword } from '../../auth/passwords.ts';
import { recordActivity } from '../../db/activities.ts';
import { findPendingEmailChange } from '../../db/email-tokens.ts';
import { revokeUserSessions } from '../../db/sessions.ts';
import { findUserByEmail, findUserById, type User, type UserChanges, updateUser } from '../../db/users.ts';
import { emailChangeAttemptMessage } from '../../mail/templates.ts';
import { errorEnvelopeSchema, HttpError, successEnvelope } from '../../plugins/errors.ts';
import { changePasswordBody, newPasswordIssue, normaliseEmail, updateProfileBody } from '@rfckit/standards';
import { messageSchema, profileSchema, tokenPairSchema } from './schemas.ts';
import { ACCESS_TOKEN_EXPIRES_IN, issueTokens, profileView, setRefreshCookie } from './session.ts';

const bearer = [{ bearerAuth: [] }];
const CURRENT_PASSWORD_INCORRECT = 'Current password is incorrect';
const CURRENT_PASSWORD_REQUIRED = 'Enter your current password to change your email address';

/** The signed-in user's own account: profile and password. */
const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  const { appUrl } = app.config;

  async function currentUser(id: string): Promise<User> {
    const user = await findUserById(app.db, id);
    if (!user) throw new HttpError(401, 'UNAUTHORIZED', 'Authentication required');
    return user;
  }

  app.get(
    '/auth/profile',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['Auth'],
        summary: 'The signed-in user',
        security: bearer,
        response: { 200: successEnvelope(z.object({ user: profileSchema })), '4xx': errorEnvelopeSchema },
      },
    },
    async (request) => {
      const caller = request.user!;
      const user = await currentUser(caller.id);
      const membership = await requireMembership(app.db, user.id);
      const pending = await findPendingEmailChange(app.db, user.id);
      return { success: true as const, data: { user: profileView(user, membership, pending) } };
    },
  );

  app.put(
    '/auth/profile',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['Auth'],
        summary: 'Update the signed-in user',
        description:
          'Changes firstName, lastName, company and phone at once. A new email needs `currentPassword`; it is mailed ' +
          'a confirmation link and replaces the old one only when followed (`pendingEmail` until then), and the old ' +
          'address is then mailed a link that undoes the change. An address that already has an account gets the ' +
          'same answer; its owner is told instead.',
        security: bearer,
        body: updateProfileBody,
        response: {
          200: successEnvelope(messageSchema.extend({ user: profileSchema })),
          '4xx': errorEnvelopeSchema,
        },
      },
    },
    async (request) => {
      const caller = request.user!;
      const user = await currentUser(caller.id);
      const body = request.body;
      const clean = (value: string | null | undefined) =>
        value === undefined ? undefined : value === null || value.trim() === '' ? null : value.trim();
      const changes: UserChanges = {
        firstName: clean(body.firstName),
        lastName: clean(body.lastName),
        company: clean(body.company),
        phone: clean(body.phone),
      };
      const changed = (
        [
          ['firstName', 'first_name'],
          ['lastName', 'last_name'],
          ['company', 'company'],
          ['phone', 'phone'],
        ] as const
      )
        .filter(([field, column]) => changes[field] !== undefined && changes[field] !== user[column])
        .map(([field]) => field);

      let newEmail: string | undefined;
      if (body.email !== undefined && normaliseEmail(body.email) !== user.email) {
        newEmail = normaliseEmail(body.email);
        // a stolen access token alone must not be enough to move the account to another mailbox
        if (body.currentPassword === undefined || body.currentPassword === '') {
          throw new HttpError(400, 'INVALID_PASSWORD', CURRENT_PASSWORD_REQUIRED);
        }
        if (!(await verifyPassword(user.password_hash, body.currentPassword))) {
          throw new HttpError(400, 'INVALID_PASSWORD', CURRENT_PASSWORD_INCORRECT);
        }
      }
      await updateUser(app.db, user.id, changes);
      if (newEmail !== undefined) {
        const holder = await findUserByEmail(app.db, newEmail);
        // the same token and answer for a taken address, so the answer does not tell it is taken;
        // its owner is told instead, and no confirmation link exists for it
        const confirmation = await prepareLinkMail(app.db, appUrl, user, 'email-change', newEmail);
        app.mailer.sendInBackground(
          holder ? emailChangeAttemptMessage(newEmail, `${appUrl}/reset-password`) : confirmation,
        );
      }
      const membership = await requireMembership(app.db, user.id);
      if (changed.length > 0 || newEmail !== undefined) {
        const parts = [...changed, ...(newEmail === undefined ? [] : [`email (pending confirmation)`])];
        await recordActivity(app.db, {
          organisationId: membership.organisationId,
          userId: user.id,
          username: user.email,
          action: 'update',
          description: `Profile updated: ${parts.join(', ')}`,
          details: { fields: parts },
          ipAddress: request.ip,
        });
      }
      const updated = await currentUser(user.id);
      const pending = await findPendingEmailChange(app.db, user.id);
      const message =
        newEmail === undefined
          ? 'Profile updated successfully'
          : `Profile updated successfully. We sent a confirmation link to ${newEmail}: your email address changes when you follow it.`;
      return { success: true as const, data: { message, user: profileView(updated, membership, pending) } };
    },
  );

  app.post(
    '/auth/change-password',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['Auth'],
        summary: 'Change the password',
        description:
          'Needs the current password. Signs out every session of the user, then answers a fresh token pair for this ' +
          'client (the refresh token also as the cookie).',
        security: bearer,
        body: changePasswordBody,
        response: {
          200: successEnvelope(messageSchema.extend(tokenPairSchema.shape)),
          '4xx': errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const caller = request.user!;
      const user = await currentUser(caller.id);
      if (!(await verifyPassword(user.password_hash, request.body.currentPassword))) {
        throw new HttpError(400, 'INVALID_PASSWORD', CURRENT_PASSWORD_INCORRECT);
      }
      // the schema checked the policy without the address; the server knows it
      const refused = newPasswordIssue(request.body.newPassword, user.email);
      if (refused !== undefined) throw new HttpError(400, 'VALIDATION_ERROR', refused);
      await updateUser(app.db, user.id, { passwordHash: await hashPassword(request.body.newPassword) });
      const revoked = await revokeUserSessions(app.db, user.id);
      app.endSessions({ users: [user.id] });
      const membership = await requireMembership(app.db, user.id);
      const issued = await issueTokens(app, request, user.id, membership);
      await recordActivity(app.db, {
        organisationId: membership.organisationId,
        userId: user.id,
        username: user.email,
        action: 'update',
        description: `Password changed; ${revoked} session(s) signed out`,
        ipAddress: request.ip,
      });
      // should it not be the owner's doing, the mail's link signs out everywhere and retires this password
      app.mailer.sendInBackground(await preparePasswordChangedMail(app.db, appUrl, user));
      setRefreshCookie(reply, appUrl, issued.refreshToken);
      reply.header('cache-control', 'no-store');
      return {
        success: true as const,
        data: {
          message: 'Password changed successfully. Your other sessions have been signed out.',
          token: issued.token,
          refreshToken: issued.refreshToken,
          expiresIn: ACCESS_TOKEN_EXPIRES_IN,
        },
      };
    },
  );
};

export default profileRoutes;
