import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './helpers/app.ts';
import { toolCallerHeaders } from './helpers/accounts.ts';
import { describePostgres } from './helpers/databases.ts';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy.ts';

/** What every answer to a request the database could not serve looks like. */
function expectDatabaseUnavailable(response: LightMyRequestResponse): void {
  expect(response.statusCode, response.body).toBe(503);
  expect(response.json()).toEqual({
    success: false,
    error: 'The database is unavailable. Please try again shortly.',
    code: 'DATABASE_UNAVAILABLE',
  });
  expect(response.headers['retry-after']).toBe('2');
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  // the security headers of every response
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['x-frame-options']).toBe('DENY');
  expect(response.headers['content-security-policy']).toContain("default-src 'self'");
}

async function waitFor<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const renamed = (name: string) => ({
  method: 'PUT' as const,
  url: '/v1/organisation',
  payload: { name },
});

describePostgres('lost PostgreSQL connections', (database) => {
  let app: FastifyInstance;
  let headers: { authorization: string };
  let admin: pg.Client;

  beforeAll(async () => {
    app = await buildTestApp(database.env());
    headers = await toolCallerHeaders(app);
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await app.close();
  });

  /** The backends of the apps in this suite's database (every one but this test's own), matching `where`. */
  async function appBackends(where = 'true'): Promise<number[]> {
    const { rows } = await admin.query<{ pid: number }>(
      `select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid() and (${where})`,
      [database.name],
    );
    return rows.map((row) => row.pid);
  }

  /** Holds an exclusive lock on the organisation table so that a request reading it waits, holding its client. */
  async function blockOrganisationTable(): Promise<() => Promise<void>> {
    await admin.query('begin');
    await admin.query('lock table organisation in access exclusive mode');
    return async () => {
      await admin.query('rollback');
    };
  }

  it('answers 503 when the backend of a request is terminated mid-query, and serves the next one', async () => {
    const unblock = await blockOrganisationTable();
    try {
      const pending = app.inject({ url: '/v1/organisation', headers });
      const [pid] = await waitFor(async () => {
        const waiting = await appBackends("wait_event_type = 'Lock'");
        return waiting.length > 0 ? waiting : undefined;
      }, 'the request to wait for the lock');
      await admin.query('select pg_terminate_backend($1)', [pid]);
      expectDatabaseUnavailable(await pending);
    } finally {
      await unblock();
    }
    const again = await app.inject({ url: '/v1/organisation', headers });
    expect(again.statusCode, again.body).toBe(200);
    expect((await app.inject({ url: '/v1/health' })).statusCode).toBe(200);
  });

  it('survives the termination of a checked-out connection between two queries', async () => {
    await app.db.connection().execute(async (connection) => {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(connection);
      const pid = rows[0]?.pid;
      await admin.query('select pg_terminate_backend($1)', [pid]);
      await waitFor(
        async () => ((await appBackends(`pid = ${Number(pid)}`)).length === 0 ? true : undefined),
        'the backend to end',
      );
      // the client hears of it while no query of its own runs: an 'error' event, not a rejection
      await new Promise((resolve) => setTimeout(resolve, 200));
      await expect(sql`select 1`.execute(connection)).rejects.toThrow();
    });
    const response = await app.inject({ url: '/v1/organisation', headers });
    expect(response.statusCode, response.body).toBe(200);
  });

  describe('an outage between the app and the database', () => {
    let proxy: TcpProxy;
    let relayed: FastifyInstance;
    let relayedHeaders: { authorization: string };

    beforeAll(async () => {
      const target = new URL(database.url);
      proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      relayed = await buildTestApp({ ...database.env(), DATABASE_URL: proxy.via(database.url) });
      relayedHeaders = await toolCallerHeaders(relayed);
    });
    afterAll(async () => {
      await relayed.close();
      await proxy.close();
    });

    it('answers 503 DATABASE_UNAVAILABLE on every route while away and is healthy within 2 s of the return', async () => {
      // a request in flight when the connections drop
      const unblock = await blockOrganisationTable();
      try {
        const pending = relayed.inject({ url: '/v1/organisation', headers: relayedHeaders });
        await waitFor(async () => {
          const waiting = await appBackends("wait_event_type = 'Lock'");
          return waiting.length > 0 ? waiting : undefined;
        }, 'the request to wait for the lock');
        await proxy.cut();
        expectDatabaseUnavailable(await pending);
      } finally {
        await unblock();
      }

      // while away, connects are refused: reads and writes alike
      expectDatabaseUnavailable(await relayed.inject({ url: '/v1/organisation', headers: relayedHeaders }));
      expectDatabaseUnavailable(
        await relayed.inject({ ...renamed('During the outage'), headers: relayedHeaders }),
      );
      const health = await relayed.inject({ url: '/v1/health' });
      expect(health.statusCode).toBe(503);
      expect(health.json()).toMatchObject({ success: false, code: 'DATABASE_UNREACHABLE' });
      expect(health.headers['retry-after']).toBe('2');

      await proxy.restore();
      const back = performance.now();
      await waitFor(
        async () => ((await relayed.inject({ url: '/v1/health' })).statusCode === 200 ? true : undefined),
        'health after the return',
        2000,
      );
      expect(performance.now() - back).toBeLessThan(2000);
      const write = await relayed.inject({ ...renamed('After the outage'), headers: relayedHeaders });
      expect(write.statusCode, write.body).toBe(200);
    });
  });
});

describe('a busy SQLite file [sqlite]', () => {
  let app: FastifyInstance;
  let headers: { authorization: string };
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'rfckit-busy-'));
    app = await buildTestApp({ DATA_DIR: dataDir });
    headers = await toolCallerHeaders(app);
  });
  afterAll(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers a write 503 DATABASE_UNAVAILABLE when another process holds the write lock past the busy timeout', async () => {
    // another process's writer: the app waits out busy_timeout (5 s), then SQLite says SQLITE_BUSY
    const other = new SqliteDatabase(path.join(dataDir, 'rfckit.sqlite'));
    try {
      other.exec('begin immediate');
      expectDatabaseUnavailable(await app.inject({ ...renamed('Locked out'), headers }));
      other.exec('rollback');
    } finally {
      other.close();
    }
    const write = await app.inject({ ...renamed('Unlocked'), headers });
    expect(write.statusCode, write.body).toBe(200);
  }, 30_000);
});
