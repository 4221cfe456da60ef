import { createRng } from '@rfckit/standards/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { accountClient } from './helpers/accounts.ts';
import { buildTestApp } from './helpers/app.ts';
import { describeEachDatabase } from './helpers/databases.ts';

const ROUNDS = 200;

const samples = [
  '',
  ' ',
  'a@b.c',
  'user@example.org',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '\u0000',
  '\ud800',
  '😀'.repeat(10),
  'ℌ𝔢𝔩𝔩𝔬',
  '\u202e',
  'A'.repeat(43),
  '../../etc/passwd',
  '%00',
  '${jndi:ldap://x}',
];
const fields = [
  'email',
  'password',
  'confirmPassword',
  'token',
  'refreshToken',
  'currentPassword',
  'newPassword',
  'firstName',
  'lastName',
  'company',
  'phone',
  '__proto__',
  'constructor',
];

function value(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * 12);
  switch (pick) {
    case 0:
      return null;
    case 1:
      return next() < 0.5;
    case 2:
      return Math.floor(next() * 2 ** 53) * (next() < 0.5 ? -1 : 1);
    case 3:
      return next() * 1e308;
    case 4:
      return depth > 3 ? 'deep' : [value(next, depth + 1), value(next, depth + 1)];
    case 5:
      return depth > 3 ? {} : body(next, depth + 1);
    case 6:
      // now and then a string near the 1 MiB body limit
      return next() < 0.05 ? 'x'.repeat(1_000_000) : 'y'.repeat(Math.floor(next() * 5000));
    case 7:
      return String.fromCodePoint(
        ...Array.from({ length: 20 }, () => Math.floor(next() * 0x10ffff) & ~0x800),
      );
    default:
      return samples[Math.floor(next() * samples.length)];
  }
}

function body(next: () => number, depth = 0): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  const count = Math.floor(next() * 5);
  for (let i = 0; i < count; i += 1) {
    const key = next() < 0.8 ? fields[Math.floor(next() * fields.length)] : `k${Math.floor(next() * 100)}`;
    result[key ?? 'x'] = value(next, depth);
  }
  return result;
}

function payload(next: () => number): string {
  const kind = next();
  if (kind < 0.05) return '{"email": ';
  if (kind < 0.1) return JSON.stringify(value(next, 0));
  return JSON.stringify(body(next));
}

describeEachDatabase('auth routes under random input', (database) => {
  let app: FastifyInstance;
  let token: string;

  beforeAll(async () => {
    app = await buildTestApp({ ...database.env(), RATE_LIMIT_SCALE: '100000' });
    const client = accountClient(app, () => database.env().DATA_DIR ?? '');
    token = (await client.signUp('fuzz@example.org')).token;
  });
  afterAll(async () => {
    await app.close();
  });

  const routes: [string, string, boolean][] = [
    ['POST', '/v1/auth/register', false],
    ['POST', '/v1/auth/login', false],
    ['POST', '/v1/auth/logout', false],
    ['POST', '/v1/auth/refresh', false],
    ['POST', '/v1/auth/resend-verification', false],
    ['POST', '/v1/auth/request-password-reset', false],
    ['POST', '/v1/auth/reset-password', false],
    ['PUT', '/v1/auth/profile', true],
    ['POST', '/v1/auth/change-password', true],
  ];

  it.each(routes)('%s %s never answers 5xx', { timeout: 120_000 }, async (method, url, authenticated) => {
    const next = createRng(url.length * 7919);
    for (let round = 0; round < ROUNDS; round += 1) {
      const sent = payload(next);
      const response = await app.inject({
        method: method as 'POST' | 'PUT',
        url,
        headers: {
          'content-type': 'application/json',
          ...(authenticated ? { authorization: `Bearer ${token}` } : {}),
          ...(next() < 0.2
            ? {
                cookie: `rfckit_refresh=${encodeURIComponent(String(value(next, 3)).slice(0, 300).toWellFormed())}`,
              }
            : {}),
        },
        payload: sent,
      });
      expect(response.statusCode, `round ${round}: ${sent.slice(0, 300)}`).toBeLessThan(500);
      expect(response.json().success, sent.slice(0, 300)).toBeTypeOf('boolean');
    }
  });

  it('GET /v1/auth/verify-email and /v1/organisation/activity never answer 5xx', async () => {
    const next = createRng(42);
    for (let round = 0; round < ROUNDS; round += 1) {
      const raw = String(value(next, 3)).slice(0, 2000).toWellFormed();
      const key = ['token', 'page', 'limit', 'dateFrom', 'dateTo', 'userId', 'action', 'user_id'][round % 8];
      for (const url of [
        `/v1/auth/verify-email?token=${encodeURIComponent(raw)}`,
        `/v1/organisation/activity?${key}=${encodeURIComponent(raw)}`,
      ]) {
        const response = await app.inject({ url, headers: { authorization: `Bearer ${token}` } });
        expect(response.statusCode, `${url.slice(0, 200)}`).toBeLessThan(500);
      }
    }
  });
});
