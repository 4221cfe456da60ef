import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { API_KEY_PREFIX, isApiPath } from '@rfckit/standards';
import { ApiKeyVerifier, type VerifiedApiKey } from '../auth/api-keys.ts';
import { bearerToken } from './auth.ts';
import { HttpError } from './errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    apiKeys: ApiKeyVerifier;
    /** onRequest for tool routes: a signed-in user or a valid organisation API key, else 401. */
    authenticateToolCaller: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    /** The organisation API key that authenticated this request (tool routes only). */
    apiKey: VerifiedApiKey | null;
  }
  interface FastifyContextConfig {
    /** Set on the tool routes: the only routes an organisation API key may call. */
    apiKeyAccess?: boolean;
  }
}

export const API_KEY_REFUSED_MESSAGE = 'API keys work on tool routes only: sign in for this route';
export const API_KEY_INVALID_MESSAGE = 'Invalid or revoked API key';

function refusal(reply: FastifyReply, code: string, message: string): HttpError {
  reply.header('www-authenticate', 'Bearer realm="rfckit", error="invalid_token"');
  return new HttpError(401, code, message);
}

/**
 * Organisation API keys (`Authorization: Bearer rfk_…`). A key is checked only on routes marked
 * `apiKeyAccess` (the tool routes), at onRequest so that the rate limiter counts the call for the
 * key; on every other API route a key is a 401 before anything else happens, so a route added
 * later is closed to keys without a line of its own.
 */
export default fp(
  async (app) => {
    const verifier = new ApiKeyVerifier(app.db, {
      onTouchError: (error) => app.log.warn({ err: error }, 'could not record the use of an API key'),
      onForget: (id) => app.revocations.publish('api-key', [id]),
    });
    app.revocations.subscribe('api-key', (ids) => {
      for (const id of ids) verifier.drop(id);
    });
    app.decorate('apiKeys', verifier);
    app.decorateRequest('apiKey', null);
    app.addHook('onClose', () => verifier.settle());

    // callback style: the common case (no key) costs no promise
    app.addHook('onRequest', (request, reply, done) => {
      const header = request.headers.authorization;
      if (header === undefined || !header.includes(API_KEY_PREFIX)) {
        done();
        return;
      }
      const token = bearerToken(request);
      if (token === undefined || !token.startsWith(API_KEY_PREFIX)) {
        done();
        return;
      }
      if (request.routeOptions.config.apiKeyAccess !== true) {
        const route = request.routeOptions.url;
        // pages, assets and unknown paths answer as they would without the header
        if (route !== undefined && isApiPath(route)) {
          done(refusal(reply, 'API_KEY_NOT_ALLOWED', API_KEY_REFUSED_MESSAGE));
        } else {
          done();
        }
        return;
      }
      verifier.verify(token).then(
        (key) => {
          if (key === undefined) {
            done(refusal(reply, 'INVALID_API_KEY', API_KEY_INVALID_MESSAGE));
            return;
          }
          request.apiKey = key;
          done();
        },
        (error: unknown) => done(error as Error),
      );
    });

    app.decorate('authenticateToolCaller', async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.apiKey !== null) return;
      await app.authenticate(request, reply);
    });
  },
  { name: 'api-keys', dependencies: ['db', 'auth', 'revocations'] },
);
