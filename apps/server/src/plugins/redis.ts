import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';

declare module 'fastify' {
  interface FastifyInstance {
    /** The connection to REDIS_URL, or null when it is unset (everything then stays in process memory). */
    redis: Redis | null;
  }
}

export interface RedisOptions {
  redisUrl: string | undefined;
}

/** Connects before the server listens, so a wrong REDIS_URL stops the start instead of every request. */
export async function connectRedis(url: string, log: FastifyBaseLogger): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 5000,
    // fail fast rather than hold requests while Redis is away: the limiter then lets them through
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
  });
  let started = false;
  let reported = false;
  redis.on('error', (error: Error) => {
    // a failed first connection is thrown below; later, ioredis reconnects on its own: say so once per outage
    if (!started || reported) return;
    log.warn(
      { err: error },
      'Redis failed: requests are not rate-limited, and revocations reach other processes only through their 5 s caches, until it is back',
    );
    reported = true;
  });
  redis.on('ready', () => {
    if (reported) log.info('Redis is back');
    reported = false;
  });
  try {
    await redis.connect();
    started = true;
  } catch (error) {
    redis.disconnect();
    const where = URL.parse(url);
    throw new Error(
      `REDIS_URL: cannot connect to Redis at ${where?.hostname ?? '?'}:${where?.port || '6379'}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  return redis;
}

/** The shared Redis of REDIS_URL: rate-limit counters and the revocation channel. */
export default fp<RedisOptions>(
  async (app, options) => {
    const redis = options.redisUrl === undefined ? null : await connectRedis(options.redisUrl, app.log);
    app.decorate('redis', redis);
    if (redis !== null) {
      app.addHook('onClose', async () => {
        await redis.quit().catch(() => redis.disconnect());
      });
    }
  },
  { name: 'redis' },
);
