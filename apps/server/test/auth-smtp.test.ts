import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp } from './helpers/app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import {
  decodeQuotedPrintable,
  type SmtpCapture,
  smtpEnv,
  startSmtpCapture,
  tokenFromMail,
} from './helpers/mail.ts';

const PASSWORD = 'correct horse battery staple';

describeEachDatabase('accounts with an SMTP relay', (database) => {
  let app: FastifyInstance;
  let smtp: SmtpCapture;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    app = await buildTestApp({ ...database.env(), RATE_LIMIT_SCALE: '10000', ...smtpEnv(smtp) });
  });
  afterAll(async () => {
    await app.close();
    await smtp.close();
  });

  function post(url: string, body: unknown, headers: Record<string, string> = {}) {
    return app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', ...headers },
      payload: JSON.stringify(body),
    });
  }

  it('delivers the verification and reset mail over SMTP, with links from PUBLIC_URL', async () => {
    const email = 'smtp-user@example.org';
    const registered = await post('/v1/auth/register', {
      email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
    });
    expect(registered.statusCode).toBe(201);

    const verifyMail = await smtp.waitFor(
      (mail) => mail.to.includes(email) && /Confirm your email/.test(mail.raw),
    );
    expect(verifyMail.from).toBe('robot@rfckit.example.org');
    expect(verifyMail.raw).toMatch(/^From: rfckit test <robot@rfckit\.example\.org>\r?$/m);
    expect(verifyMail.raw).toMatch(/^Content-Type: multipart\/alternative/m);
    const decoded = decodeQuotedPrintable(verifyMail.raw);
    const token = tokenFromMail(verifyMail.raw);
    expect(decoded).toContain(`https://rfckit.example.org/v1/auth/verify-email?token=${token}`);
    expect(decoded).toContain(`<a href="https://rfckit.example.org/v1/auth/verify-email?token=${token}"`);

    // with a relay, nothing goes to the outbox
    expect(() => readdirSync(path.join(database.env().DATA_DIR ?? '', 'outbox'))).toThrow();

    const verified = await app.inject({ url: `/v1/auth/verify-email?token=${token}` });
    expect(verified.statusCode).toBe(200);

    const login = await post('/v1/auth/login', { email, password: PASSWORD });
    expect(login.statusCode).toBe(200);
    const { refreshToken } = login.json();

    // the Origin of a refresh must be PUBLIC_URL's
    const cookie = { cookie: `rfckit_refresh=${refreshToken}` };
    const local = await app.inject({
      method: 'POST',
      url: '/v1/auth/refresh',
      headers: { ...cookie, origin: 'http://localhost' },
    });
    expect(local.statusCode).toBe(403);
    const own = await app.inject({
      method: 'POST',
      url: '/v1/auth/refresh',
      headers: { ...cookie, origin: 'https://rfckit.example.org' },
    });
    expect(own.statusCode).toBe(200);

    const requested = await post('/v1/auth/request-password-reset', { email });
    expect(requested.statusCode).toBe(200);
    const resetMail = await smtp.waitFor(
      (mail) => mail.to.includes(email) && /Reset your rfckit password/.test(mail.raw),
    );
    const resetToken = tokenFromMail(resetMail.raw);
    expect(decodeQuotedPrintable(resetMail.raw)).toContain(
      `https://rfckit.example.org/reset-password?token=${resetToken}`,
    );
    const reset = await post('/v1/auth/reset-password', {
      token: resetToken,
      password: 'a different secret',
      confirmPassword: 'a different secret',
    });
    expect(reset.statusCode).toBe(200);
    expect((await post('/v1/auth/login', { email, password: 'a different secret' })).statusCode).toBe(200);
  });
});
