import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { prepareUnlockMail, requireMembership } from '../../auth/accounts.ts';
import {
  FORGET_FAILURES_AFTER_MS,
  FREE_FAILURES,
  lockDelayMs,
  throttleKey,
} from '../../auth/login-throttle.ts';
import { verifyAgainstDummy, verifyPassword } from '../../auth/passwords.ts';
import { AccessTokenError, hashToken } from '../../auth/tokens.ts';
import { recordActivity } from '../../db/activities.ts';
import { clearFailures, countFailure, findLockedUntil, lockUntil } from '../../db/login-throttle.ts';
import { findPrimaryMembership } from '../../db/memberships.ts';
import { findSessionByTokenHash, markRotated, revokeFamily, type Session } from '../../db/sessions.ts';
import { findUserByEmail, findUserById } from '../../db/users.ts';
import { bearerToken } from '../../plugins/auth.ts';
import { errorEnvelopeSchema, HttpError, successEnvelope } from '../../plugins/errors.ts';
import { loginBody, normaliseEmail, refreshTokenBody, TOKEN_MAX } from '@rfckit/standards';
import { afterReply } from './after-reply.ts';
import { loginResponse, messageSchema, tokenPairSchema } from './schemas.ts';
import {
  ACCESS_TOKEN_EXPIRES_IN,
  clearRefreshCookie,
  issueTokens,
  readRefreshCookie,
  setRefreshCookie,
  userView,
} from './session.ts';

const INVALID_CREDENTIALS = 'Invalid email or password';
const EMAIL_NOT_VERIFIED =
  'Please verify your email address before signing in: follow the link in the message we sent you, or request a new one.';
const INVALID_REFRESH = 'Your session has expired or was signed out. Please sign in again.';

function signInPaused(seconds: number): string {
  const wait = seconds < 120 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;
  return (
    `Too many failed sign-in attempts for this address. Please wait ${wait} before trying again. ` +
    'If the address has an account, we emailed it a link to sign in again at once.'
  );
}

/** The origin a browser's refresh call must come from: PUBLIC_URL's, else the request's own. */
function expectedOrigin(request: FastifyRequest, publicUrl: string | undefined): string {
  if (publicUrl !== undefined) return new URL(publicUrl).origin;
  // through URL, so that a default port in Host ("example.org:443") compares equal
  return URL.parse(`${request.protocol}://${request.host}`)?.origin ?? 'null';
}

function originAllowed(request: FastifyRequest, publicUrl: string | undefined): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  const parsed = URL.parse(origin);
  // "null" (sandboxed frames, some redirects) parses to nothing usable and is refused
  return parsed !== null && parsed.origin !== 'null' && parsed.origin === expectedOrigin(request, publicUrl);
}

