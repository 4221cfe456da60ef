import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { migrations } from './migrations/index.ts';
import type { Database } from './schema.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
}

export const SQLITE_FILE = 'rfckit.sqlite';

export interface DatabaseOptions {
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * Called when a PostgreSQL connection fails (the server went away, the backend was terminated),
   * whether it was idle in the pool or checked out by a request.
   */
  onConnectionError?: (error: Error) => void;
}

/** Opens the embedded SQLite file in `dataDir`, or PostgreSQL when a URL is given. */
export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.databaseUrl !== undefined) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      connectionTimeoutMillis: 10_000,
      // names our backends in pg_stat_activity (a URL's application_name wins)
      application_name: 'rfckit',
    });
    // pg only listens for errors of idle clients: an unhandled 'error' of a checked-out client
    // (its backend terminated mid-request) would crash the process. Its query fails with the
    // error, and the pool drops it on release because it is no longer queryable.
    pool.on('connect', (client) => {
      client.on('error', (error) => options.onConnectionError?.(error));
      // A backend ended under a running query (pg_terminate_backend, shutdown) sends a FATAL error that
      // pg hands to the query alone; the client stays "queryable" until the socket closes, so the pool
      // could lend it out again first. Ending it now makes the pool drop it when it is released.
      client.connection.on('errorMessage', (message: { severity?: string | undefined }) => {
        if (message.severity === 'FATAL') client.end().catch(() => undefined);
      });
    });
    // an idle client's error is also re-emitted by the pool: already reported by the listener above
    pool.on('error', () => {});
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres' };
  }
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(options.dataDir, SQLITE_FILE);
  // the file holds password hashes and personal data: owner only, whatever DATA_DIR's mode.
  // Created 0600 before SQLite opens it (SQLite would make it 0644), and tightened if an older
  // start left it readable. SQLite gives the -wal and -shm files the main file's mode.
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
  const sqlite = new SqliteDatabase(file);
  // WAL lets readers run beside the writer; busy_timeout waits out a concurrent writer instead of failing
  sqlite.pragma('journal_mode = WAL');
  for (const companion of [`${file}-wal`, `${file}-shm`]) {
    if (existsSync(companion)) chmodSync(companion, 0o600);
  }
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return {
    db: new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }),
    dialect: 'sqlite',
  };
}

/** Applies every pending migration; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(failed ? `Migration ${failed} failed: ${reason}` : `Migrations failed: ${reason}`, {
      cause: error,
    });
  }
}
