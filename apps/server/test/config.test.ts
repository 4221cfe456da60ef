import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_DENIED_COUNTRIES, ianaRootTrustAnchors } from '@rfckit/standards';
import { ConfigError, JWT_SECRET_FILE, loadConfig } from '../src/config.ts';
import { buildMmdb } from './helpers/mmdb.ts';

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

describe('loadConfig: region gate and rate limits', () => {
  it('defaults to the spec country list, cf-ipcountry, no GeoIP file, memory counters, scale 1', () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.deniedCountries).toEqual(DEFAULT_DENIED_COUNTRIES);
    expect(config.deniedCountries).toHaveLength(24);
    expect(config).toMatchObject({
      geoipDb: undefined,
      geoHeader: 'cf-ipcountry',
      redisUrl: undefined,
      rateLimitScale: 1,
    });
  });

  it('reads DENIED_COUNTRIES case-insensitively; empty or none denies no one', () => {
    expect(loadConfig({ DATA_DIR: dataDir, DENIED_COUNTRIES: ' ru, kp ,RU' }).deniedCountries).toEqual([
      'RU',
      'KP',
    ]);
    expect(loadConfig({ DATA_DIR: dataDir, DENIED_COUNTRIES: '' }).deniedCountries).toEqual([]);
    expect(loadConfig({ DATA_DIR: dataDir, DENIED_COUNTRIES: 'none' }).deniedCountries).toEqual([]);
  });

  it('names each bad country code', () => {
    expect(issuesOf({ DENIED_COUNTRIES: 'RU,RUS,QQ,UK' })).toEqual([
      'DENIED_COUNTRIES must be a comma-separated list of ISO 3166-1 alpha-2 country codes such as RU,KP, or empty for none: ' +
        '"RUS" is not two letters; "QQ" is not an ISO 3166-1 alpha-2 country code; "UK" is not ISO 3166-1: use GB for the United Kingdom',
    ]);
  });

  it('accepts a readable MaxMind DB as GEOIP_DB, resolved to an absolute path', () => {
    const file = path.join(dataDir, 'country.mmdb');
    writeFileSync(file, buildMmdb({ '203.0.113.0/24': { country: { iso_code: 'RU' } } }));
    const config = loadConfig({ DATA_DIR: dataDir, GEOIP_DB: path.relative(process.cwd(), file) });
    expect(config.geoipDb).toBe(file);
  });

  it('refuses a GEOIP_DB that is missing, a directory or not a MaxMind DB', () => {
    const missing = path.join(dataDir, 'absent.mmdb');
    expect(issuesOf({ GEOIP_DB: missing })).toEqual([
      `GEOIP_DB must be a readable MaxMind .mmdb file (ENOENT on ${missing})`,
    ]);
    const directory = path.join(dataDir, 'dir.mmdb');
    mkdirSync(directory);
    expect(issuesOf({ GEOIP_DB: directory })).toEqual([
      `GEOIP_DB must be a MaxMind .mmdb file, not a directory or device (${directory})`,
    ]);
    const text = path.join(dataDir, 'GeoLite2-Country.csv');
    writeFileSync(text, 'network,geoname_id\n');
    expect(issuesOf({ GEOIP_DB: text })).toEqual([
      `GEOIP_DB is not a MaxMind DB (.mmdb) file: no metadata marker in ${text}`,
    ]);
  });

  it('takes GEO_HEADER as a header name, lower-cased', () => {
    expect(loadConfig({ DATA_DIR: dataDir, GEO_HEADER: 'X-Country-Code' }).geoHeader).toBe('x-country-code');
    expect(issuesOf({ GEO_HEADER: 'x country' })).toEqual([
      'GEO_HEADER must be an HTTP header name such as cf-ipcountry (got "x country")',
    ]);
  });

  it('accepts redis:// and rediss:// URLs and refuses others without echoing a password', () => {
    expect(loadConfig({ DATA_DIR: dataDir, REDIS_URL: 'rediss://:pw@cache.internal:6380/2' }).redisUrl).toBe(
      'rediss://:pw@cache.internal:6380/2',
    );
    const issues = issuesOf({ REDIS_URL: 'http://user:hunter2@cache.internal' });
    expect(issues).toEqual(['REDIS_URL must be a redis:// or rediss:// URL (got a "http" URL)']);
    expect(issues.join()).not.toContain('hunter2');
    expect(issuesOf({ REDIS_URL: 'cache.internal:6379' })).toEqual([
      'REDIS_URL must be a redis:// or rediss:// URL (got a "cache.internal" URL)',
    ]);
    expect(issuesOf({ REDIS_URL: 'not a url' })).toEqual([
      'REDIS_URL must be a redis:// or rediss:// URL with a host, such as redis://127.0.0.1:6379',
    ]);
  });

  it('takes RATE_LIMIT_SCALE as a positive number', () => {
    expect(loadConfig({ DATA_DIR: dataDir, RATE_LIMIT_SCALE: '10' }).rateLimitScale).toBe(10);
    expect(loadConfig({ DATA_DIR: dataDir, RATE_LIMIT_SCALE: '0.5' }).rateLimitScale).toBe(0.5);
    for (const bad of ['0', '-1', 'abc', 'Infinity', '1e999']) {
      expect(issuesOf({ RATE_LIMIT_SCALE: bad })).toEqual([
        `RATE_LIMIT_SCALE must be a positive number that multiplies every rate limit, such as 1 or 10 (got "${bad}")`,
      ]);
    }
  });
});

