import { randomInt } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitKey } from '../src/plugins/rate-limit.ts';
import { buildTestApp } from './helpers/app.ts';
import { redisAvailable, useRedis } from './helpers/redis.ts';

const LIMITED = { success: false, error: 'Rate limit exceeded', code: 'RATE_LIMITED' };

let root: string;
beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'rfckit-rate-'));
  mkdirSync(path.join(root, 'dist', 'assets'), { recursive: true });
  writeFileSync(path.join(root, 'dist', 'index.html'), '<!doctype html><title>rfckit</title>');
  writeFileSync(path.join(root, 'dist', 'assets', 'index-abc.js'), 'void 0;');
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/**
 * The real app plus, when the accounts routes have not landed, a stand-in POST /v1/auth/login.
 * `x-test-user` plays the part of a verified bearer token: an onRequest hook sets `request.user`
 * as the auth plugin does once it has verified one.
 */
async function start(env: Record<string, string> = {}): Promise<FastifyInstance> {
  const app = await buildTestApp({
    DATA_DIR: path.join(root, `data-${apps.length}`),
    WEB_DIST: path.join(root, 'dist'),
    ...env,
  });
  apps.push(app);
  if (!app.hasRoute({ method: 'POST', url: '/v1/auth/login' })) {
    app.post('/v1/auth/login', async () => ({ success: true }));
  }
  app.addHook('onRequest', (request, _reply, done) => {
    const user = request.headers['x-test-user'];
    if (typeof user === 'string') Object.assign(request, { user: { id: user } });
    done();
  });
  return app;
}

async function repeat(
  app: FastifyInstance,
  times: number,
  options: InjectOptions,
): Promise<LightMyRequestResponse[]> {
  const responses: LightMyRequestResponse[] = [];
  for (let i = 0; i < times; i++) responses.push(await app.inject(options));
  return responses;
}

let attempts = 0;
// another address each time: the per-address sign-in throttle is not what these tests are about
const login = (remoteAddress = '203.0.113.10', headers: Record<string, string> = {}): InjectOptions => ({
  method: 'POST',
  url: '/v1/auth/login',
  remoteAddress,
  headers: { 'content-type': 'application/json', ...headers },
  // read by every inject, so one options object repeated still names a new address each time
  get payload() {
    return JSON.stringify({ email: `admin-${(attempts += 1)}@example.org`, password: 'not-the-password' });
  },
});

function expectLimited(response: LightMyRequestResponse, limit: number): void {
  expect(response.statusCode).toBe(429);
  expect(response.json()).toEqual(LIMITED);
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(response.headers['x-ratelimit-limit']).toBe(String(limit));
  expect(response.headers['x-ratelimit-remaining']).toBe('0');
  expect(Number(response.headers['x-ratelimit-reset'])).toBe(retryAfter);
  // still the site-wide headers
  expect(response.headers['x-content-type-options']).toBe('nosniff');
}

