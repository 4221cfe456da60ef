import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RevokedKind } from '../src/plugins/revocations.ts';
import { accountClient } from './helpers/accounts.ts';
import { buildTestApp } from './helpers/app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { redisAvailable, useRedis } from './helpers/redis.ts';

const DNSKEY = 'example.com. 3600 IN DNSKEY 257 3 15 l02Woi0iS8Aa25FQkUd9RMzZHJpBoRQwAQEX1SxZJA4=';

/** Two server processes on one database and one Redis: a revocation in one reaches the other's cache. */
if (redisAvailable) {
  describeEachDatabase('revocations across processes through Redis', (database) => {
    const redis = useRedis();
    let first: FastifyInstance;
    let second: FastifyInstance;
    let client: ReturnType<typeof accountClient>;

    beforeAll(async () => {
      const env = { ...database.env(), RATE_LIMIT_SCALE: '10000', REDIS_URL: redis.url() };
      first = await buildTestApp(env);
      second = await buildTestApp(env);
      client = accountClient(first, () => database.env().DATA_DIR ?? '');
    });
    afterAll(async () => {
      await Promise.all([first.close(), second.close()]);
    });

    /** Resolves when `app` has received a revocation of `kind` naming `id`. */
    function received(app: FastifyInstance, kind: RevokedKind, id: string): Promise<void> {
      return new Promise((resolve) => {
        app.revocations.subscribe(kind, (ids) => {
          if (ids.includes(id)) resolve();
        });
      });
    }

    it("ends a sign-in in the other process's cache as soon as the message arrives", async () => {
      const session = await client.signUp('two-processes@example.org');
      const profile = () =>
        second.inject({ url: '/v1/auth/profile', headers: { authorization: `Bearer ${session.token}` } });
      // the second process has looked and holds the session as live for 5 s
      expect((await profile()).statusCode).toBe(200);
      const family = await first.db
        .selectFrom('session')
        .select('family_id')
        .where('user_id', '=', session.user.id)
        .executeTakeFirstOrThrow();
      const arrived = received(second, 'session-family', family.family_id);
      await client.post('/v1/auth/logout', undefined, { authorization: `Bearer ${session.token}` });
      await arrived;
      expect((await profile()).statusCode).toBe(401);
    });

    it('ends a revoked API key in the other process as soon as the message arrives', async () => {
      const session = await client.signUp('two-processes-keys@example.org');
      const created = await first.inject({
        method: 'POST',
        url: '/v1/organisation/api-keys',
        headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'CI' }),
      });
      expect(created.statusCode, created.body).toBe(201);
      const { key, apiKey } = created.json().data as { key: string; apiKey: { id: string } };
      const validate = () =>
        second.inject({
          method: 'POST',
          url: '/v1/dnskey/validate',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          payload: JSON.stringify({ record: DNSKEY }),
        });
      expect((await validate()).statusCode).toBe(200);
      const arrived = received(second, 'api-key', apiKey.id);
      const revoked = await first.inject({
        method: 'DELETE',
        url: `/v1/organisation/api-keys/${apiKey.id}`,
        headers: { authorization: `Bearer ${session.token}` },
      });
      expect(revoked.statusCode).toBe(200);
      await arrived;
      expect((await validate()).statusCode).toBe(401);
    });
  });
} else {
  it.skip('revocations across processes through Redis (redis-server is not installed)', () => {});
}
