import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createAccount, emailTaken, prepareEmailChangedMail, prepareLinkMail } from '../../auth/accounts.ts';
import { throttleKey } from '../../auth/login-throttle.ts';
import { hashPassword } from '../../auth/passwords.ts';
import { hashToken } from '../../auth/tokens.ts';
import { recordActivity } from '../../db/activities.ts';
import { consumeEmailToken } from '../../db/email-tokens.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { findPrimaryMembership } from '../../db/memberships.ts';
import { revokeUserSessions } from '../../db/sessions.ts';
import { clearFailures } from '../../db/login-throttle.ts';
import { findUserByEmail, findUserById, updateUser } from '../../db/users.ts';
import { registrationAttemptMessage } from '../../mail/templates.ts';
import { errorEnvelopeSchema, HttpError, successEnvelope } from '../../plugins/errors.ts';
import {
  ACCOUNT_MESSAGES,
  emailOnlyBody,
  newPasswordIssue,
  normaliseEmail,
  registerBody,
  resetPasswordBody,
  verifyEmailQuery,
} from '@rfckit/standards';
import { afterReply } from './after-reply.ts';
import { messageSchema } from './schemas.ts';

const INVALID_VERIFY_TOKEN =
  'This verification link is invalid, already used or expired. Request a new one from the sign-in page.';
const INVALID_RESET_TOKEN =
  'This password reset link is invalid, already used or expired. Please request a new one.';
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** Whether a browser navigated here (clicked the mail link) rather than a script calling the API. */
function wantsPage(accept: string | undefined): boolean {
  return accept !== undefined && accept.includes('text/html') && !accept.includes('application/json');
}

