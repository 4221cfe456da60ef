import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockDelayMs } from '../src/auth/login-throttle.ts';
import { accountClient, PASSWORD } from './helpers/accounts.ts';
import { buildTestApp } from './helpers/app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { readOutbox, tokenFromMail, waitForOutbox } from './helpers/mail.ts';

describe('lockDelayMs', () => {
  it('lets 4 failures pass, then waits 30 s doubling with each failure up to an hour', () => {
    expect([1, 4, 5, 6, 7, 10, 12, 40].map(lockDelayMs)).toEqual([
      0, 0, 30_000, 60_000, 120_000, 960_000, 3_600_000, 3_600_000,
    ]);
  });
});

describeEachDatabase('account protection', (database) => {
  let app: FastifyInstance;
  let client: ReturnType<typeof accountClient>;
  const dataDir = () => database.env().DATA_DIR ?? '';
  /** What the database held when each answer was about to be sent, by request URL. */
  const atSend: { url: string; users: number; resetTokens: number }[] = [];

  beforeAll(async () => {
    app = await buildTestApp({ ...database.env(), RATE_LIMIT_SCALE: '10000' });
    app.addHook('onSend', async (request) => {
      if (!request.url.includes('register') && !request.url.includes('password-reset')) return;
      const users = await app.db
        .selectFrom('user')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const tokens = await app.db
        .selectFrom('email_token')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('kind', '=', 'reset')
        .executeTakeFirstOrThrow();
      atSend.push({ url: request.url, users: Number(users.n), resetTokens: Number(tokens.n) });
    });
    client = accountClient(app, dataDir);
  });
  afterAll(async () => {
    await app.close();
  });

  const login = (email: string, password: string) => client.post('/v1/auth/login', { email, password });
  const profileUpdate = (token: string, body: unknown) =>
    app.inject({
      method: 'PUT',
      url: '/v1/auth/profile',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });

  describe('failed sign-ins per address', () => {
    it('pauses an address after 5 failures, even for the right password, and a known and an unknown address alike', async () => {
      await client.signUp('guessed@example.org');
      const run = async (email: string, password: string) => {
        const answers = [];
        for (let i = 0; i < 5; i++) answers.push(await login(email, 'wrong password'));
        answers.push(await login(email, password));
        return answers;
      };
      const skip = readOutbox(dataDir()).length;
      const known = await run('guessed@example.org', PASSWORD);
      const unknown = await run('never-registered@example.org', PASSWORD);
      for (const answers of [known, unknown]) {
        expect(answers.slice(0, 5).map((answer) => answer.statusCode)).toEqual([401, 401, 401, 401, 401]);
        const paused = answers[5];
        expect(paused?.statusCode).toBe(429);
        expect(paused?.json()).toMatchObject({ success: false, code: 'SIGN_IN_PAUSED' });
        expect(Number(paused?.headers['retry-after'])).toBeGreaterThan(0);
        expect(Number(paused?.headers['retry-after'])).toBeLessThanOrEqual(30);
      }
      for (let i = 0; i < 6; i++) {
        expect(unknown[i]?.body).toBe(known[i]?.body);
        expect(Object.keys(unknown[i]?.headers ?? {}).sort()).toEqual(
          Object.keys(known[i]?.headers ?? {}).sort(),
        );
      }

      // the owner is told once, with a link that lifts the wait
      const mail = await waitForOutbox(dataDir(), 'guessed@example.org', 'account-locked', { skip });
      expect(mail.raw).toMatch(/^Subject: Failed sign-ins to your rfckit account\r?$/m);
      await app.mailer.idle();
      const locked = readOutbox(dataDir())
        .slice(skip)
        .filter((m) => m.file.endsWith('-account-locked.eml'));
      expect(locked).toHaveLength(1);
      const token = tokenFromMail(mail.raw);
      const stored = await app.db.selectFrom('security_token').select('token_hash').execute();
      expect(stored.some((row) => row.token_hash.includes(token))).toBe(false);
      expect(stored.every((row) => /^[0-9a-f]{64}$/.test(row.token_hash))).toBe(true);

      const unlocked = await client.get(`/v1/auth/unlock?token=${token}`);
      expect(unlocked.statusCode).toBe(200);
      expect((await client.get(`/v1/auth/unlock?token=${token}`)).statusCode).toBe(400);
      expect((await login('guessed@example.org', PASSWORD)).statusCode).toBe(200);
      // the unknown address still waits
      expect((await login('never-registered@example.org', PASSWORD)).statusCode).toBe(429);
    });

    it('starts the count again after a successful sign-in', async () => {
      await client.signUp('forgetful@example.org');
      for (let i = 0; i < 4; i++)
        expect((await login('forgetful@example.org', 'nope nope')).statusCode).toBe(401);
      expect((await login('forgetful@example.org', PASSWORD)).statusCode).toBe(200);
      for (let i = 0; i < 4; i++)
        expect((await login('forgetful@example.org', 'nope nope')).statusCode).toBe(401);
      expect((await login('forgetful@example.org', PASSWORD)).statusCode).toBe(200);
    });

    it('redirects a browser following the unlock link to the sign-in page', async () => {
      const html = { accept: 'text/html' };
      const failed = await client.get(`/v1/auth/unlock?token=${'A'.repeat(43)}`, undefined, html);
      expect(failed.statusCode).toBe(303);
      expect(failed.headers.location).toBe('http://localhost:8080/login?unlock=failed');
    });
  });

  describe('address enumeration', () => {
    it('answers registration the same for a taken address, and tells its owner', async () => {
      await client.signUp('owner@example.org');
      const before = await app.db
        .selectFrom('user')
        .select('id')
        .where('email', '=', 'owner@example.org')
        .execute();
      const skip = readOutbox(dataDir()).length;
      const body = (email: string) => ({
        email,
        password: 'another passphrase',
        confirmPassword: 'another passphrase',
      });
      const taken = await client.post('/v1/auth/register', body('Owner@Example.org'));
      const fresh = await client.post('/v1/auth/register', body('newcomer@example.org'));
      expect(taken.statusCode).toBe(201);
      expect(fresh.statusCode).toBe(201);
      expect(taken.body.replace('owner@example.org', 'X')).toBe(
        fresh.body.replace('newcomer@example.org', 'X'),
      );
      expect(Object.keys(taken.headers).sort()).toEqual(Object.keys(fresh.headers).sort());

      const notice = await waitForOutbox(dataDir(), 'owner@example.org', 'registration-attempt', { skip });
      expect(notice.raw).toMatch(/already has an account/);
      await waitForOutbox(dataDir(), 'newcomer@example.org', 'verify', { skip });
      const after = await app.db
        .selectFrom('user')
        .select('id')
        .where('email', '=', 'owner@example.org')
        .execute();
      expect(after).toEqual(before);
      // the original password still signs in
      expect((await login('owner@example.org', PASSWORD)).statusCode).toBe(200);
    });

    it('does the registration and reset work only after the answer is sent', async () => {
      await client.signUp('timing@example.org');
      await app.mailer.idle();
      const users = await app.db
        .selectFrom('user')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const resets = await app.db
        .selectFrom('email_token')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('kind', '=', 'reset')
        .executeTakeFirstOrThrow();
      atSend.length = 0;
      const skip = readOutbox(dataDir()).length;
      await client.post('/v1/auth/request-password-reset', { email: 'timing@example.org' });
      // when the answer was sent, nothing had been looked up or stored yet; afterwards it was
      expect(atSend).toEqual([
        { url: '/v1/auth/request-password-reset', users: Number(users.n), resetTokens: Number(resets.n) },
      ]);
      await waitForOutbox(dataDir(), 'timing@example.org', 'reset', { skip });

      await client.post('/v1/auth/register', {
        email: 'timing-new@example.org',
        password: 'another passphrase',
        confirmPassword: 'another passphrase',
      });
      expect(atSend[1]).toEqual({
        url: '/v1/auth/register',
        users: Number(users.n),
        resetTokens: Number(resets.n) + 1,
      });
      await waitForOutbox(dataDir(), 'timing-new@example.org', 'verify', { skip });
    });

    it('answers an email change to a taken address as to a free one, and tells its owner instead', async () => {
      await client.signUp('holder@example.org');
      const mover = await client.signUp('mover@example.org');
      const skip = readOutbox(dataDir()).length;
      const taken = await profileUpdate(mover.token, {
        email: 'holder@example.org',
        currentPassword: PASSWORD,
      });
      const free = await profileUpdate(mover.token, { email: 'free@example.org', currentPassword: PASSWORD });
      expect(taken.statusCode).toBe(200);
      expect(free.statusCode).toBe(200);
      expect(taken.body.replaceAll('holder@example.org', 'X')).toBe(
        free.body.replaceAll('free@example.org', 'X'),
      );
      await waitForOutbox(dataDir(), 'holder@example.org', 'email-change-attempt', { skip });
      await waitForOutbox(dataDir(), 'free@example.org', 'email-change', { skip });
      await app.mailer.idle();
      expect(
        readOutbox(dataDir())
          .slice(skip)
          .filter((m) => m.file.endsWith('Z-email-change.eml') && m.raw.includes('holder@example.org')),
      ).toEqual([]);
    });
  });

  describe('new passwords (NIST SP 800-63B)', () => {
    it('refuses common passwords, one repeated character and the address on every route that sets one', async () => {
      const register = (email: string, password: string) =>
        client.post('/v1/auth/register', { email, password, confirmPassword: password });
      const cases: [string, string, string][] = [
        [
          'weak-1@example.org',
          'password',
          'This password is too common and easy to guess: please choose another one',
        ],
        [
          'weak-2@example.org',
          '12345678',
          'This password is too common and easy to guess: please choose another one',
        ],
        ['weak-3@example.org', ' '.repeat(8), 'Password must not be one character repeated'],
        ['weak-4@example.org', 'weak-4@example.org', 'Password must not contain your email address'],
      ];
      for (const [email, password, error] of cases) {
        const response = await register(email, password);
        expect(response.statusCode, password).toBe(400);
        expect(response.json()).toEqual({ success: false, error, code: 'VALIDATION_ERROR' });
      }
      const session = await client.signUp('policy@example.org');
      const change = (newPassword: string) =>
        client.post(
          '/v1/auth/change-password',
          { currentPassword: PASSWORD, newPassword, confirmPassword: newPassword },
          { authorization: `Bearer ${session.token}` },
        );
      expect((await change('12345678')).json().error).toBe(
        'This password is too common and easy to guess: please choose another one',
      );
      expect((await change('policy-2024-secret')).json().error).toBe(
        'Password must not contain your email address',
      );
    });
  });

  describe('changing the email or the password', () => {
    it('needs the current password to change the email', async () => {
      const session = await client.signUp('careful@example.org');
      const missing = await profileUpdate(session.token, { email: 'elsewhere@example.org' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toMatchObject({ code: 'INVALID_PASSWORD' });
      const wrong = await profileUpdate(session.token, {
        email: 'elsewhere@example.org',
        currentPassword: 'guess',
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({
        success: false,
        error: 'Current password is incorrect',
        code: 'INVALID_PASSWORD',
      });
      const profile = (await client.get('/v1/auth/profile', session.token)).json().data.user;
      expect(profile.pendingEmail).toBeNull();
      // other fields need no password
      expect((await profileUpdate(session.token, { firstName: 'Cara' })).statusCode).toBe(200);
    });

    it('tells the old address of a confirmed change, with a link that puts it back and signs out everywhere', async () => {
      const session = await client.signUp('victim@example.org');
      let skip = readOutbox(dataDir()).length;
      expect(
        (await profileUpdate(session.token, { email: 'attacker@example.net', currentPassword: PASSWORD }))
          .statusCode,
      ).toBe(200);
      const confirm = await waitForOutbox(dataDir(), 'attacker@example.net', 'email-change', { skip });
      skip = readOutbox(dataDir()).length;
      expect((await client.verify(tokenFromMail(confirm.raw))).statusCode).toBe(200);
      const notice = await waitForOutbox(dataDir(), 'victim@example.org', 'email-changed', { skip });
      expect(notice.raw).toMatch(/attacker@example\.net/);
      expect((await client.get('/v1/auth/profile', session.token)).json().data.user.email).toBe(
        'attacker@example.net',
      );

      skip = readOutbox(dataDir()).length;
      const undo = await client.get(`/v1/auth/undo-change?token=${tokenFromMail(notice.raw)}`);
      expect(undo.statusCode).toBe(200);
      expect((await client.get(`/v1/auth/undo-change?token=${tokenFromMail(notice.raw)}`)).statusCode).toBe(
        400,
      );
      // every session ended, the password that the change was made with no longer works
      expect((await client.get('/v1/auth/profile', session.token)).statusCode).toBe(401);
      expect((await client.refresh(session.refreshToken)).statusCode).toBe(401);
      expect((await login('victim@example.org', PASSWORD)).statusCode).toBe(401);
      expect((await login('attacker@example.net', PASSWORD)).statusCode).toBe(401);
      // the restored address picks a new password
      const reset = await waitForOutbox(dataDir(), 'victim@example.org', 'reset', { skip });
      const done = await client.post('/v1/auth/reset-password', {
        token: tokenFromMail(reset.raw),
        password: 'my own passphrase again',
        confirmPassword: 'my own passphrase again',
      });
      expect(done.statusCode).toBe(200);
      expect((await login('victim@example.org', 'my own passphrase again')).statusCode).toBe(200);
    });

    it('tells the owner of a password change, with a link that signs out everywhere', async () => {
      const session = await client.signUp('pw-owner@example.org');
      const skip = readOutbox(dataDir()).length;
      const changed = await client.post(
        '/v1/auth/change-password',
        {
          currentPassword: PASSWORD,
          newPassword: 'a changed passphrase',
          confirmPassword: 'a changed passphrase',
        },
        { authorization: `Bearer ${session.token}` },
      );
      expect(changed.statusCode).toBe(200);
      const fresh = changed.json().data.token as string;
      const notice = await waitForOutbox(dataDir(), 'pw-owner@example.org', 'password-changed', { skip });
      expect((await client.get(`/v1/auth/undo-change?token=${tokenFromMail(notice.raw)}`)).statusCode).toBe(
        200,
      );
      expect((await client.get('/v1/auth/profile', fresh)).statusCode).toBe(401);
      expect((await login('pw-owner@example.org', 'a changed passphrase')).statusCode).toBe(401);
    });
  });
});
