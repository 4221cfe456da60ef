import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelopeSchema, HttpError, successEnvelope } from '../plugins/errors.ts';
import { version } from '../version.ts';

const DB_TIMEOUT_MS = 2000;

const healthSchema = successEnvelope(
  z.object({
    status: z.literal('ok'),
    database: z.object({
      dialect: z.enum(['sqlite', 'postgres']),
      reachable: z.literal(true),
      latencyMs: z.number().describe('Round trip of `select 1`, in milliseconds'),
    }),
    version: z.string(),
    uptimeSeconds: z.number().int(),
  }),
);

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Liveness and database reachability, for load balancers and the status badge. */
const health: FastifyPluginAsyncZod = async (app) => {
  const startedAt = performance.now();

  app.get(
    '/health',
    {
      schema: {
        tags: ['System'],
        summary: 'Server and database health',
        response: { 200: healthSchema, 503: errorEnvelopeSchema },
      },
    },
    async (_request, reply) => {
      const pingStarted = performance.now();
      try {
        await withTimeout(sql`select 1`.execute(app.db), DB_TIMEOUT_MS);
      } catch (error) {
        throw new HttpError(503, 'DATABASE_UNREACHABLE', 'Database is unreachable', { cause: error });
      }
      const latencyMs = Math.round((performance.now() - pingStarted) * 100) / 100;
      reply.header('cache-control', 'no-store');
      return {
        success: true as const,
        data: {
          status: 'ok' as const,
          database: { dialect: app.dbDialect, reachable: true as const, latencyMs },
          version,
          uptimeSeconds: Math.floor((performance.now() - startedAt) / 1000),
        },
      };
    },
  );
};

export default health;