/** Registration, email verification and password reset: the routes a signed-out visitor uses. */
const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const { appUrl } = app.config;

  async function audit(userId: string, description: string, ip: string): Promise<void> {
    const membership = await findPrimaryMembership(app.db, userId);
    const user = await findUserById(app.db, userId);
    if (!membership || !user) return;
    await recordActivity(app.db, {
      organisationId: membership.organisationId,
      userId,
      username: user.email,
      action: 'update',
      description,
      ipAddress: ip,
    });
  }

  app.post(
    '/auth/register',
    {
      schema: {
        tags: ['Auth'],
        summary: 'Create an account',
        description:
          'Creates the user and their organisation (the user is its admin) and mails a verification link (valid 24 h). ' +
          'Sign-in needs the verified address. An address that already has an account gets the same answer, and its ' +
          'owner a message saying someone tried to register with it: the answer never tells whether an address is taken.',
        body: registerBody,
        response: {
          201: successEnvelope(messageSchema.extend({ user: z.object({ email: z.string() }) })),
          '4xx': errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const email = normaliseEmail(body.email);
      const clean = (value: string | null | undefined) => (value?.trim() ? value.trim() : null);
      // hashed for a taken address too: the answer costs the same either way
      const passwordHash = await hashPassword(body.password);
      afterReply(app, reply, async () => {
        const existing = await findUserByEmail(app.db, email);
        if (existing) return registrationAttemptMessage(existing.email, `${appUrl}/reset-password`);
        try {
          const { user } = await createAccount(app.db, {
            email,
            password: body.password,
            passwordHash,
            firstName: clean(body.firstName),
            lastName: clean(body.lastName),
            company: clean(body.company),
            ipAddress: request.ip,
            via: 'registration',
          });
          return await prepareLinkMail(app.db, appUrl, user, 'verify');
        } catch (error) {
          // registered by a concurrent request meanwhile: its owner hears of this one
          if (error instanceof HttpError && error.code === 'EMAIL_TAKEN') {
            return registrationAttemptMessage(email, `${appUrl}/reset-password`);
          }
          throw error;
        }
      });
      reply.code(201);
      return {
        success: true as const,
        data: { message: ACCOUNT_MESSAGES.registered, user: { email } },
      };
    },
  );

  app.get(
    '/auth/verify-email',
    {
      schema: {
        tags: ['Auth'],
        summary: 'Confirm an email address',
        description:
          'Follows the link of a verification or email-change message. Single use. A browser (Accept: text/html) is ' +
          'redirected to the sign-in page with `?verified=1` or `?verification=failed`.',
        querystring: verifyEmailQuery,
        response: {
          200: successEnvelope(messageSchema.extend({ email: z.string() })),
          303: z.null().describe('Redirect to the sign-in page, for browsers'),
          '4xx': errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const page = wantsPage(request.headers.accept);
      const token = request.query.token;
      const used = TOKEN_SHAPE.test(token)
        ? await consumeEmailToken(app.db, hashToken(token), ['verify', 'email-change'])
        : undefined;
      if (!used) {
        if (page) return reply.redirect(`${appUrl}/login?verification=failed`, 303);
        throw new HttpError(400, 'INVALID_TOKEN', INVALID_VERIFY_TOKEN);
      }
      const user = await findUserById(app.db, used.user_id);
      if (!user) throw new HttpError(400, 'INVALID_TOKEN', INVALID_VERIFY_TOKEN);
      const now = new Date().toISOString();
      let email = user.email;
      if (used.kind === 'email-change' && used.new_email !== null) {
        const holder = await findUserByEmail(app.db, used.new_email);
        if (holder && holder.id !== user.id) {
          if (page) return reply.redirect(`${appUrl}/login?verification=failed`, 303);
          throw emailTaken();
        }
        try {
          await updateUser(app.db, user.id, { email: used.new_email, emailVerifiedAt: now });
        } catch (error) {
          if (isUniqueViolation(error)) throw emailTaken();
          throw error;
        }
        email = used.new_email;
        await audit(user.id, `Email address changed from ${user.email} to ${email}`, request.ip);
        // the old address hears of it, with a link that puts it back should this not be its owner's doing
        app.mailer.sendInBackground(
          await prepareEmailChangedMail(app.db, appUrl, user.id, user.email, used.new_email),
        );
      } else {
        if (user.email_verified_at === null) await updateUser(app.db, user.id, { emailVerifiedAt: now });
        await audit(user.id, 'Email address verified', request.ip);
      }
      if (page) return reply.redirect(`${appUrl}/login?verified=1`, 303);
      return {
        success: true as const,
        data: { message: 'Email address verified successfully. You can now sign in.', email },
      };
    },
  );

  app.post(
    '/auth/resend-verification',
    {
      schema: {
        tags: ['Auth'],
        summary: 'Send a new verification link',
        description: 'Answers the same whether or not the account exists or is already verified.',
        body: emailOnlyBody,
        response: { 200: successEnvelope(messageSchema), '4xx': errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const email = normaliseEmail(request.body.email);
      afterReply(app, reply, async () => {
        const user = await findUserByEmail(app.db, email);
        if (!user || user.email_verified_at !== null) return undefined;
        return prepareLinkMail(app.db, appUrl, user, 'verify');
      });
      return { success: true as const, data: { message: ACCOUNT_MESSAGES.verificationResent } };
    },
  );

  app.post(
    '/auth/request-password-reset',
    {
      schema: {
        tags: ['Auth'],
        summary: 'Mail a password reset link',
        description:
          'Answers the same, in the same time, whether or not the account exists: the lookup and the mail happen ' +
          'after the answer has gone out. The link is valid 1 hour.',
        body: emailOnlyBody,
        response: { 200: successEnvelope(messageSchema), '4xx': errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const email = normaliseEmail(request.body.email);
      afterReply(app, reply, async () => {
        const user = await findUserByEmail(app.db, email);
        return user ? prepareLinkMail(app.db, appUrl, user, 'reset') : undefined;
      });
      return { success: true as const, data: { message: ACCOUNT_MESSAGES.resetRequested } };
    },
  );

  app.post(
    '/auth/reset-password',
    {
      schema: {
        tags: ['Auth'],
        summary: 'Set a new password with a reset link',
        description:
          'Uses up the token, sets the password, confirms the email address and signs out every session.',
        body: resetPasswordBody,
        response: { 200: successEnvelope(messageSchema), '4xx': errorEnvelopeSchema },
      },
    },
    async (request) => {
      const { token, password } = request.body;
      // the address is checked against the password before the link is used up, so a refusal keeps it
      const pending = TOKEN_SHAPE.test(token)
        ? await app.db
            .selectFrom('email_token')
            .innerJoin('user', 'user.id', 'email_token.user_id')
            .select('user.email')
            .where('email_token.token_hash', '=', hashToken(token))
            .where('email_token.kind', '=', 'reset')
            .executeTakeFirst()
        : undefined;
      const refused = pending === undefined ? undefined : newPasswordIssue(password, pending.email);
      if (refused !== undefined) throw new HttpError(400, 'VALIDATION_ERROR', refused);
      const used = TOKEN_SHAPE.test(token)
        ? await consumeEmailToken(app.db, hashToken(token), ['reset'])
        : undefined;
      const user = used ? await findUserById(app.db, used.user_id) : undefined;
      if (!used || !user) throw new HttpError(400, 'INVALID_TOKEN', INVALID_RESET_TOKEN);
      const passwordHash = await hashPassword(password);
      await updateUser(app.db, user.id, {
        passwordHash,
        // following the mailed link proves the address
        ...(user.email_verified_at === null ? { emailVerifiedAt: new Date().toISOString() } : {}),
      });
      const revoked = await revokeUserSessions(app.db, user.id);
      app.endSessions({ users: [user.id] });
      // a new password from the owner's mailbox: failed guesses at the old one no longer count
      await clearFailures(app.db, throttleKey(user.email));
      await audit(
        user.id,
        `Password reset with an emailed link; ${revoked} session(s) signed out`,
        request.ip,
      );
      return {
        success: true as const,
        data: { message: 'Password reset successfully. You can now sign in with your new password.' },
      };
    },
  );
};

export default accountRoutes;