describe('rate limits', () => {
  it('refuses the 61st GET /v1/health in a minute from one address (default 60)', async () => {
    const app = await start();
    const responses = await repeat(app, 61, { url: '/v1/health', remoteAddress: '203.0.113.1' });
    const allowed = responses.slice(0, 60);
    expect(allowed.every((response) => response.statusCode === 200)).toBe(true);
    expect(allowed[0]?.headers['x-ratelimit-limit']).toBe('60');
    expect(allowed[0]?.headers['x-ratelimit-remaining']).toBe('59');
    expect(allowed[59]?.headers['x-ratelimit-remaining']).toBe('0');
    expectLimited(responses[60] as LightMyRequestResponse, 60);
    // /api/v1 is the same API and the same budget
    expectLimited(await app.inject({ url: '/api/v1/health', remoteAddress: '203.0.113.1' }), 60);
    // unknown API paths count too
    expect((await app.inject({ url: '/v1/nope', remoteAddress: '203.0.113.1' })).statusCode).toBe(429);
    // another client is unaffected
    expect((await app.inject({ url: '/v1/health', remoteAddress: '203.0.113.2' })).statusCode).toBe(200);
  });

  it('refuses the 11th POST /v1/auth/login in a minute from one address (auth 10)', async () => {
    const app = await start();
    const responses = await repeat(app, 11, login());
    for (const response of responses.slice(0, 10)) expect(response.statusCode).not.toBe(429);
    expect(responses[0]?.headers['x-ratelimit-limit']).toBe('10');
    expectLimited(responses[10] as LightMyRequestResponse, 10);
    // each kind of endpoint has its own budget
    expect((await app.inject({ url: '/v1/health', remoteAddress: '203.0.113.10' })).statusCode).toBe(200);
    // a percent-encoded path reaches the same route and the same budget
    expect((await app.inject({ ...login(), url: '/v1/%61uth/login' })).statusCode).toBe(429);
  });

  it('leaves pages, assets, docs and the trace endpoint alone', async () => {
    const app = await start({ RATE_LIMIT_SCALE: '0.05' });
    for (const url of ['/', '/tools/dnskey', '/assets/index-abc.js', '/docs', '/cdn-cgi/trace']) {
      const responses = await repeat(app, 5, {
        url,
        remoteAddress: '203.0.113.3',
        headers: { accept: 'text/html' },
      });
      for (const response of responses) {
        expect(response.statusCode, url).toBe(200);
        expect(response.headers['x-ratelimit-limit'], url).toBeUndefined();
      }
    }
  });

  it('multiplies every limit by RATE_LIMIT_SCALE', async () => {
    const doubled = await start({ RATE_LIMIT_SCALE: '2' });
    expect((await doubled.inject({ url: '/v1/health' })).headers['x-ratelimit-limit']).toBe('120');
    const responses = await repeat(doubled, 21, login());
    expect(responses[19]?.statusCode).not.toBe(429);
    expectLimited(responses[20] as LightMyRequestResponse, 20);

    const halved = await start({ RATE_LIMIT_SCALE: '0.5' });
    const halvedResponses = await repeat(halved, 6, login());
    expectLimited(halvedResponses[5] as LightMyRequestResponse, 5);
  });

  it('counts per verified user when there is one, else per address', async () => {
    const app = await start({ RATE_LIMIT_SCALE: '0.05' });
    const health = (remoteAddress: string, user?: string): InjectOptions => ({
      url: '/v1/health',
      remoteAddress,
      headers: user === undefined ? {} : { 'x-test-user': user },
    });
    // one user from two addresses shares one budget (default 60 × 0.05 = 3)
    await repeat(app, 2, health('198.51.100.1', 'alice'));
    await repeat(app, 1, health('198.51.100.2', 'alice'));
    expect((await app.inject(health('198.51.100.3', 'alice'))).statusCode).toBe(429);
    // another user at the same address has their own
    expect((await app.inject(health('198.51.100.1', 'bob'))).statusCode).toBe(200);
    // and an anonymous request from that address counts for the address
    const anonymous = await repeat(app, 4, health('198.51.100.1'));
    expect(anonymous[2]?.statusCode).toBe(200);
    expect(anonymous[3]?.statusCode).toBe(429);
  });

  it('counts auth routes per address whatever token the request carries', async () => {
    const app = await start({ RATE_LIMIT_SCALE: '0.5' });
    // each attempt as a different signed-in user: still one budget for the address
    const attempts = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((n) => app.inject(login('198.51.100.7', { 'x-test-user': `user-${n}` }))),
    );
    expect(attempts.filter((response) => response.statusCode === 429)).toHaveLength(1);
    // one user from another address is not limited by the first address's budget
    expect((await app.inject(login('198.51.100.8', { 'x-test-user': 'user-1' }))).statusCode).not.toBe(429);
  });

  it('keys by the forwarded client address only behind a trusted proxy', async () => {
    const app = await start({ TRUST_PROXY: '127.0.0.1', RATE_LIMIT_SCALE: '0.5' });
    const viaProxy = (client: string) => login('127.0.0.1', { 'x-forwarded-for': client });
    await repeat(app, 5, viaProxy('192.0.2.1'));
    expect((await app.inject(viaProxy('192.0.2.1'))).statusCode).toBe(429);
    expect((await app.inject(viaProxy('192.0.2.2'))).statusCode).not.toBe(429);
    // an untrusted peer cannot pick a fresh address per request; of a concurrent burst exactly one is over
    const spoofed = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((n) =>
        app.inject(login('203.0.113.99', { 'x-forwarded-for': `192.0.2.${100 + n}` })),
      ),
    );
    expect(spoofed.filter((response) => response.statusCode === 429)).toHaveLength(1);
  });
});

describe('rateLimitKey', () => {
  it('keys by verified user, else by address with IPv6 grouped by /64; auth always by address', () => {
    const request = (ip: string, user?: unknown, rateLimitClass = 'default') =>
      ({ ip, user, rateLimitClass }) as unknown as Parameters<typeof rateLimitKey>[0];
    expect(rateLimitKey(request('203.0.113.5', { id: 'u1' }, 'auth'))).toBe('ip:203.0.113.5');
    expect(
      rateLimitKey({ ...request('203.0.113.5', undefined, 'auth'), apiKey: { id: 'k1' } } as never),
    ).toBe('ip:203.0.113.5');
    expect(rateLimitKey(request('203.0.113.5'))).toBe('ip:203.0.113.5');
    expect(rateLimitKey(request('2001:db8:1:2:3:4:5:6'))).toBe(rateLimitKey(request('2001:db8:1:2::9')));
    expect(rateLimitKey(request('203.0.113.5', { id: 'u1' }))).toBe('user:u1');
    expect(rateLimitKey(request('203.0.113.5', { id: { not: 'an id' } }))).toBe('ip:203.0.113.5');
  });
});

describe.skipIf(!redisAvailable)('rate limits in Redis', () => {
  const redis = useRedis();
  // a shared TEST_REDIS_URL may hold counters of other runs: use addresses of this run only
  const client = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

  it('share one budget between processes', async () => {
    const first = await start({ REDIS_URL: redis.url() });
    const second = await start({ REDIS_URL: redis.url() });
    const responses = [
      ...(await repeat(first, 6, login(client))),
      ...(await repeat(second, 4, login(client))),
    ];
    expect(responses.every((response) => response.statusCode !== 429)).toBe(true);
    expect(responses[9]?.headers['x-ratelimit-remaining']).toBe('0');
    expectLimited(await first.inject(login(client)), 10);
    expectLimited(await second.inject(login(client)), 10);
  });

  it('lets requests through while Redis is down rather than failing them', async () => {
    const app = await start({ REDIS_URL: redis.url() });
    expect(
      (await app.inject({ url: '/v1/health', remoteAddress: client })).headers['x-ratelimit-limit'],
    ).toBe('60');
    await redis.stop();
    const response = await app.inject({ url: '/v1/health', remoteAddress: client });
    expect(response.statusCode).toBe(200);
  });

  it('refuses to start when Redis cannot be reached', async () => {
    await expect(start({ REDIS_URL: 'redis://127.0.0.1:1' })).rejects.toThrow(
      /^REDIS_URL: cannot connect to Redis at 127\.0\.0\.1:1/,
    );
  });
});
