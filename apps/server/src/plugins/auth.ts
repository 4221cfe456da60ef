import cookie from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  AccessTokenError,
  type AccessTokenFailure,
  type AccessTokens,
  createAccessTokens,
} from '../auth/tokens.ts';
import { SessionChecker } from '../auth/session-check.ts';
import type { Role } from '../db/schema.ts';
import { HttpError } from './errors.ts';

/** The signed-in caller: from a valid access token whose sign-in is still on. */
export interface AuthUser {
  id: string;
  organisationId: string;
  role: Role;
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    accessTokens: AccessTokens;
    /** Whether the sign-in behind an access token still exists (cached 5 s per session). */
    sessionChecker: SessionChecker;
    /** After sessions were revoked in the database: every process stops accepting their access tokens. */
    endSessions: (target: { families?: readonly string[]; users?: readonly string[] }) => void;
    /** preHandler: requires `Authorization: Bearer <access token>` and sets `request.user`. */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    /** Set when the request carries a valid access token, whether or not the route requires one. */
    user: AuthUser | null;
    /** Why a presented access token was refused. */
    authFailure: AccessTokenFailure | null;
  }
}

const BEARER = /^Bearer[ \t]+([A-Za-z0-9._~+/-]+=*)[ \t]*$/i;

/** The bearer token of a request, or undefined. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  return BEARER.exec(header)?.[1];
}

/**
 * Access-token authentication and cookie parsing. Verification is a signature and claims check
 * plus a look at the session the token names (cached 5 s per session, dropped at once on a
 * revocation message), so sign-out, a password change or reset, refresh-token reuse and the
 * user's deletion end access within seconds rather than when the 15-minute token expires.
 */
export default fp(
  async (app) => {
    // cookies are parsed on demand by the auth routes, not on every request
    if (!app.hasDecorator('parseCookie')) await app.register(cookie, { hook: false });

    const tokens = await createAccessTokens(app.config.jwtSecret);
    app.decorate('accessTokens', tokens);
    app.decorateRequest('user', null);
    const sessions = new SessionChecker(app.db);
    app.decorate('sessionChecker', sessions);
    app.revocations.subscribe('session-family', (families) => sessions.drop({ families }));
    app.revocations.subscribe('user', (users) => sessions.drop({ users }));
    app.decorate('endSessions', (target: { families?: readonly string[]; users?: readonly string[] }) => {
      app.revocations.publish('session-family', target.families ?? []);
      app.revocations.publish('user', target.users ?? []);
    });

    app.decorateRequest('authFailure', null);

    // Verified at onRequest so that later hooks (the rate limiter's key) know the user. A request
    // without a bearer token pays one header check; a bad token fails only where auth is required.
    app.addHook('onRequest', (request, _reply, done) => {
      const token = bearerToken(request);
      // callback style: the common case (no token) costs no promise
      if (token === undefined) {
        done();
        return;
      }
      tokens
        .verify(token)
        .then(async (claims) => {
          if (!(await sessions.isLive(claims.sessionId, claims.userId))) {
            request.authFailure = 'invalid';
            return;
          }
          request.user = {
            id: claims.userId,
            organisationId: claims.organisationId,
            role: claims.role,
            sessionId: claims.sessionId,
          };
        })
        .then(
          () => done(),
          (error: unknown) => {
            if (error instanceof AccessTokenError) {
              request.authFailure = error.reason;
              done();
            } else {
              done(error as Error);
            }
          },
        );
    });

    app.decorate('authenticate', async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.user !== null) return;
      if (request.authFailure === 'expired') {
        reply.header(
          'www-authenticate',
          'Bearer realm="rfckit", error="invalid_token", error_description="expired"',
        );
        throw new HttpError(401, 'TOKEN_EXPIRED', 'Access token expired');
      }
      reply.header(
        'www-authenticate',
        request.authFailure === null
          ? 'Bearer realm="rfckit"'
          : 'Bearer realm="rfckit", error="invalid_token"',
      );
      throw new HttpError(401, 'UNAUTHORIZED', 'Authentication required');
    });
  },
  { name: 'auth', dependencies: ['db', 'revocations'] },
);
