import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp } from './helpers/app.ts';
import { toolCallerHeaders } from './helpers/accounts.ts';

const FILES = ['rfckit.sqlite', 'rfckit.sqlite-wal', 'rfckit.sqlite-shm'];

function modeOf(file: string): string {
  return (statSync(file).mode & 0o777).toString(8);
}

// the database holds password hashes and personal data: no other local user may read it
describe('the SQLite files in DATA_DIR', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'rfckit-modes-'));
    // a directory made by hand or by a package, readable by everyone
    chmodSync(dataDir, 0o755);
  });
  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('are created 0600 in a DATA_DIR that is 0755', async () => {
    const app = await buildTestApp({ DATA_DIR: dataDir });
    try {
      // a write, so that the WAL and shared-memory files exist
      await toolCallerHeaders(app);
      for (const file of FILES) expect([file, modeOf(path.join(dataDir, file))]).toEqual([file, '600']);
    } finally {
      await app.close();
    }
  });

  it('are made 0600 when an earlier start left them readable', async () => {
    // what an older release left behind: SQLite's default 0644 (less the umask) on all three
    const old = new SqliteDatabase(path.join(dataDir, 'rfckit.sqlite'));
    old.pragma('journal_mode = WAL');
    old.exec('create table leftover (id integer)');
    for (const file of FILES) chmodSync(path.join(dataDir, file), 0o644);
    const app = await buildTestApp({ DATA_DIR: dataDir });
    try {
      for (const file of FILES) expect([file, modeOf(path.join(dataDir, file))]).toEqual([file, '600']);
    } finally {
      await app.close();
      old.close();
    }
  });
});
