import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountClient, PASSWORD } from './helpers/accounts.ts';
import { buildTestApp, captureLogs, type LogCapture } from './helpers/app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { SessionChecker } from '../src/auth/session-check.ts';
import { decodeQuotedPrintable, readOutbox, tokenFromMail, waitForOutbox } from './helpers/mail.ts';

const RESET_MESSAGE = 'If an account with that email exists, you will receive a password reset link shortly.';

describeEachDatabase('accounts and sessions', (database) => {
  let app: FastifyInstance;
  let logs: LogCapture;
  let client: ReturnType<typeof accountClient>;
  const dataDir = () => database.env().DATA_DIR ?? '';

  beforeAll(async () => {
    logs = captureLogs();
    app = await buildTestApp({ ...database.env(), RATE_LIMIT_SCALE: '10000' }, logs);
    client = accountClient(app, dataDir);
  });
  afterAll(async () => {
    await app.close();
  });

  const { post, get } = {
    post: (...args: Parameters<ReturnType<typeof accountClient>['post']>) => client.post(...args),
    get: (...args: Parameters<ReturnType<typeof accountClient>['get']>) => client.get(...args),
  };

  it('registers, verifies, signs in, refreshes with rotation, detects reuse and signs out', async () => {
    const email = 'Alice@Example.ORG ';
    const skip = readOutbox(dataDir()).length;
    const registered = await post('/v1/auth/register', {
      email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      firstName: 'Alice',
      lastName: 'Liddell',
    });
    expect(registered.statusCode).toBe(201);
    expect(registered.json()).toMatchObject({
      success: true,
      data: {
        message: 'Registration successful! Please check your email to verify your account.',
        user: { email: 'alice@example.org' },
      },
    });

    // no SMTP_URL: a real RFC 5322 message in the outbox, and the link in the log
    const mail = await waitForOutbox(dataDir(), 'alice@example.org', 'verify', { skip });
    expect(mail.file).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z-verify\.eml$/);
    expect(mail.raw).toMatch(/^Subject: Confirm your email address for rfckit\r?$/m);
    expect(mail.raw).toMatch(/^From: rfckit <no-reply@localhost>\r?$/m);
    expect(mail.raw).toMatch(/multipart\/alternative/);
    expect(mail.raw).toMatch(/text\/plain/);
    expect(mail.raw).toMatch(/text\/html/);
    const token = tokenFromMail(mail.raw);
    // the log line follows the file: wait for it rather than race it
    await vi.waitFor(() => {
      const logged = logs.lines.find((line) => line.kind === 'verify' && line.to === 'alice@example.org');
      expect(logged?.link).toBe(`http://localhost:8080/v1/auth/verify-email?token=${token}`);
    });

    // not verified yet: a clear 403
    const early = await post('/v1/auth/login', { email: 'alice@example.org', password: PASSWORD });
    expect(early.statusCode).toBe(403);
    expect(early.json()).toMatchObject({ success: false, code: 'EMAIL_NOT_VERIFIED' });
    expect(early.json().error).toMatch(/verify your email/i);
    expect(early.json().error).toMatch(/request a new one/i);

    const verified = await client.verify(token);
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({ success: true, data: { email: 'alice@example.org' } });
    const again = await client.verify(token);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ success: false, code: 'INVALID_TOKEN' });

    const login = await post('/v1/auth/login', { email: ' ALICE@example.org', password: PASSWORD });
    expect(login.statusCode).toBe(200);
    const body = login.json();
    expect(Object.keys(body).sort()).toEqual(['refreshToken', 'success', 'token', 'user']);
    expect(body.user).toEqual({
      id: expect.any(String),
      email: 'alice@example.org',
      firstName: 'Alice',
      lastName: 'Liddell',
      name: 'Alice Liddell',
      role: 'admin',
      organisation: { id: expect.any(String), name: "alice's organisation" },
      emailVerified: true,
    });
    const cookie = String(login.headers['set-cookie']);
    expect(cookie).toMatch(new RegExp(`^rfckit_refresh=${body.refreshToken};`));
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(cookie).toMatch(/; Path=\/v1\/auth(;|$)/);
    expect(login.headers['cache-control']).toBe('no-store');

    // the access token: HS256 with iss, aud, sub, org, role, sid, about 15 minutes
    const [header, payload] = body.token
      .split('.')
      .slice(0, 2)
      .map((part: string) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    expect(header.alg).toBe('HS256');
    expect(payload).toMatchObject({
      iss: 'rfckit',
      aud: 'rfckit-api',
      sub: body.user.id,
      org: body.user.organisation.id,
      role: 'admin',
      sid: expect.any(String),
    });
    expect(payload.exp - payload.iat).toBe(900);

    const profile = await get('/v1/auth/profile', body.token);
    expect(profile.statusCode).toBe(200);
    expect(profile.json().data.user).toMatchObject({
      id: body.user.id,
      email: 'alice@example.org',
      company: null,
      phone: null,
      pendingEmail: null,
    });
    // the /api/v1 alias serves the same route
    expect((await get('/api/v1/auth/profile', body.token)).statusCode).toBe(200);

    // rotation: the old token yields a new pair once
    const first = await client.refresh(body.refreshToken);
    expect(first.statusCode).toBe(200);
    const rotated = first.json().data;
    expect(rotated).toEqual({ token: expect.any(String), expiresIn: 900 });
    const newCookie = String(first.headers['set-cookie']);
    const newRefresh = /^rfckit_refresh=([^;]+)/.exec(newCookie)?.[1] ?? '';
    expect(newRefresh).not.toBe(body.refreshToken);
    expect((await get('/v1/auth/profile', rotated.token)).statusCode).toBe(200);

    // reuse of the rotated token revokes the family: the newest token fails as well
    const reused = await client.refresh(body.refreshToken);
    expect(reused.statusCode).toBe(401);
    expect(reused.json()).toMatchObject({ success: false, code: 'INVALID_REFRESH_TOKEN' });
    expect(String(reused.headers['set-cookie'])).toMatch(/^rfckit_refresh=;/);
    const afterReuse = await client.refresh(newRefresh);
    expect(afterReuse.statusCode).toBe(401);

    // a fresh sign-in is unaffected, and logout ends it
    const second = await client.login('alice@example.org');
    const loggedOut = await post('/v1/auth/logout', undefined, {
      cookie: `rfckit_refresh=${second.refreshToken}`,
      authorization: `Bearer ${second.token}`,
    });
    expect(loggedOut.statusCode).toBe(200);
    expect(loggedOut.json()).toEqual({ success: true, data: { message: 'Signed out' } });
    const cleared = String(loggedOut.headers['set-cookie']);
    expect(cleared).toMatch(/^rfckit_refresh=;/);
    expect(cleared).toMatch(/Path=\/v1\/auth/);
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect((await client.refresh(second.refreshToken)).statusCode).toBe(401);
  });

  it('accepts the refresh token in the body and answers the new one there', async () => {
    const session = await client.signUp('body-refresh@example.org');
    const response = await post('/v1/auth/refresh', { refreshToken: session.refreshToken });
    expect(response.statusCode).toBe(200);
    const data = response.json().data;
    expect(data.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await post('/v1/auth/refresh', { refreshToken: data.refreshToken })).statusCode).toBe(200);
    expect((await post('/v1/auth/refresh', {})).statusCode).toBe(401);
    expect((await post('/v1/auth/refresh')).statusCode).toBe(401);
  });

  it('refuses a refresh from another origin', async () => {
    const session = await client.signUp('origin@example.org');
    const foreign = await client.refresh(session.refreshToken, { origin: 'https://evil.example' });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toMatchObject({ success: false, code: 'ORIGIN_NOT_ALLOWED' });
    expect((await client.refresh(session.refreshToken, { origin: 'null' })).statusCode).toBe(403);
    // the token was not used up by the refused calls; the request's own origin is accepted
    const same = await client.refresh(session.refreshToken, { origin: 'http://localhost' });
    expect(same.statusCode).toBe(200);
  });

  it('answers unknown email and wrong password alike', async () => {
    await client.signUp('bob@example.org');
    const unknown = await post('/v1/auth/login', { email: 'nobody@example.org', password: PASSWORD });
    const wrong = await post('/v1/auth/login', { email: 'bob@example.org', password: 'not the password' });
    for (const response of [unknown, wrong]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        success: false,
        error: 'Invalid email or password',
        code: 'INVALID_CREDENTIALS',
      });
    }
    const missing = await post('/v1/auth/login', { email: '', password: '' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe('Email and password are required');
  });

  it('checks registration fields in the spec order with its messages', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'All fields are required'],
      [{ email: 'x@example.org', password: 'short' }, 'All fields are required'],
      [{ email: '', password: 'short', confirmPassword: 'other' }, 'All fields are required'],
      [
        { email: 'x@example.org', password: 'short', confirmPassword: 'other' },
        'Password must be at least 8 characters long',
      ],
      [
        { email: 'x@example.org', password: 'long enough', confirmPassword: 'different!' },
        'Passwords do not match',
      ],
      [
        { email: 'not an email', password: 'long enough', confirmPassword: 'long enough' },
        'Please enter a valid email address',
      ],
      [
        { email: `${'a'.repeat(250)}@example.org`, password: 'long enough', confirmPassword: 'long enough' },
        'Email must be at most 254 characters',
      ],
      [
        { email: 'x@example.org', password: 'long enough', confirmPassword: 'long enough', role: 'admin' },
        'Unknown field "role"',
      ],
    ];
    for (const [body, message] of cases) {
      const response = await post('/v1/auth/register', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toEqual({ success: false, error: message, code: 'VALIDATION_ERROR' });
    }
  });

  it('creates no second account for the same email, whatever its case', async () => {
    await client.register('carol@example.org');
    const duplicate = await post('/v1/auth/register', {
      email: '  CAROL@example.org',
      password: PASSWORD,
      confirmPassword: PASSWORD,
    });
    // the same answer as for a new address: it must not tell that the address is taken
    expect(duplicate.statusCode).toBe(201);
    await app.mailer.idle();
    const rows = await app.db
      .selectFrom('user')
      .select('id')
      .where('email', '=', 'carol@example.org')
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('resends the verification link; only the newest link works', async () => {
    const oldToken = await client.register('dave@example.org');
    const skip = readOutbox(dataDir()).length;
    const resent = await post('/v1/auth/resend-verification', { email: 'dave@example.org' });
    expect(resent.statusCode).toBe(200);
    const unknown = await post('/v1/auth/resend-verification', { email: 'nobody@example.org' });
    expect(unknown.body).toBe(resent.body);
    const mail = await waitForOutbox(dataDir(), 'dave@example.org', 'verify', { skip });
    const newToken = tokenFromMail(mail.raw);
    expect(newToken).not.toBe(oldToken);
    expect((await client.verify(oldToken)).statusCode).toBe(400);
    expect((await client.verify(newToken)).statusCode).toBe(200);
  });

  it('redirects a browser following the verification link to the sign-in page', async () => {
    const token = await client.register('browser@example.org');
    const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
    const ok = await get(`/v1/auth/verify-email?token=${token}`, undefined, html);
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe('http://localhost:8080/login?verified=1');
    const used = await get(`/v1/auth/verify-email?token=${token}`, undefined, html);
    expect(used.statusCode).toBe(303);
    expect(used.headers.location).toBe('http://localhost:8080/login?verification=failed');
    const missing = await get('/v1/auth/verify-email');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe('Verification token is required');
  });

  describe('access tokens', () => {
    async function signed(secret: string, claims: Record<string, unknown>, exp: number) {
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer('rfckit')
        .setAudience('rfckit-api')
        .setSubject(String(claims.sub ?? 'someone'))
        .setIssuedAt(exp - 900)
        .setExpirationTime(exp)
        .sign(new TextEncoder().encode(secret));
    }

    it('rejects a missing, malformed, foreign or expired token', async () => {
      const claims = { org: 'o', role: 'admin', sid: 's' };
      const now = Math.floor(Date.now() / 1000);
      const expired = await signed(app.config.jwtSecret, claims, now - 60);
      const foreign = await signed('another secret that is long enough to be one', claims, now + 600);
      const valid = await signed(app.config.jwtSecret, claims, now + 600);

      const none = await get('/v1/auth/profile');
      expect(none.statusCode).toBe(401);
      expect(none.json()).toEqual({ success: false, error: 'Authentication required', code: 'UNAUTHORIZED' });
      expect(none.headers['www-authenticate']).toBe('Bearer realm="rfckit"');

      const stale = await get('/v1/auth/profile', expired);
      expect(stale.statusCode).toBe(401);
      expect(stale.json()).toEqual({ success: false, error: 'Access token expired', code: 'TOKEN_EXPIRED' });

      for (const token of [foreign, 'not-a-jwt', `${valid.slice(0, -2)}xx`]) {
        const response = await get('/v1/auth/profile', token);
        expect(response.statusCode).toBe(401);
        expect(response.json().code).toBe('UNAUTHORIZED');
      }
      // a well-signed token whose user does not exist
      expect((await get('/v1/auth/profile', valid)).statusCode).toBe(401);
      // an alg=none token
      const none64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const unsigned = `${none64({ alg: 'none' })}.${none64({ sub: 'x', ...claims, exp: now + 600, iss: 'rfckit', aud: 'rfckit-api' })}.`;
      expect((await get('/v1/auth/profile', unsigned)).statusCode).toBe(401);
    });

    it('signs out with an expired access token when the refresh cookie is valid, and always answers 200', async () => {
      const session = await client.signUp('erin@example.org');
      const payload = JSON.parse(Buffer.from(session.token.split('.')[1] ?? '', 'base64url').toString());
      const now = Math.floor(Date.now() / 1000);
      const expired = await signed(app.config.jwtSecret, payload, now - 60);
      const response = await post('/v1/auth/logout', undefined, {
        authorization: `Bearer ${expired}`,
        cookie: `rfckit_refresh=${session.refreshToken}`,
      });
      expect(response.statusCode).toBe(200);
      expect((await client.refresh(session.refreshToken)).statusCode).toBe(401);

      // by the (expired) access token alone
      const other = await client.login('erin@example.org');
      const otherPayload = JSON.parse(Buffer.from(other.token.split('.')[1] ?? '', 'base64url').toString());
      const otherExpired = await signed(app.config.jwtSecret, otherPayload, now - 60);
      expect(
        (await post('/v1/auth/logout', undefined, { authorization: `Bearer ${otherExpired}` })).statusCode,
      ).toBe(200);
      expect((await client.refresh(other.refreshToken)).statusCode).toBe(401);

      for (const headers of [
        {},
        { cookie: 'rfckit_refresh=garbage' },
        { authorization: 'Bearer nonsense' },
      ] as Record<string, string>[]) {
        const anonymous = await post('/v1/auth/logout', undefined, headers);
        expect(anonymous.statusCode).toBe(200);
        expect(String(anonymous.headers['set-cookie'])).toMatch(/^rfckit_refresh=;/);
      }
    });
  });

  describe('ending access', () => {
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    const toolCall = (token: string) =>
      app.inject({
        method: 'POST',
        url: '/v1/dnskey/validate',
        headers: { ...bearer(token), 'content-type': 'application/json' },
        payload: JSON.stringify({
          record: 'example.com. 3600 IN DNSKEY 257 3 15 l02Woi0iS8Aa25FQkUd9RMzZHJpBoRQwAQEX1SxZJA4=',
        }),
      });

    it('refuses an access token at once after sign-out, though it has not expired', async () => {
      const session = await client.signUp('ended-logout@example.org');
      expect((await get('/v1/auth/profile', session.token)).statusCode).toBe(200);
      expect((await toolCall(session.token)).statusCode).toBe(200);
      await post('/v1/auth/logout', undefined, bearer(session.token));
      const after = await get('/v1/auth/profile', session.token);
      expect(after.statusCode).toBe(401);
      expect(after.json().code).toBe('UNAUTHORIZED');
      expect((await toolCall(session.token)).statusCode).toBe(401);
    });

    it('refuses the access tokens of a sign-in whose refresh token was reused', async () => {
      const session = await client.signUp('ended-reuse@example.org');
      const rotated = await client.refresh(session.refreshToken);
      const fresh = rotated.json().data.token as string;
      expect((await get('/v1/auth/profile', fresh)).statusCode).toBe(200);
      expect((await client.refresh(session.refreshToken)).statusCode).toBe(401);
      expect((await get('/v1/auth/profile', fresh)).statusCode).toBe(401);
      expect((await get('/v1/auth/profile', session.token)).statusCode).toBe(401);
    });

    it('refuses every access token of a user after a password reset', async () => {
      const session = await client.signUp('ended-reset@example.org');
      expect((await toolCall(session.token)).statusCode).toBe(200);
      const skip = readOutbox(dataDir()).length;
      await post('/v1/auth/request-password-reset', { email: 'ended-reset@example.org' });
      const mail = await waitForOutbox(dataDir(), 'ended-reset@example.org', 'reset', { skip });
      const reset = await post('/v1/auth/reset-password', {
        token: tokenFromMail(mail.raw),
        password: 'brand new secret',
        confirmPassword: 'brand new secret',
      });
      expect(reset.statusCode).toBe(200);
      expect((await toolCall(session.token)).statusCode).toBe(401);
    });

    it('refuses the access token of a deleted user on tool routes', async () => {
      const session = await client.signUp('ended-deleted@example.org');
      await app.db.deleteFrom('user').where('id', '=', session.user.id).execute();
      expect((await toolCall(session.token)).statusCode).toBe(401);
      expect((await get('/v1/auth/profile', session.token)).statusCode).toBe(401);
    });

    it('looks at a session again after at most 5 s', async () => {
      const session = await client.signUp('ended-cache@example.org');
      const sid = JSON.parse(Buffer.from(session.token.split('.')[1] ?? '', 'base64url').toString()).sid;
      let now = Date.now();
      // a second checker on the same database plays another server process
      const elsewhere = new SessionChecker(app.db, { now: () => now });
      expect(await elsewhere.isLive(sid, session.user.id)).toBe(true);
      await app.db
        .updateTable('session')
        .set({ revoked_at: new Date().toISOString() })
        .where('id', '=', sid)
        .execute();
      now += 4_999;
      expect(await elsewhere.isLive(sid, session.user.id)).toBe(true);
      now += 2;
      expect(await elsewhere.isLive(sid, session.user.id)).toBe(false);
      // a session id under another user's name is no session of theirs
      const other = await client.signUp('ended-cache-other@example.org');
      expect(await elsewhere.isLive(sid, other.user.id)).toBe(false);
    });
  });

  it('changes the password, signing out every other session', async () => {
    const a = await client.signUp('frank@example.org');
    const b = await client.login('frank@example.org');

    const wrong = await post(
      '/v1/auth/change-password',
      { currentPassword: 'not it at all', newPassword: 'a new password', confirmPassword: 'a new password' },
      { authorization: `Bearer ${a.token}` },
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'INVALID_PASSWORD', error: 'Current password is incorrect' });
    const mismatch = await post(
      '/v1/auth/change-password',
      { currentPassword: PASSWORD, newPassword: 'a new password', confirmPassword: 'another one' },
      { authorization: `Bearer ${a.token}` },
    );
    expect(mismatch.json().error).toBe('Passwords do not match');
    const anonymous = await post('/v1/auth/change-password', {
      currentPassword: PASSWORD,
      newPassword: 'a new password',
      confirmPassword: 'a new password',
    });
    expect(anonymous.statusCode).toBe(401);

    const changed = await post(
      '/v1/auth/change-password',
      { currentPassword: PASSWORD, newPassword: 'a new password', confirmPassword: 'a new password' },
      { authorization: `Bearer ${a.token}` },
    );
    expect(changed.statusCode).toBe(200);
    const data = changed.json().data;
    expect(data.message).toMatch(/successfully/);
    expect(String(changed.headers['set-cookie'])).toMatch(/^rfckit_refresh=/);

    expect((await client.refresh(b.refreshToken)).statusCode).toBe(401);
    expect((await client.refresh(a.refreshToken)).statusCode).toBe(401);
    expect((await client.refresh(data.refreshToken)).statusCode).toBe(200);
    expect(
      (await post('/v1/auth/login', { email: 'frank@example.org', password: PASSWORD })).statusCode,
    ).toBe(401);
    await client.login('frank@example.org', 'a new password');
  });

  it('resets a forgotten password end to end, answering the same for unknown addresses', async () => {
    const session = await client.signUp('grace@example.org');
    const skip = readOutbox(dataDir()).length;
    const known = await post('/v1/auth/request-password-reset', { email: 'GRACE@example.org' });
    const unknown = await post('/v1/auth/request-password-reset', { email: 'nobody-here@example.org' });
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual({ success: true, data: { message: RESET_MESSAGE } });
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    expect(Object.keys(unknown.headers).sort()).toEqual(Object.keys(known.headers).sort());

    const mail = await waitForOutbox(dataDir(), 'grace@example.org', 'reset', { skip });
    expect(mail.raw).toMatch(/^Subject: Reset your rfckit password\r?$/m);
    const token = tokenFromMail(mail.raw);
    expect(decodeQuotedPrintable(mail.raw)).toContain(`http://localhost:8080/reset-password?token=${token}`);
    await app.mailer.idle();
    expect(
      readOutbox(dataDir())
        .slice(skip)
        .filter((m) => m.raw.includes('nobody-here')),
    ).toEqual([]);

    const mismatch = await post('/api/v1/auth/reset-password', {
      token,
      password: 'brand new secret',
      confirmPassword: 'something else',
    });
    expect(mismatch.json()).toMatchObject({ error: 'Passwords do not match', code: 'VALIDATION_ERROR' });
    const short = await post('/api/v1/auth/reset-password', {
      token,
      password: 'short',
      confirmPassword: 'short',
    });
    expect(short.json().error).toBe('Password must be at least 8 characters long');
    const forged = await post('/api/v1/auth/reset-password', {
      token: 'A'.repeat(43),
      password: 'brand new secret',
      confirmPassword: 'brand new secret',
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().code).toBe('INVALID_TOKEN');

    const reset = await post('/api/v1/auth/reset-password', {
      token,
      password: 'brand new secret',
      confirmPassword: 'brand new secret',
    });
    expect(reset.statusCode).toBe(200);
    expect(reset.json().data.message).toMatch(/successfully/);
    const replay = await post('/api/v1/auth/reset-password', {
      token,
      password: 'yet another secret',
      confirmPassword: 'yet another secret',
    });
    expect(replay.statusCode).toBe(400);

    expect((await client.refresh(session.refreshToken)).statusCode).toBe(401);
    expect(
      (await post('/v1/auth/login', { email: 'grace@example.org', password: PASSWORD })).statusCode,
    ).toBe(401);
    await client.login('grace@example.org', 'brand new secret');
  });

  it('updates the profile and changes the email only once the new address is confirmed', async () => {
    const session = await client.signUp('heidi@example.org');
    const auth = { authorization: `Bearer ${session.token}` };
    const update = await app.inject({
      method: 'PUT',
      url: '/v1/auth/profile',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: JSON.stringify({
        firstName: ' Heidi ',
        lastName: 'Klum',
        company: 'Acme',
        phone: '+49 30 1234',
      }),
    });
    expect(update.statusCode).toBe(200);
    expect(update.json().data).toMatchObject({
      message: 'Profile updated successfully',
      user: {
        firstName: 'Heidi',
        lastName: 'Klum',
        name: 'Heidi Klum',
        company: 'Acme',
        phone: '+49 30 1234',
      },
    });

    const skip = readOutbox(dataDir()).length;
    const change = await app.inject({
      method: 'PUT',
      url: '/v1/auth/profile',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'heidi.new@example.org', phone: '', currentPassword: PASSWORD }),
    });
    expect(change.statusCode).toBe(200);
    expect(change.json().data.user).toMatchObject({
      email: 'heidi@example.org',
      pendingEmail: 'heidi.new@example.org',
      phone: null,
    });
    const mail = await waitForOutbox(dataDir(), 'heidi.new@example.org', 'email-change', { skip });
    expect((await client.verify(tokenFromMail(mail.raw))).statusCode).toBe(200);

    const profile = await client.get('/v1/auth/profile', session.token);
    expect(profile.json().data.user).toMatchObject({ email: 'heidi.new@example.org', pendingEmail: null });
    // the old address is told, with a link to undo it
    await waitForOutbox(dataDir(), 'heidi@example.org', 'email-changed', { skip });
    await client.login('heidi.new@example.org');
    expect(
      (await post('/v1/auth/login', { email: 'heidi@example.org', password: PASSWORD })).statusCode,
    ).toBe(401);
  });

  it('stores SQL and HTML in every text field literally', async () => {
    const nasty: [string, string, string, string] = [
      'Robert\'); DROP TABLE "user";--',
      '<script>alert(1)</script>',
      "' OR '1'='1",
      '"><img src=x onerror=alert(1)>',
    ];
    const email = "o'hara+test'--@example.org";
    const session = await client.signUp(email, PASSWORD, {
      firstName: nasty[0],
      lastName: nasty[1],
      company: nasty[2],
    });
    expect(session.user).toMatchObject({
      email,
      firstName: nasty[0],
      lastName: nasty[1],
      name: `${nasty[0]} ${nasty[1]}`,
    });
    expect(session.user.organisation.name).toBe(nasty[2]);

    const update = await app.inject({
      method: 'PUT',
      url: '/v1/auth/profile',
      headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({
        firstName: nasty[1],
        lastName: nasty[2],
        company: nasty[3],
        phone: nasty[0].slice(0, 50),
      }),
    });
    expect(update.statusCode).toBe(200);
    const user = (await client.get('/v1/auth/profile', session.token)).json().data.user;
    expect(user).toMatchObject({
      email,
      firstName: nasty[1],
      lastName: nasty[2],
      company: nasty[3],
      phone: nasty[0].slice(0, 50),
    });
    // the tables are all still there
    expect((await client.login(email)).user.email).toBe(email);
    for (const value of nasty) {
      const response = await post('/v1/auth/login', { email: value, password: value });
      expect(response.statusCode).toBe(401);
    }
  });

  it('refuses control characters and over-long fields with a 400', async () => {
    const session = await client.signUp('ivan@example.org');
    for (const body of [
      { firstName: 'nul\u0000byte' },
      { lastName: 'line\nbreak' },
      { company: 'x'.repeat(201) },
      { phone: '1'.repeat(51) },
      { firstName: '\ud800 lone surrogate' },
      { email: '' },
    ]) {
      const response = await app.inject({
        method: 'PUT',
        url: '/v1/auth/profile',
        headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().code).toBe('VALIDATION_ERROR');
    }
  });

  it('hashes passwords with argon2id and stores tokens hashed', async () => {
    const session = await client.signUp('judy@example.org');
    const user = await app.db
      .selectFrom('user')
      .selectAll()
      .where('email', '=', 'judy@example.org')
      .executeTakeFirst();
    expect(user?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const sessions = await app.db
      .selectFrom('session')
      .selectAll()
      .where('user_id', '=', session.user.id)
      .execute();
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.refresh_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(sessions[0]?.refresh_token_hash).not.toContain(session.refreshToken);
    const tokens = await app.db
      .selectFrom('email_token')
      .selectAll()
      .where('user_id', '=', session.user.id)
      .execute();
    expect(tokens.every((token) => /^[0-9a-f]{64}$/.test(token.token_hash) && token.used_at !== null)).toBe(
      true,
    );
  });
});
