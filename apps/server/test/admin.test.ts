import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../src/admin.ts';
import { buildTestApp } from './helpers/app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { readOutbox, tokenFromMail } from './helpers/mail.ts';

const ADMIN_SCRIPT = path.resolve(import.meta.dirname, '../src/admin.ts');

async function run(argv: string[], env: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(
    argv,
    { LOG_LEVEL: 'silent', ...env },
    {
      out: (line) => out.push(line),
      err: (line) => err.push(line),
    },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describeEachDatabase('admin command', (database) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp({ ...database.env(), RATE_LIMIT_SCALE: '10000' });
  });
  afterAll(async () => {
    await app.close();
  });

  function login(email: string, password: string) {
    return app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email, password }),
    });
  }

  it('creates a verified admin with a new organisation, then a member joining it', async () => {
    const env = database.env();
    const created = await run(
      [
        'create-user',
        '--email',
        'Root@Example.org',
        '--password',
        'quiet harbour lamp',
        '--verified',
        '--org',
        'Ops Team',
      ],
      env,
    );
    expect(created.err).toBe('');
    expect(created.code).toBe(0);
    expect(created.out).toMatch(/^Created root@example\.org .*admin of "Ops Team", email verified\.$/);
    const root = await login('root@example.org', 'quiet harbour lamp');
    expect(root.statusCode).toBe(200);
    expect(root.json().user).toMatchObject({ role: 'admin', organisation: { name: 'Ops Team' } });

    const joined = await run(
      [
        'create-user',
        '--email',
        'helper@example.org',
        '--password',
        'amber kettle road',
        '--verified',
        '--org',
        'Ops Team',
      ],
      env,
    );
    expect(joined.code).toBe(0);
    expect(joined.out).toMatch(/member of "Ops Team" \(existing organisation\)/);
    const helper = await login('helper@example.org', 'amber kettle road');
    expect(helper.json().user).toMatchObject({
      role: 'member',
      organisation: { id: root.json().user.organisation.id },
    });

    const unverified = await run(
      ['create-user', '--email', 'later@example.org', '--password', 'violet canyon step'],
      env,
    );
    expect(unverified.out).toMatch(/NOT verified/);
    expect((await login('later@example.org', 'violet canyon step')).statusCode).toBe(403);
  });

  it('prints a working reset link and writes the mail', async () => {
    const env = database.env();
    await run(
      ['create-user', '--email', 'forgetful@example.org', '--password', 'first password', '--verified'],
      env,
    );
    const skip = readOutbox(env.DATA_DIR ?? '').length;
    const result = await run(['reset-password', '--email', 'FORGETFUL@example.org'], env);
    expect(result.code).toBe(0);
    const link = /^(http:\/\/localhost:8080\/reset-password\?token=\S+)$/m.exec(result.out)?.[1];
    expect(link).toBeDefined();
    const mail = readOutbox(env.DATA_DIR ?? '').slice(skip);
    expect(mail).toHaveLength(1);
    const token = tokenFromMail(mail[0]?.raw ?? '');
    expect(link).toBe(`http://localhost:8080/reset-password?token=${token}`);
    const reset = await app.inject({
      method: 'POST',
      url: '/v1/auth/reset-password',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ token, password: 'second password', confirmPassword: 'second password' }),
    });
    expect(reset.statusCode).toBe(200);
    expect((await login('forgetful@example.org', 'second password')).statusCode).toBe(200);
  });

  describe('bad input', () => {
    it.each([
      [[], 2, /Usage:/],
      [['frobnicate'], 2, /Unknown command "frobnicate"/],
      [['create-user', '--password', 'long enough'], 2, /--email is required/],
      [['create-user', '--email', 'nope', '--password', 'long enough'], 2, /"nope" is not an email address/],
      [['create-user', '--email', 'a@example.org', '--password', 'short'], 2, /at least 8 characters/],
      [['create-user', '--email', 'a@example.org', '--password', '12345678'], 2, /too common/],
      [
        ['create-user', '--email', 'carol@example.org', '--password', 'carol-2026!'],
        2,
        /must not contain your email/,
      ],
      [
        ['create-user', '--email', 'a@example.org', '--password', 'long enough', '--role', 'owner'],
        2,
        /--role must be admin or member/,
      ],
      [
        ['create-user', '--email', 'a@example.org', '--password', 'long enough', '--colour', 'red'],
        2,
        /Unknown option '--colour'/,
      ],
      [['reset-password', '--email', 'ghost@example.org'], 1, /No user with the email ghost@example\.org/],
    ])('%j exits %i', async (argv, code, message) => {
      const result = await run(argv as string[], database.env());
      expect(result.code).toBe(code);
      expect(`${result.out}\n${result.err}`).toMatch(message);
    });

    it('refuses a duplicate email', async () => {
      const env = database.env();
      await run(['create-user', '--email', 'twice@example.org', '--password', 'long enough'], env);
      const again = await run(
        ['create-user', '--email', 'twice@example.org', '--password', 'long enough'],
        env,
      );
      expect(again.code).toBe(1);
      expect(again.err).toMatch(/An account with this email already exists/);
    });
  });

  it('runs as a process via npm run admin', async () => {
    const result = await promisify(execFile)(
      process.execPath,
      [
        ADMIN_SCRIPT,
        'create-user',
        '--email',
        'process@example.org',
        '--password',
        'long enough',
        '--verified',
      ],
      { env: { ...process.env, ...database.env(), LOG_LEVEL: 'silent' } },
    );
    expect(result.stdout).toMatch(/^Created process@example\.org/);
    const failed = await promisify(execFile)(process.execPath, [ADMIN_SCRIPT, 'create-user'], {
      env: { ...process.env, ...database.env() },
    }).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 2 });
    expect((failed as { stderr: string }).stderr).toMatch(/--email is required/);
  });
});
