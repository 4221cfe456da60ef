import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, JWT_SECRET_FILE, loadConfig } from '../src/config.ts';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'rfckit-config-'));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

function issuesOf(env: Record<string, string>): readonly string[] {
  try {
    loadConfig({ DATA_DIR: dataDir, ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.issues;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config).toMatchObject({
      port: 8080,
      host: undefined,
      publicUrl: undefined,
      dataDir,
      databaseUrl: undefined,
      trustProxy: false,
      logLevel: 'info',
      nodeEnv: 'production',
      jwtSecretSource: 'file',
    });
    expect(config.webDist).toBe(path.resolve(import.meta.dirname, '../../web/dist'));
  });

  it('resolves relative paths against the working directory and treats empty values as unset', () => {
    const config = loadConfig({
      DATA_DIR: path.relative(process.cwd(), dataDir),
      WEB_DIST: 'web-build',
      PORT: '',
    });
    expect(config.dataDir).toBe(dataDir);
    expect(config.webDist).toBe(path.resolve('web-build'));
    expect(config.port).toBe(8080);
  });

  it('accepts PORT=0 (any free port), PUBLIC_URL, a PostgreSQL URL and proxy lists', () => {
    const config = loadConfig({
      DATA_DIR: dataDir,
      PORT: '0',
      PUBLIC_URL: 'https://rfckit.example.org/',
      DATABASE_URL: 'postgresql://rfckit:secret@db.example.org:5432/rfckit',
      TRUST_PROXY: '127.0.0.1, 10.0.0.0/8, ::1, loopback',
      LOG_LEVEL: 'debug',
    });
    expect(config.port).toBe(0);
    expect(config.publicUrl).toBe('https://rfckit.example.org');
    expect(config.databaseUrl).toBe('postgresql://rfckit:secret@db.example.org:5432/rfckit');
    expect(config.trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'loopback']);
    expect(config.logLevel).toBe('debug');
    expect(loadConfig({ DATA_DIR: dataDir, TRUST_PROXY: 'true' }).trustProxy).toBe(true);
  });

  it('names a bad PORT with what is expected', () => {
    expect(issuesOf({ PORT: 'abc' })).toEqual(['PORT must be an integer 0-65535 (got "abc")']);
    expect(issuesOf({ PORT: '70000' })).toEqual(['PORT must be an integer 0-65535 (got "70000")']);
  });

  it('rejects a DATABASE_URL that is not PostgreSQL without echoing its password', () => {
    const issues = issuesOf({ DATABASE_URL: 'mysql://root:hunter2@db/rfckit' });
    expect(issues).toEqual(['DATABASE_URL must be a postgres:// or postgresql:// URL (got a "mysql" URL)']);
    expect(issues.join()).not.toContain('hunter2');
  });

  it('names a bad LOG_LEVEL with the allowed values', () => {
    expect(issuesOf({ LOG_LEVEL: 'verbose' })).toEqual([
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "verbose")',
    ]);
  });

  it('lists every bad variable at once in the error message', () => {
    let caught: unknown;
    try {
      loadConfig({
        DATA_DIR: dataDir,
        PORT: '-1',
        LOG_LEVEL: 'loud',
        PUBLIC_URL: 'ftp://x',
        TRUST_PROXY: '2',
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const message = (caught as ConfigError).message;
    expect(message).toMatch(/^Invalid configuration:\n {2}- PORT must be/);
    expect(message).toContain('LOG_LEVEL must be one of');
    expect(message).toContain('PUBLIC_URL must be an absolute http(s) URL');
    expect(message).toContain('TRUST_PROXY must be true, false or the proxies');
  });

  it('refuses a short JWT_SECRET without showing it', () => {
    const issues = issuesOf({ JWT_SECRET: 'tooshort' });
    expect(issues).toEqual([
      'JWT_SECRET must be at least 32 characters (got 8); unset it to have one generated into DATA_DIR',
    ]);
  });

  it('uses JWT_SECRET when set and writes no file', () => {
    const secret = 'x'.repeat(40);
    const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: secret });
    expect(config.jwtSecret).toBe(secret);
    expect(config.jwtSecretSource).toBe('env');
    expect(() => statSync(path.join(dataDir, JWT_SECRET_FILE))).toThrow();
  });

  it('generates the JWT secret once, mode 0600, and reuses it on the next start', () => {
    const nested = path.join(dataDir, 'fresh', 'data');
    const first = loadConfig({ DATA_DIR: nested });
    const file = path.join(nested, JWT_SECRET_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.jwtSecret).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.jwtSecret);

    const second = loadConfig({ DATA_DIR: nested });
    expect(second.jwtSecret).toBe(first.jwtSecret);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('reports a DATA_DIR that cannot be created', () => {
    loadConfig({ DATA_DIR: dataDir }); // creates the jwt-secret file, which cannot hold a directory
    const issues = issuesOf({ DATA_DIR: path.join(dataDir, JWT_SECRET_FILE, 'sub') });
    expect(issues[0]).toMatch(/^DATA_DIR must be a writable directory \(ENOTDIR/);
  });
});
