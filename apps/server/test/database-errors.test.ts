import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, isUniqueViolation } from '../src/db/errors.ts';

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : 0);
    });
  });
}

/** A pg error as the driver builds it from a server's ErrorResponse with this SQLSTATE. */
function pgError(code: string, message: string): pg.DatabaseError {
  const error = new pg.DatabaseError(message, 0, 'error');
  error.code = code;
  return error;
}

describe('isDatabaseUnavailable', () => {
  const servers: Server[] = [];
  const dirs: string[] = [];
  afterEach(() => {
    for (const server of servers.splice(0)) server.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  // SQLSTATEs from PostgreSQL's Appendix A: the server going away or not taking connections
  it.each([
    ['57P01', 'terminating connection due to administrator command'],
    ['57P02', 'terminating connection because of crash of another server process'],
    ['57P03', 'the database system is starting up'],
    ['53300', 'sorry, too many clients already'],
    ['08006', 'connection failure'],
    ['08001', 'could not connect'],
  ])('is true for SQLSTATE %s (%s)', (code, message) => {
    expect(isDatabaseUnavailable(pgError(code, message))).toBe(true);
  });

  // faults of the query or the data: a retry would fail the same way
  it.each([
    ['23505', 'duplicate key value violates unique constraint'],
    ['42P01', 'relation "nope" does not exist'],
    ['22P02', 'invalid input syntax for type integer'],
    ['40001', 'could not serialize access due to concurrent update'],
  ])('is false for SQLSTATE %s (%s)', (code, message) => {
    expect(isDatabaseUnavailable(pgError(code, message))).toBe(false);
  });

  it('is true for a refused connect', async () => {
    const server = createServer();
    const port = await listen(server);
    await new Promise((resolve) => server.close(resolve));
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'nobody', database: 'nothing' });
    const error: unknown = await client.connect().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toMatchObject({ code: 'ECONNREFUSED' });
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('is true for a connection the server drops', async () => {
    const server = createServer((socket) => socket.destroy());
    servers.push(server);
    const port = await listen(server);
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'nobody', database: 'nothing' });
    const error: unknown = await client.connect().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(String(error)).toMatch(/Connection terminated|ECONNRESET/);
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it("is true for the pool's connect timeout", async () => {
    // accepts and never answers the startup message
    const server = createServer(() => {});
    servers.push(server);
    const port = await listen(server);
    const pool = new pg.Pool({
      host: '127.0.0.1',
      port,
      user: 'nobody',
      database: 'nothing',
      connectionTimeoutMillis: 100,
    });
    const error: unknown = await pool.query('select 1').then(
      () => undefined,
      (failure: unknown) => failure,
    );
    await pool.end();
    expect(String(error)).toMatch(/timeout/);
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('is true for a busy SQLite file and false for a constraint', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rfckit-sqlite-errors-'));
    dirs.push(dir);
    const file = path.join(dir, 'busy.sqlite');
    const writer = new SqliteDatabase(file);
    const other = new SqliteDatabase(file, { timeout: 0 });
    try {
      writer.exec('create table t (id integer primary key)');
      writer.exec('begin immediate');
      let busy: unknown;
      try {
        other.exec('insert into t values (1)');
      } catch (error) {
        busy = error;
      }
      expect(busy).toMatchObject({ code: 'SQLITE_BUSY' });
      expect(isDatabaseUnavailable(busy)).toBe(true);
      writer.exec('rollback');

      writer.exec('insert into t values (1)');
      let duplicate: unknown;
      try {
        writer.exec('insert into t values (1)');
      } catch (error) {
        duplicate = error;
      }
      expect(isUniqueViolation(duplicate)).toBe(true);
      expect(isDatabaseUnavailable(duplicate)).toBe(false);
    } finally {
      other.close();
      writer.close();
    }
  });

  it('is false for anything else', () => {
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(
      false,
    );
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    expect(isDatabaseUnavailable('Connection terminated')).toBe(false);
  });
});
