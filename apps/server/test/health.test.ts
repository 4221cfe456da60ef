import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAppMeta } from '../src/db/app-meta.ts';
import { buildTestApp } from './helpers/app.ts';
import { describeEachDatabase } from './helpers/databases.ts';

describeEachDatabase('health and migrations', (database) => {
  describe('a running app', () => {
    let app: FastifyInstance;
    beforeAll(async () => {
      app = await buildTestApp(database.env());
    });
    afterAll(async () => {
      await app.close();
    });

    it('reports the database as reachable', async () => {
      const response = await app.inject({ url: '/v1/health' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const body = response.json();
      expect(body).toMatchObject({
        success: true,
        data: { status: 'ok', database: { dialect: database.dialect, reachable: true } },
      });
      expect(body.data.database.latencyMs).toBeGreaterThanOrEqual(0);
      expect(body.data.version).toMatch(/^\d+\.\d+\.\d+/);
      expect(Number.isInteger(body.data.uptimeSeconds)).toBe(true);
    });

    it('has applied the migrations and recorded installed_at', async () => {
      const applied = await app.db
        .selectFrom('kysely_migration' as never)
        .select('name' as never)
        .execute();
      expect(applied.map((row) => (row as { name: string }).name)).toEqual([
        '0001-app-meta',
        '0002-accounts',
        '0003-organisation-admin',
        '0004-account-protection',
      ]);
      const installedAt = await getAppMeta(app.db, 'installed_at');
      expect(new Date(installedAt ?? '').toISOString()).toBe(installedAt);
    });
  });

  it('keeps installed_at from the first start on later starts', async () => {
    const first = await buildTestApp(database.env());
    const installedAt = await getAppMeta(first.db, 'installed_at');
    await first.close();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await buildTestApp(database.env());
    try {
      expect(await getAppMeta(second.db, 'installed_at')).toBe(installedAt);
      const rows = await second.db
        .selectFrom('app_meta')
        .selectAll()
        .where('key', '=', 'installed_at')
        .execute();
      expect(rows).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('answers 503 DATABASE_UNREACHABLE when the database is gone', async () => {
    const app = await buildTestApp(database.env());
    try {
      await app.db.destroy();
      const response = await app.inject({ url: '/v1/health' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        success: false,
        error: 'Database is unreachable',
        code: 'DATABASE_UNREACHABLE',
      });
    } finally {
      await app.close();
    }
  });
});