/** Sign-in, token refresh (rotation with reuse detection) and sign-out. */
const sessionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { appUrl, publicUrl } = app.config;

  function invalidRefresh(reply: FastifyReply): HttpError {
    clearRefreshCookie(reply, appUrl);
    return new HttpError(401, 'INVALID_REFRESH_TOKEN', INVALID_REFRESH);
  }

  /** A rotated or revoked token came back: someone holds a copy, so the whole sign-in ends. */
  async function handleReuse(request: FastifyRequest, session: Session): Promise<void> {
    const revoked = await revokeFamily(app.db, session.family_id);
    app.endSessions({ families: [session.family_id] });
    request.log.warn(
      { familyId: session.family_id, userId: session.user_id, revoked },
      'refresh token reused',
    );
    if (revoked === 0) return;
    const membership = await findPrimaryMembership(app.db, session.user_id);
    const user = await findUserById(app.db, session.user_id);
    if (membership && user) {
      await recordActivity(app.db, {
        organisationId: membership.organisationId,
        userId: user.id,
        username: user.email,
        action: 'logout',
        description: 'Signed out everywhere from this sign-in: an old refresh token was used again',
        ipAddress: request.ip,
      });
    }
  }

  app.post(
    '/auth/login',
    {
      schema: {
        tags: ['Auth'],
        summary: 'Sign in with email and password',
        description:
          'Answers the access token, a refresh token (also set as an HttpOnly cookie on /v1/auth) and the user. ' +
          'Unknown email and wrong password answer alike (401 INVALID_CREDENTIALS); an unverified email gets 403 EMAIL_NOT_VERIFIED. ' +
          'After 5 failed attempts for one address (known or not) each further failure makes it wait, from 30 s doubling up to ' +
          'an hour: 429 SIGN_IN_PAUSED with Retry-After, even for the right password. The owner of a known address is ' +
          'mailed a link that lifts the wait.',
        body: loginBody,
        response: { 200: loginResponse, '4xx': errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const email = normaliseEmail(request.body.email);
      // per address, known or not, so that the answer says nothing about whether it has an account
      const key = throttleKey(email);
      const lockedUntil = await findLockedUntil(app.db, key);
      if (lockedUntil !== undefined) {
        const seconds = Math.max(1, Math.ceil((Date.parse(lockedUntil) - Date.now()) / 1000));
        reply.header('retry-after', String(seconds));
        throw new HttpError(429, 'SIGN_IN_PAUSED', signInPaused(seconds));
      }
      const user = await findUserByEmail(app.db, email);
      const passwordOk = user
        ? await verifyPassword(user.password_hash, request.body.password)
        : await verifyAgainstDummy(request.body.password);
      if (!user || !passwordOk) {
        const now = Date.now();
        const failures = await countFailure(app.db, key, new Date(now - FORGET_FAILURES_AFTER_MS));
        const delay = lockDelayMs(failures);
        if (delay > 0) await lockUntil(app.db, key, new Date(now + delay));
        if (failures === FREE_FAILURES && user) {
          afterReply(app, reply, () => prepareUnlockMail(app.db, appUrl, user));
        }
        if (user) {
          const membership = await findPrimaryMembership(app.db, user.id);
          if (membership) {
            await recordActivity(app.db, {
              organisationId: membership.organisationId,
              userId: user.id,
              username: user.email,
              action: 'login',
              description: 'Failed sign-in: wrong password',
              ipAddress: request.ip,
            });
          }
        }
        throw new HttpError(401, 'INVALID_CREDENTIALS', INVALID_CREDENTIALS);
      }
      await clearFailures(app.db, key);
      const membership = await requireMembership(app.db, user.id);
      if (user.email_verified_at === null) {
        await recordActivity(app.db, {
          organisationId: membership.organisationId,
          userId: user.id,
          username: user.email,
          action: 'login',
          description: 'Sign-in refused: email address not verified',
          ipAddress: request.ip,
        });
        throw new HttpError(403, 'EMAIL_NOT_VERIFIED', EMAIL_NOT_VERIFIED);
      }
      const issued = await issueTokens(app, request, user.id, membership);
      await recordActivity(app.db, {
        organisationId: membership.organisationId,
        userId: user.id,
        username: user.email,
        action: 'login',
        description: 'Signed in',
        ipAddress: request.ip,
      });
      setRefreshCookie(reply, appUrl, issued.refreshToken);
      reply.header('cache-control', 'no-store');
      return {
        success: true as const,
        token: issued.token,
        refreshToken: issued.refreshToken,
        user: userView(user, membership),
      };
    },
  );

  app.post(
    '/auth/refresh',
    {
      schema: {
        tags: ['Auth'],
        summary: 'Exchange the refresh token for a new access token',
        description:
          'Takes the refresh token from the HttpOnly cookie (or `refreshToken` in the body), rotates it and answers a new ' +
          'access token. A token that was already rotated revokes every session of its sign-in. A request carrying an ' +
          'Origin header from another site gets 403.',
        body: refreshTokenBody,
        response: { 200: successEnvelope(tokenPairSchema), '4xx': errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      if (!originAllowed(request, publicUrl)) {
        throw new HttpError(403, 'ORIGIN_NOT_ALLOWED', 'Refresh requests must come from this site');
      }
      const fromBody = request.body?.refreshToken;
      const presented = fromBody ?? readRefreshCookie(request);
      if (presented === undefined || presented.length > TOKEN_MAX) throw invalidRefresh(reply);
      const session = await findSessionByTokenHash(app.db, hashToken(presented));
      if (!session) throw invalidRefresh(reply);
      if (session.rotated_at !== null || session.revoked_at !== null) {
        if (session.rotated_at !== null) await handleReuse(request, session);
        throw invalidRefresh(reply);
      }
      if (session.expires_at <= new Date().toISOString()) throw invalidRefresh(reply);
      if (!(await markRotated(app.db, session.id))) {
        // another request rotated it in the meantime: the same token was used twice
        await handleReuse(request, session);
        throw invalidRefresh(reply);
      }
      const membership = await findPrimaryMembership(app.db, session.user_id);
      if (!membership) throw invalidRefresh(reply);
      const issued = await issueTokens(app, request, session.user_id, membership, session.family_id);
      setRefreshCookie(reply, appUrl, issued.refreshToken);
      reply.header('cache-control', 'no-store');
      return {
        success: true as const,
        data: {
          token: issued.token,
          ...(fromBody === undefined ? {} : { refreshToken: issued.refreshToken }),
          expiresIn: ACCESS_TOKEN_EXPIRES_IN,
        },
      };
    },
  );

  /** The session a logout names: by refresh token, else by the (possibly expired) access token's sid. */
  async function sessionToEnd(
    request: FastifyRequest,
    bodyToken: string | undefined,
  ): Promise<Session | undefined> {
    const refresh = bodyToken ?? readRefreshCookie(request);
    if (refresh !== undefined && refresh.length <= TOKEN_MAX) {
      const session = await findSessionByTokenHash(app.db, hashToken(refresh));
      if (session) return session;
    }
    const access = bearerToken(request);
    if (access === undefined) return undefined;
    try {
      const claims = await app.accessTokens.verify(access, { ignoreExpiry: true });
      return await app.db
        .selectFrom('session')
        .selectAll()
        .where('id', '=', claims.sessionId)
        .executeTakeFirst();
    } catch (error) {
      if (error instanceof AccessTokenError) return undefined;
      throw error;
    }
  }

  app.post(
    '/auth/logout',
    {
      schema: {
        tags: ['Auth'],
        summary: 'Sign out',
        description:
          'Revokes the sign-in named by the refresh cookie (or `refreshToken` in the body, or the access token, even an ' +
          'expired one) and clears the cookie. Always answers 200, so the client can clear its own state.',
        body: z.unknown().optional().describe('Optional `{ refreshToken }` for clients without cookies'),
        response: { 200: successEnvelope(messageSchema), '4xx': errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const bodyToken =
        typeof body === 'object' &&
        body !== null &&
        typeof (body as { refreshToken?: unknown }).refreshToken === 'string'
          ? (body as { refreshToken: string }).refreshToken
          : undefined;
      const session = await sessionToEnd(request, bodyToken);
      if (session) {
        const revoked = await revokeFamily(app.db, session.family_id);
        app.endSessions({ families: [session.family_id] });
        const membership = revoked > 0 ? await findPrimaryMembership(app.db, session.user_id) : undefined;
        const user = membership ? await findUserById(app.db, session.user_id) : undefined;
        if (membership && user) {
          await recordActivity(app.db, {
            organisationId: membership.organisationId,
            userId: user.id,
            username: user.email,
            action: 'logout',
            description: 'Signed out',
            ipAddress: request.ip,
          });
        }
      }
      clearRefreshCookie(reply, appUrl);
      reply.header('cache-control', 'no-store');
      return { success: true as const, data: { message: 'Signed out' } };
    },
  );
};

export default sessionRoutes;
