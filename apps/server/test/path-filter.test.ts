import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collapseSlashes, maliciousPathReason } from '../src/plugins/path-filter.ts';
import { buildTestApp, captureLogs, type LogCapture } from './helpers/app.ts';

const INDEX = '<!doctype html><title>rfckit</title>';

/** Our own routes and web assets: never refused. The status where this suite owns the answer. */
const allowed: [url: string, status: number | undefined][] = [
  ['/', 200],
  ['/index.html', 200],
  ['/assets/index-abc.js', 200],
  ['/favicon.svg', 200],
  ['/theme-init.js', 200],
  ['/tools/dnskey', 200],
  ['/tools/sha256-hasher', 200],
  ['/welcome?next=%2Ftools%2Fspf', 200],
  ['/reset-password?token=abc..def', 200],
  ['/docs', 200],
  ['/docs/json', undefined],
  ['/v1/health', 200],
  ['/api/v1/health', 200],
  ['/cdn-cgi/trace', 200],
  ['/.well-known/security.txt', 404],
  ['/v1/nope', 404],
  ['/v1/auth/profile', undefined],
  ['/v1/organisation/activity?page=1&limit=20', undefined],
  ['/api/v1/auth/request-password-reset', undefined],
];

/** Probes and attacks: 404 MALICIOUS_PATH, whatever exists on disk. */
const refused: string[] = [
  '/wp-admin',
  '/wp-admin/install.php',
  '/blog/wp-login.php',
  '/wordpress/',
  '/wp-content/plugins/x/readme.txt',
  '/wp-includes/wlwmanifest.xml',
  '/xmlrpc.php',
  '/phpmyadmin/',
  '/phpMyAdmin/index.php',
  '/pma/',
  '/myadmin/scripts/setup.php',
  '/.env',
  '/.env.local',
  '/.env.production',
  '/api/.env',
  '/.git/config',
  '/.git/HEAD',
  '/.svn/entries',
  '/.hg/store',
  '/.DS_Store',
  '/assets/.DS_Store',
  '/.aws/credentials',
  '/.ssh/id_rsa',
  '/.htaccess',
  '/backup.bak',
  '/index.html.old',
  '/dump.sql',
  '/db.sql.gz',
  '/site.tar',
  '/site.tar.gz',
  '/www.zip',
  '/backup/',
  '/backups/db',
  '/config.js~',
  '/admin',
  '/admin/login',
  '/ADMIN',
  '/administrator/index.php',
  '/manager/html',
  '/cgi-bin/luci',
  '/actuator/env',
  '/api/actuator/health',
  '/server-status',
  '/config.php',
  '/info.php',
  '/index.php?s=/index/think',
  '/shell',
  '/vendor/phpunit/phpunit/src/Util/PHP/eval-stdin.php',
  '/test.aspx',
  '/login.jsp',
  '/../etc/passwd',
  '/assets/../../etc/passwd',
  '/assets/..%2f..%2fetc/passwd',
  '/%2e%2e/%2e%2e/etc/passwd',
  '/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd',
  '/assets/%252e%252e/%252e%252e/etc/passwd',
  '/assets/%25252e%25252e%25252f',
  '/assets/..%5c..%5cwindows',
  '/assets\\..\\..\\windows',
  '/v1/health%00.js',
  '/.%2e/.%2e/etc/passwd',
  '/%2eenv',
];

let root: string;
let app: FastifyInstance;
let logs: LogCapture;
let port: number;

