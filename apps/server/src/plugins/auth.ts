import cookie from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  AccessTokenError,
  type AccessTokenFailure,
  type AccessTokens,
  createAccessTokens,
} from '../auth/tokens.ts';
import type { Role } from '../db/schema.ts';
import { HttpError } from './errors.ts';

/** The signed-in caller, from the access token alone (no database lookup). */
export interface AuthUser {
  id: string;
  organisationId: string;
  role: Role;
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    accessTokens: AccessTokens;
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
 * only, so authenticated calls cost about as much as anonymous ones; revocation takes effect
 * when the 15-minute token expires and the refresh fails.
 */
export default fp(
  async (app) => {
    // cookies are parsed on demand by the auth routes, not on every request
    if (!app.hasDecorator('parseCookie')) await app.register(cookie, { hook: false });

    const tokens = await createAccessTokens(app.config.jwtSecret);
    app.decorate('accessTokens', tokens);
    app.decorateRequest('user', null);

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
      tokens.verify(token).then(
        (claims) => {
          request.user = {
            id: claims.userId,
            organisationId: claims.organisationId,
            role: claims.role,
            sessionId: claims.sessionId,
          };
          done();
        },
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
  { name: 'auth' },
);