describe('loadConfig: mail and links', () => {
  it('derives the link base and sender from PORT when PUBLIC_URL is unset', () => {
    const config = loadConfig({ DATA_DIR: dataDir, PORT: '3000' });
    expect(config).toMatchObject({
      publicUrl: undefined,
      appUrl: 'http://localhost:3000',
      smtpUrl: undefined,
      mailFrom: 'rfckit <no-reply@localhost>',
    });
  });

  it('takes PUBLIC_URL, SMTP_URL and MAIL_FROM', () => {
    const config = loadConfig({
      DATA_DIR: dataDir,
      PUBLIC_URL: 'https://rfckit.example.org/app/',
      SMTP_URL: 'smtps://user:secret@mail.example.org:465',
      MAIL_FROM: 'Security Team <security@example.org>',
    });
    expect(config).toMatchObject({
      appUrl: 'https://rfckit.example.org/app',
      smtpUrl: 'smtps://user:secret@mail.example.org:465',
      mailFrom: 'Security Team <security@example.org>',
    });
    expect(loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: 'https://rfckit.example.org' }).mailFrom).toBe(
      'rfckit <no-reply@rfckit.example.org>',
    );
  });

  it('refuses an SMTP_URL that is not smtp(s) without echoing it, and a MAIL_FROM without an address', () => {
    const issues = issuesOf({ SMTP_URL: 'https://user:hunter2@mail.example.org', MAIL_FROM: 'nobody' });
    expect(issues).toHaveLength(2);
    expect(issues[0]).toMatch(/^SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/);
    expect(issues.join('\n')).not.toContain('hunter2');
    expect(issues[1]).toMatch(/^MAIL_FROM must be an address/);
    expect(issuesOf({ SMTP_URL: 'not a url' })[0]).toMatch(/^SMTP_URL/);
  });
});

describe('DNS_SERVERS', () => {
  it("defaults to the system's resolvers and reads a list of addresses with optional ports", () => {
    expect(loadConfig({ DATA_DIR: dataDir }).dnsServers).toBeUndefined();
    expect(
      loadConfig({ DATA_DIR: dataDir, DNS_SERVERS: '127.0.0.1:5353, 192.0.2.53, [::1]:5300, 2001:db8::1' })
        .dnsServers,
    ).toEqual(['127.0.0.1:5353', '192.0.2.53:53', '[::1]:5300', '[2001:db8::1]:53']);
  });

  it('refuses names and bad ports, naming them', () => {
    const [issue] = issuesOf({ DNS_SERVERS: '127.0.0.1,dns.example.org,127.0.0.1:99999' });
    expect(issue).toMatch(/^DNS_SERVERS must be a comma-separated list of resolver IP addresses/);
    expect(issue).toContain('"dns.example.org", "127.0.0.1:99999"');
  });
});

describe('DNSSEC_TRUST_ANCHORS', () => {
  it("defaults to IANA's root anchors", () => {
    expect(loadConfig({ DATA_DIR: dataDir }).dnssecTrustAnchors).toBe(ianaRootTrustAnchors);
  });

  it('reads a file of DS records for the root, comments and blank lines allowed', () => {
    const file = path.join(dataDir, 'root.ds');
    writeFileSync(
      file,
      '; the lab root\n\n. IN DS 6560 13 2 6F1584FF520B5D06E3F26828C9AAC1CF008767C492C5458D94F84D33214C1406\n',
    );
    const anchors = loadConfig({ DATA_DIR: dataDir, DNSSEC_TRUST_ANCHORS: file }).dnssecTrustAnchors;
    // shown to every user of the Chain tab: no server path
    expect(anchors.source).toBe('DNSSEC_TRUST_ANCHORS (root.ds)');
    expect(anchors.dnskey).toEqual([]);
    expect(anchors.ds).toMatchObject([{ keyTag: 6560, algorithm: 13, digestType: 2 }]);
  });

  it('refuses a missing file, naming it', () => {
    const file = path.join(dataDir, 'absent.ds');
    const [issue] = issuesOf({ DNSSEC_TRUST_ANCHORS: file });
    expect(issue).toMatch(
      /^DNSSEC_TRUST_ANCHORS must be a readable file of DS or DNSKEY records for the root/,
    );
    expect(issue).toContain(`ENOENT on ${file}`);
  });

  it('refuses a file with a record that is not an anchor for the root, naming the line and why', () => {
    const file = path.join(dataDir, 'bad.ds');
    writeFileSync(file, "; a zone's DS, not the root's\nexample.com. IN DS 1 13 2 AB\n");
    expect(issuesOf({ DNSSEC_TRUST_ANCHORS: file })).toEqual([
      `DNSSEC_TRUST_ANCHORS ${file}: line 2: trust anchors are for the root, so the owner must be '.'; found 'example.com.'`,
    ]);
  });
});