interface RawResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request over a real socket with the path exactly as given: inject() would normalise `..` and `\\` away. */
function raw(url: string, method = 'GET'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    httpRequest(
      { host: '127.0.0.1', port, path: url, method, headers: { accept: 'text/html' } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, body }),
        );
      },
    )
      .on('error', reject)
      .end();
  });
}
beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'rfckit-paths-'));
  const dist = path.join(root, 'dist');
  mkdirSync(path.join(dist, 'assets'), { recursive: true });
  mkdirSync(path.join(dist, '.git'));
  writeFileSync(path.join(dist, 'index.html'), INDEX);
  writeFileSync(path.join(dist, 'assets', 'index-abc.js'), 'console.log(1);');
  writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(dist, 'theme-init.js'), 'void 0;');
  // files a careless deployment might leave beside the build: the filter refuses them before any lookup
  writeFileSync(path.join(dist, '.env'), 'SECRET=1');
  writeFileSync(path.join(dist, '.git', 'config'), '[core]');
  writeFileSync(path.join(dist, 'www.zip'), 'PK');
  writeFileSync(path.join(dist, 'config.php'), '<?php');
  logs = captureLogs();
  app = await buildTestApp({ DATA_DIR: path.join(root, 'data'), WEB_DIST: dist, LOG_LEVEL: 'warn' }, logs);
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await app?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('path filter', () => {
  it.each(allowed)('lets %s through (%s)', async (url, status) => {
    const response = await raw(url);
    expect(response.body).not.toContain('MALICIOUS_PATH');
    if (status !== undefined) expect(response.statusCode).toBe(status);
    if (status === 404) expect(JSON.parse(response.body).code).toBe('NOT_FOUND');
  });

  it.each(refused)('refuses %s', async (url) => {
    const response = await raw(url);
    expect(response.statusCode).toBe(404);
    expect(JSON.parse(response.body)).toEqual({
      success: false,
      error: 'Invalid endpoint: potentially malicious pattern detected',
      code: 'MALICIOUS_PATH',
    });
    // the refusal keeps the site-wide headers
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-request-id']).toBeDefined();
  });

  it('refuses whatever the method', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS'] as const) {
      const response = await raw('/wp-login.php', method);
      expect(response.statusCode, method).toBe(404);
    }
  });

  it('leaves overlong UTF-8 to the router, which refuses the malformed URL', async () => {
    const response = await raw('/%c0%ae%c0%ae/etc/passwd');
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body).code).toBe('BAD_URL');
    expect(maliciousPathReason('/%c0%ae%c0%ae/etc/passwd')).toBe('overlong UTF-8 encoding');
  });

  it('logs each refusal at warn with the client address', async () => {
    logs.lines.length = 0;
    await app.inject({ url: '/.git/config', remoteAddress: '198.51.100.23' });
    const warning = logs.lines.find((line) => line.msg === 'refused a malicious path');
    expect(warning).toMatchObject({ level: 40, ip: '198.51.100.23', path: '/.git/config' });
  });

  it('serves paths with doubled slashes as their collapsed form', async () => {
    const health = await app.inject({ url: '//v1//health' });
    expect(health.statusCode).toBe(200);
    expect(health.json().success).toBe(true);
    const asset = await app.inject({ url: '/assets//index-abc.js?v=1//2' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log(1);');
    expect((await app.inject({ url: '//.env' })).json().code).toBe('MALICIOUS_PATH');
  });

  it('collapses slashes on a real socket too', async () => {
    expect((await raw('//v1///health')).statusCode).toBe(200);
    expect(JSON.parse((await raw('//.git//config')).body).code).toBe('MALICIOUS_PATH');
  });
});

describe('maliciousPathReason', () => {
  it.each([
    ['/', undefined],
    ['/v1/dkim/validate', undefined],
    ['/v1/x/100%25', undefined],
    ['/v1/organisation/admin', undefined],
    ['/.well-known/mta-sts.txt', undefined],
    ['/.env', 'hidden file .env'],
    ['/a/../b', 'path traversal'],
    ['/x.php', 'probe of x.php'],
    ['/admin', 'probe of /admin'],
  ])('%s → %s', (url, reason) => {
    expect(maliciousPathReason(url)).toBe(reason);
  });

  it('collapses only the path part', () => {
    expect(collapseSlashes('//v1//health?next=//x')).toBe('/v1/health?next=//x');
    expect(collapseSlashes('/v1/health')).toBe('/v1/health');
  });
});
