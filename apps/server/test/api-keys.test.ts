import { createHash } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAccount } from '../src/auth/accounts.ts';
import { ApiKeyVerifier, generateApiKey } from '../src/auth/api-keys.ts';
import { createApiKey } from '../src/db/api-keys.ts';
import { accountClient, PASSWORD } from './helpers/accounts.ts';
import { buildTestApp } from './helpers/app.ts';
import { describeEachDatabase } from './helpers/databases.ts';

const RFC8080_DNSKEY = 'example.com. 3600 IN DNSKEY 257 3 15 l02Woi0iS8Aa25FQkUd9RMzZHJpBoRQwAQEX1SxZJA4=';
const KEY_SHAPE = /^rfk_[A-Za-z0-9_-]{43}$/;

interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  createdBy: { id: string; email: string; name: string | null } | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  revoked: boolean;
}

type Session = Awaited<ReturnType<ReturnType<typeof accountClient>['login']>>;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Method and path of every route, from the router's own listing (printRoutes draws a tree). */
function listRoutes(app: FastifyInstance): { method: string; url: string }[] {
  const routes: { method: string; url: string }[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:│ {3}| {4})*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (match === null) continue;
    const depth = (match[1] ?? '').length / 4;
    stack.length = depth;
    const url = (stack[depth - 1] ?? '') + (match[2] ?? '');
    stack[depth] = url;
    for (const method of match[3]?.split(', ') ?? []) routes.push({ method, url });
  }
  return routes;
}

/** An account made as the admin command does, signed in through the real login route. */
async function signedIn(
  app: FastifyInstance,
  email: string,
  extra: { organisationId?: string; role?: 'admin' | 'member'; company?: string } = {},
): Promise<Session> {
  await createAccount(app.db, { email, password: PASSWORD, verified: true, ...extra });
  return accountClient(app, () => '').login(email);
}

function authorization(token: string) {
  return { authorization: `Bearer ${token}` };
}

function validate(app: FastifyInstance, key: string, url = '/v1/dnskey/validate', remoteAddress?: string) {
  return app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', ...authorization(key) },
    payload: JSON.stringify({ record: RFC8080_DNSKEY }),
    ...(remoteAddress === undefined ? {} : { remoteAddress }),
  });
}

