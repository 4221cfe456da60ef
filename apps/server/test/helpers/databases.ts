import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, it } from 'vitest';

export interface TestDatabase {
  readonly dialect: 'sqlite' | 'postgres';
  /**
   * Variables for `loadConfig`: a temp DATA_DIR of this suite and, on PostgreSQL, the URL of a
   * database created for this suite alone. Call it inside hooks and tests, not at collection.
   */
  env(): Record<string, string>;
}

/** Set it (CI does) to run every database suite on PostgreSQL as well, e.g. postgres://postgres@127.0.0.1:5432/postgres */
const postgresUrl = process.env.TEST_DATABASE_URL;

function useTempDataDir(): () => string {
  let dataDir: string | undefined;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'rfckit-test-'));
  });
  afterAll(() => {
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });
  return () => {
    if (dataDir === undefined) throw new Error('the test database is only ready inside hooks and tests');
    return dataDir;
  };
}

/** A temporary SQLite data directory for the suite being declared. */
export function sqliteDatabase(): TestDatabase {
  const dataDir = useTempDataDir();
  return { dialect: 'sqlite', env: () => ({ DATA_DIR: dataDir() }) };
}

/** A suite's own PostgreSQL database, with what a test needs to reach it from outside the app. */
export interface PostgresTestDatabase extends TestDatabase {
  readonly dialect: 'postgres';
  /** The database's name (pg_stat_activity.datname of the app's backends). */
  readonly name: string;
  /** The suite's database URL, for a test's own connections. */
  readonly url: string;
}

/** A fresh database per suite (the role needs CREATEDB), dropped afterwards even if connections linger. */
function postgres(adminUrl: string): PostgresTestDatabase {
  const dataDir = useTempDataDir();
  const name = `rfckit_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const suiteUrl = new URL(adminUrl);
  suiteUrl.pathname = `/${name}`;

  async function admin(statement: string): Promise<void> {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  }

  beforeAll(() => admin(`CREATE DATABASE "${name}"`));
  afterAll(() => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  return {
    dialect: 'postgres',
    name,
    url: suiteUrl.href,
    env: () => ({ DATA_DIR: dataDir(), DATABASE_URL: suiteUrl.href }),
  };
}

/**
 * Declares the suite once on SQLite and, when TEST_DATABASE_URL is set, once more on
 * PostgreSQL. Each run gets its own data directory and database.
 */
export function describeEachDatabase(name: string, suite: (database: TestDatabase) => void): void {
  describe(`${name} [sqlite]`, () => {
    suite(sqliteDatabase());
  });
  if (postgresUrl !== undefined && postgresUrl !== '') {
    describe(`${name} [postgres]`, () => {
      suite(postgres(postgresUrl));
    });
  }
}

/** Declares a suite that needs PostgreSQL itself; skipped (and said so) without TEST_DATABASE_URL. */
export function describePostgres(name: string, suite: (database: PostgresTestDatabase) => void): void {
  // CI provides PostgreSQL (.ci/run): there a missing URL is a broken setup, not a reason to skip
  if ((postgresUrl === undefined || postgresUrl === '') && process.env.CI) {
    throw new Error(`CI is set but TEST_DATABASE_URL is not: '${name}' needs PostgreSQL`);
  }
  if (postgresUrl !== undefined && postgresUrl !== '') {
    describe(`${name} [postgres]`, () => {
      suite(postgres(postgresUrl));
    });
  } else {
    describe.skip(`${name} [postgres: set TEST_DATABASE_URL]`, () => {
      it.skip('needs PostgreSQL', () => {});
    });
  }
}
