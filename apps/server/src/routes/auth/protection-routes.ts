import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { prepareLinkMail } from '../../auth/accounts.ts';
import { throttleKey } from '../../auth/login-throttle.ts';
import { hashPassword } from '../../auth/passwords.ts';
import { hashToken, randomToken } from '../../auth/tokens.ts';
import { recordActivity } from '../../db/activities.ts';
import { clearFailures } from '../../db/login-throttle.ts';
import { findPrimaryMembership } from '../../db/memberships.ts';
import { consumeSecurityToken, retireSecurityTokens } from '../../db/security-tokens.ts';
import { revokeUserSessions } from '../../db/sessions.ts';
import { findUserByEmail, findUserById, updateUser } from '../../db/users.ts';
import { errorEnvelopeSchema, HttpError, successEnvelope } from '../../plugins/errors.ts';
import { verifyEmailQuery } from '@rfckit/standards';
import { messageSchema } from './schemas.ts';

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const INVALID_UNLOCK_TOKEN = 'This unlock link is invalid, already used or expired.';
const INVALID_UNDO_TOKEN = 'This link is invalid, already used or expired.';
export const UNLOCKED_MESSAGE = 'Sign-in is unlocked. You can sign in again now.';
export const UNDONE_MESSAGE =
  'Every session of your account has been signed out. We sent a link to choose a new password to your email address.';

function wantsPage(accept: string | undefined): boolean {
  return accept !== undefined && accept.includes('text/html') && !accept.includes('application/json');
}

/** The links of the account-protection mail: unlock after failed sign-ins, undo an email or password change. */
const protectionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { appUrl } = app.config;

  async function audit(userId: string, username: string, description: string, ip: string): Promise<void> {
    const membership = await findPrimaryMembership(app.db, userId);
    if (!membership) return;
    await recordActivity(app.db, {
      organisationId: membership.organisationId,
      userId,
      username,
      action: 'update',
      description,
      ipAddress: ip,
    });
  }

  /**
   * One mailed single-use link: the token is consumed, `act` does the work, and a browser
   * (Accept: text/html) is sent to the sign-in page with `done` or `failed` in the query.
   */
  function linkRoute(route: {
    path: string;
    purpose: 'unlock' | 'undo-change';
    summary: string;
    description: string;
    invalidMessage: string;
    done: string;
    failed: string;
    act: (
      user: NonNullable<Awaited<ReturnType<typeof findUserById>>>,
      used: NonNullable<Awaited<ReturnType<typeof consumeSecurityToken>>>,
      ip: string,
    ) => Promise<string>;
  }): void {
    app.get(
      route.path,
      {
        schema: {
          tags: ['Auth'],
          summary: route.summary,
          description:
            `${route.description} A browser (Accept: text/html) is redirected to the sign-in page with ` +
            `\`?${route.done}\` or \`?${route.failed}\`.`,
          querystring: verifyEmailQuery,
          response: {
            200: successEnvelope(messageSchema),
            303: z.null().describe('Redirect to the sign-in page, for browsers'),
            '4xx': errorEnvelopeSchema,
          },
        },
      },
      async (request, reply) => {
        const page = wantsPage(request.headers.accept);
        const token = request.query.token;
        const used = TOKEN_SHAPE.test(token)
          ? await consumeSecurityToken(app.db, hashToken(token), route.purpose)
          : undefined;
        const user = used ? await findUserById(app.db, used.user_id) : undefined;
        if (!used || !user) {
          if (page) return reply.redirect(`${appUrl}/login?${route.failed}`, 303);
          throw new HttpError(400, 'INVALID_TOKEN', route.invalidMessage);
        }
        const message = await route.act(user, used, request.ip);
        if (page) return reply.redirect(`${appUrl}/login?${route.done}`, 303);
        return { success: true as const, data: { message } };
      },
    );
  }

  linkRoute({
    path: '/auth/unlock',
    purpose: 'unlock',
    summary: 'Lift the wait after failed sign-ins',
    description:
      'Follows the link of the message sent when sign-in to an account was paused after repeated failures. ' +
      'Single use, valid 24 h.',
    invalidMessage: INVALID_UNLOCK_TOKEN,
    done: 'unlocked=1',
    failed: 'unlock=failed',
    act: async (user, _used, ip) => {
      await clearFailures(app.db, throttleKey(user.email));
      await retireSecurityTokens(app.db, user.id, 'unlock');
      await audit(user.id, user.email, 'Sign-in unlocked with an emailed link', ip);
      return UNLOCKED_MESSAGE;
    },
  });

  linkRoute({
    path: '/auth/undo-change',
    purpose: 'undo-change',
    summary: 'Undo an email or password change',
    description:
      'Follows the link mailed to the old address after an email change (or to the address after a password ' +
      'change): puts the old address back, cancels pending email changes, signs out every session, retires the ' +
      'password and mails a link to choose a new one. Single use, valid 7 days.',
    invalidMessage: INVALID_UNDO_TOKEN,
    done: 'undone=1',
    failed: 'undo=failed',
    act: async (user, used, ip) => {
      let email = user.email;
      const restore = used.restore_email;
      if (restore !== null && restore !== user.email) {
        const holder = await findUserByEmail(app.db, restore);
        // an address someone else has taken since cannot come back; the rest of the undo still helps
        if (!holder) email = restore;
      }
      // whoever made the change may know the password: it stops working, and the mailbox picks a new one
      await updateUser(app.db, user.id, {
        ...(email === user.email ? {} : { email, emailVerifiedAt: new Date().toISOString() }),
        passwordHash: await hashPassword(randomToken()),
      });
      await app.db
        .updateTable('email_token')
        .set({ used_at: new Date().toISOString() })
        .where('user_id', '=', user.id)
        .where('used_at', 'is', null)
        .execute();
      const revoked = await revokeUserSessions(app.db, user.id);
      app.endSessions({ users: [user.id] });
      await audit(
        user.id,
        email,
        email === user.email
          ? `Change undone with an emailed link; ${revoked} session(s) signed out`
          : `Email address changed back from ${user.email} to ${email} with an emailed link; ${revoked} session(s) signed out`,
        ip,
      );
      app.mailer.sendInBackground(await prepareLinkMail(app.db, appUrl, { id: user.id, email }, 'reset'));
      return UNDONE_MESSAGE;
    },
  });
};

export default protectionRoutes;