describeEachDatabase('organisation API keys', (database) => {
  let app: FastifyInstance;
  let admin: Session;
  let member: Session;
  let outsider: Session;

  beforeAll(async () => {
    app = await buildTestApp({ ...database.env(), RATE_LIMIT_SCALE: '10000' });
    admin = await signedIn(app, 'keys-admin@example.org', { company: 'Acme Ltd' });
    member = await signedIn(app, 'keys-member@example.org', {
      organisationId: admin.user.organisation.id,
      role: 'member',
    });
    outsider = await signedIn(app, 'keys-outsider@example.net', { company: 'Other Corp' });
  });
  afterAll(async () => {
    await app.close();
  });

  function call(
    session: Session,
    method: NonNullable<InjectOptions['method']>,
    url: string,
    body?: unknown,
  ): Promise<LightMyRequestResponse> {
    return app.inject({
      method,
      url,
      headers: {
        ...authorization(session.token),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  }

  async function create(name: string, session = admin): Promise<{ key: string; apiKey: ApiKeyView }> {
    const response = await call(session, 'POST', '/v1/organisation/api-keys', { name });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data;
  }

  async function list(session = admin): Promise<ApiKeyView[]> {
    const response = await call(session, 'GET', '/v1/organisation/api-keys');
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.apiKeys;
  }

  function revoke(id: string, session = admin) {
    return call(session, 'DELETE', `/v1/organisation/api-keys/${id}`);
  }

  async function activityDescriptions(): Promise<string[]> {
    const rows = await app.db
      .selectFrom('activity')
      .select('description')
      .where('organisation_id', '=', admin.user.organisation.id)
      .execute();
    return rows.map((row) => row.description);
  }

  it('creates a key, shows it once and stores only its SHA-256 and prefix', async () => {
    const response = await call(admin, 'POST', '/v1/organisation/api-keys', { name: '  CI pipeline ' });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    const { key, apiKey, message } = response.json().data as {
      key: string;
      apiKey: ApiKeyView;
      message: string;
    };
    expect(message).toBe('API key created successfully! Copy it now: it will not be shown again.');
    expect(key).toMatch(KEY_SHAPE);
    expect(apiKey).toMatchObject({
      name: 'CI pipeline',
      prefix: key.slice(0, 12),
      createdBy: { id: admin.user.id, email: 'keys-admin@example.org' },
      lastUsedAt: null,
      revokedAt: null,
      revoked: false,
    });

    const row = await app.db
      .selectFrom('api_key')
      .selectAll()
      .where('id', '=', apiKey.id)
      .executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(sha256(key));
    expect(JSON.stringify(row)).not.toContain(key.slice(12));

    const listed = await list();
    expect(listed.find((entry) => entry.id === apiKey.id)).toEqual(apiKey);
    const listBody = (await call(admin, 'GET', '/v1/organisation/api-keys')).body;
    expect(listBody).not.toContain(key);
    expect(listBody).not.toContain(row.key_hash);

    expect(await activityDescriptions()).toContain(`API key "CI pipeline" created (${key.slice(0, 12)}…)`);
    // two keys never collide
    const other = await create('Second key');
    expect(other.key).not.toBe(key);
  });

  it.each([
    ['a blank name', { name: '   ' }, 'Name is required'],
    ['no name', {}, 'Name is required'],
    ['a long name', { name: 'x'.repeat(101) }, 'Name must be at most 100 characters'],
    ['a control character', { name: 'a\nb' }, 'Name must not contain control characters'],
    ['an unknown field', { name: 'ok', scope: 'all' }, undefined],
  ])('refuses %s with 400', async (_case, body, message) => {
    const response = await call(admin, 'POST', '/v1/organisation/api-keys', body);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().code).toBe('VALIDATION_ERROR');
    if (message !== undefined) expect(response.json().error).toContain(message);
  });

  it('keeps names unique among active keys; a revoked key frees its name', async () => {
    const first = await create('Deploy');
    const taken = await call(admin, 'POST', '/v1/organisation/api-keys', { name: 'Deploy ' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({
      success: false,
      error: 'An active API key with this name already exists',
      code: 'API_KEY_NAME_TAKEN',
    });
    // another organisation may use the same name
    await create('Deploy', outsider);

    expect((await revoke(first.apiKey.id)).statusCode).toBe(200);
    const again = await create('Deploy');
    const names = (await list()).filter((entry) => entry.name === 'Deploy');
    expect(names.map((entry) => [entry.id, entry.revoked])).toEqual([
      [again.apiKey.id, false],
      [first.apiKey.id, true],
    ]);
  });

  it('lets a key call a tool route, under /v1 and /api/v1, and records its use at most once a minute', async () => {
    const { key, apiKey } = await create('Tool caller');
    const response = await validate(app, key);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ success: true, data: { valid: true } });
    expect((await validate(app, key, '/api/v1/dnskey/validate')).statusCode).toBe(200);

    await app.apiKeys.settle();
    const used = (await list()).find((entry) => entry.id === apiKey.id);
    expect(used?.lastUsedAt).not.toBeNull();
    expect(Date.parse(used?.lastUsedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(apiKey.createdAt));

    // a later call within the minute writes nothing
    await app.db
      .updateTable('api_key')
      .set({ last_used_at: '2000-01-01T00:00:00.000Z' })
      .where('id', '=', apiKey.id)
      .execute();
    expect((await validate(app, key)).statusCode).toBe(200);
    await app.apiKeys.settle();
    expect((await list()).find((entry) => entry.id === apiKey.id)?.lastUsedAt).toBe(
      '2000-01-01T00:00:00.000Z',
    );
  });

  it('refuses a revoked key at once; revoking again answers the same and is audited once', async () => {
    const { key, apiKey } = await create('Short-lived');
    expect((await validate(app, key)).statusCode).toBe(200);

    const revoked = await revoke(apiKey.id);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json().data).toMatchObject({
      message: 'API key revoked successfully!',
      apiKey: { id: apiKey.id, revoked: true },
    });
    const refused = await validate(app, key);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({
      success: false,
      error: 'Invalid or revoked API key',
      code: 'INVALID_API_KEY',
    });
    expect(refused.headers['www-authenticate']).toBe('Bearer realm="rfckit", error="invalid_token"');

    const repeated = await revoke(apiKey.id);
    expect(repeated.statusCode).toBe(200);
    expect(repeated.json().data.apiKey.revokedAt).toBe(revoked.json().data.apiKey.revokedAt);
    const audit = (await activityDescriptions()).filter((text) =>
      text.startsWith('API key "Short-lived" revoked'),
    );
    expect(audit).toEqual([`API key "Short-lived" revoked (${key.slice(0, 12)}…)`]);
  });

  it('refuses unknown and malformed keys on tool routes', async () => {
    const unknown = `rfk_${'A'.repeat(43)}`;
    expect((await validate(app, unknown)).json().code).toBe('INVALID_API_KEY');
    expect((await validate(app, 'rfk_short')).statusCode).toBe(401);
  });

  it("ends another process's cached key within its cache time", async () => {
    const { key, apiKey } = await create('Elsewhere');
    let now = Date.now();
    // a second verifier on the same database plays another server process
    const elsewhere = new ApiKeyVerifier(app.db, { now: () => now });
    expect(await elsewhere.verify(key)).toMatchObject({
      id: apiKey.id,
      organisationId: admin.user.organisation.id,
    });
    expect((await revoke(apiKey.id)).statusCode).toBe(200);
    now += 4_999;
    expect(await elsewhere.verify(key)).toBeDefined();
    now += 2;
    expect(await elsewhere.verify(key)).toBeUndefined();
    await elsewhere.settle();
  });

  it('refuses a key with 401 on every account, organisation and billing route', async () => {
    const { key } = await create('Not for accounts');
    const guarded = listRoutes(app).filter(
      (route) =>
        route.method !== 'HEAD' &&
        /^(?:\/api)?\/v1\/(?:auth|organi[sz]ation|billing)(?:\/|$)/.test(route.url),
    );
    // the listing found the routes this suite knows of, and more may come
    expect(guarded).toEqual(
      expect.arrayContaining([
        { method: 'POST', url: '/v1/auth/login' },
        { method: 'GET', url: '/v1/auth/profile' },
        { method: 'GET', url: '/v1/organisation/api-keys' },
        { method: 'DELETE', url: '/api/v1/organisation/api-keys/:id' },
      ]),
    );
    for (const route of guarded) {
      const url = route.url.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000');
      const withBody = ['POST', 'PUT', 'PATCH'].includes(route.method);
      const response = await app.inject({
        method: route.method as NonNullable<InjectOptions['method']>,
        url,
        headers: { ...authorization(key), ...(withBody ? { 'content-type': 'application/json' } : {}) },
        ...(withBody ? { payload: '{}' } : {}),
      });
      expect([route.method, route.url, response.statusCode, response.json().code]).toEqual([
        route.method,
        route.url,
        401,
        'API_KEY_NOT_ALLOWED',
      ]);
    }
    // and the key still works where it should
    expect((await validate(app, key)).statusCode).toBe(200);
  });

  it('requires a signed-in admin to list, create and revoke', async () => {
    const { apiKey } = await create('Admin only');
    for (const [method, url, body] of [
      ['GET', '/v1/organisation/api-keys', undefined],
      ['POST', '/v1/organisation/api-keys', { name: 'By a member' }],
      ['DELETE', `/v1/organisation/api-keys/${apiKey.id}`, undefined],
    ] as const) {
      const byMember = await call(member, method, url, body);
      expect(byMember.statusCode, `${method} ${url}`).toBe(403);
      expect(byMember.json()).toEqual({
        success: false,
        error: 'Only organisation admins can manage API keys',
        code: 'ADMIN_REQUIRED',
      });
      const anonymous = await app.inject({ method, url });
      expect(anonymous.statusCode).toBe(401);
    }
    expect((await list()).find((entry) => entry.id === apiKey.id)?.revoked).toBe(false);
    expect((await list()).some((entry) => entry.name === 'By a member')).toBe(false);
  });

  it("hides one organisation's keys from another, which cannot revoke them (404)", async () => {
    const { key, apiKey } = await create('Private');
    expect((await list(outsider)).some((entry) => entry.id === apiKey.id)).toBe(false);
    const response = await revoke(apiKey.id, outsider);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ success: false, error: 'API key not found', code: 'NOT_FOUND' });
    expect((await validate(app, key)).statusCode).toBe(200);
    expect((await revoke('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('describes the API key scheme on the tool routes in the OpenAPI document', async () => {
    const document = (await app.inject({ method: 'GET', url: '/docs/json' })).json();
    expect(document.components.securitySchemes.apiKeyAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.paths['/v1/dnskey/validate'].post.security).toEqual([
      { bearerAuth: [] },
      { apiKeyAuth: [] },
    ]);
    expect(document.paths['/v1/organisation/api-keys'].get.security).toEqual([{ bearerAuth: [] }]);
  });
});

describeEachDatabase('API key rate limits', (database) => {
  let app: FastifyInstance;
  let organisationId: string;
  let userId: string;

  beforeAll(async () => {
    // 60 calls a minute for tool routes of the default class, scaled down to 3
    app = await buildTestApp({ ...database.env(), RATE_LIMIT_SCALE: '0.05' });
    const account = await createAccount(app.db, {
      email: 'limits@example.org',
      password: PASSWORD,
      verified: true,
    });
    organisationId = account.organisation.id;
    userId = account.user.id;
  });
  afterAll(async () => {
    await app.close();
  });

  async function newKey(name: string): Promise<string> {
    // through the repository: the route itself is limited to one call a minute at this scale
    const generated = generateApiKey();
    await createApiKey(app.db, {
      organisationId,
      name,
      prefix: generated.prefix,
      keyHash: generated.hash,
      createdBy: userId,
    });
    return generated.key;
  }

  it('counts the calls of each key apart, whatever the address', async () => {
    const first = await newKey('first');
    const second = await newKey('second');
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1)
      statuses.push((await validate(app, first, undefined, '203.0.113.7')).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // a new address does not reset the key's count
    const moved = await validate(app, first, undefined, '198.51.100.9');
    expect(moved.statusCode).toBe(429);
    expect(moved.json().code).toBe('RATE_LIMITED');
    // another key from the first address has its own count
    const other = await validate(app, second, undefined, '203.0.113.7');
    expect(other.statusCode).toBe(200);
    expect(other.headers['x-ratelimit-remaining']).toBe('2');
  });
});
