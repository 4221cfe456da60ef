import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { destination, type DestinationStream } from 'pino';
import type { Config } from './config.ts';
import apiKeys from './plugins/api-keys.ts';
import auth from './plugins/auth.ts';
import billing from './plugins/billing.ts';
import db from './plugins/db.ts';
import errors, { clientErrorHandler, sendError } from './plugins/errors.ts';
import geoGate from './plugins/geo-gate.ts';
import mail from './plugins/mail.ts';
import hstsPreload from './plugins/hsts-preload.ts';
import net from './plugins/net.ts';
import openapi from './plugins/openapi.ts';
import pathFilter, { collapseSlashes } from './plugins/path-filter.ts';
import rateLimit from './plugins/rate-limit.ts';
import redis from './plugins/redis.ts';
import revocations from './plugins/revocations.ts';
import securityHeaders, { applySecurityHeaders } from './plugins/security-headers.ts';
import { serializerCompiler } from './plugins/serialization.ts';
import shutdown from './plugins/shutdown.ts';
import { validatorCompiler } from './plugins/validation.ts';
import webStatic from './plugins/web-static.ts';
import routes from './routes/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
  }
}

export interface BuildAppOptions {
  /** Where JSON log lines go instead of stdout (tests read them from here). */
  logStream?: DestinationStream;
}

export const BODY_LIMIT = 1_048_576;

// a caller's id is kept for correlation only when it cannot smuggle anything into logs
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** One access line per request, written when it completes, instead of Fastify's two. */
class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      responseTime: reply.elapsedTime,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

function requestId(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * Builds the whole application (API, docs, web app) without listening, so tests can
 * `inject` into it. Migrations have run when the promise resolves.
 */
export async function buildApp(config: Config, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: {
        // request bodies are never logged; should a card form's body reach a log line anyway, its secrets do not
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'res.headers["set-cookie"]',
          '*.cardNumber',
          '*.cvv',
        ],
        censor: '[redacted]',
      },
      // stdout written asynchronously: under load, lines queued during a write go out in one
      // syscall instead of one blocking write per request; pino flushes what is queued on exit
      stream: options.logStream ?? destination({ dest: 1, sync: false }),
    },
    genReqId: requestId,
    requestIdHeader: false,
    logController: new AccessLog(),
    bodyLimit: BODY_LIMIT,
    trustProxy: config.trustProxy,
    // `//v1//health` is `/v1/health` for the router, the static files and the path filter alike
    rewriteUrl: (request) => collapseSlashes(request.url ?? '/'),
    // migrations on a remote PostgreSQL can take longer than avvio's 10 s default
    pluginTimeout: 60_000,
    // errors Fastify raises before routing (malformed URL) skip the hooks: give them the same headers and envelope
    frameworkErrors: (error, request, reply) => {
      applySecurityHeaders(request, reply);
      reply.header('x-request-id', request.id);
      sendError(error, request, reply);
    },
    clientErrorHandler,
    // plugins/shutdown.ts answers requests during close with our envelope and headers instead
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // JSON only: a text/plain body gets a 415 instead of reaching a schema as a string
  app.removeContentTypeParser('text/plain');
  app.decorate('config', config);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });

  await app.register(errors);
  await app.register(securityHeaders);
  await app.register(shutdown);
  // the protective shell, in this order, before any route: probes, then regions, then rates
  await app.register(pathFilter);
  await app.register(geoGate, {
    deniedCountries: config.deniedCountries,
    geoipDb: config.geoipDb,
    geoHeader: config.geoHeader,
    trustProxy: config.trustProxy,
  });
  await app.register(redis, { redisUrl: config.redisUrl });
  await app.register(revocations);
  await app.register(rateLimit, { scale: config.rateLimitScale });
  // before the routes: it collects them as they are added
  await app.register(openapi, { publicUrl: config.publicUrl });
  await app.register(db, { dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  await app.register(mail);
  await app.register(net);
  await app.register(hstsPreload);
  await app.register(auth);
  await app.register(apiKeys);
  await app.register(billing);

  await app.register(routes, { prefix: '/v1' });
  // the spec calls some routes under /api/v1: same handlers, kept out of the OpenAPI document
  await app.register(
    async (alias) => {
      alias.addHook('onRoute', (route) => {
        route.schema = { ...route.schema, hide: true };
      });
      await alias.register(routes);
    },
    { prefix: '/api/v1' },
  );

  await app.register(webStatic, {
    webDist: config.webDist,
    production: config.nodeEnv === 'production',
    deniedCountries: config.deniedCountries,
  });
  return app;
}
