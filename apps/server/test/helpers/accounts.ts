import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { readOutbox, tokenFromMail, waitForOutbox } from './mail.ts';
import { createAccount } from '../../src/auth/accounts.ts';

export const PASSWORD = 'correct horse battery staple';

/** Requests and account chores for the auth suites, all through `app.inject`. */
export function accountClient(app: FastifyInstance, dataDir: () => string) {
  function post(url: string, body?: unknown, headers: Record<string, string> = {}) {
    return app.inject({
      method: 'POST',
      url,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  }

  function get(url: string, token?: string, headers: Record<string, string> = {}) {
    return app.inject({
      method: 'GET',
      url,
      headers: token === undefined ? headers : { authorization: `Bearer ${token}`, ...headers },
    });
  }

  /** Registers and returns the token of the verification mail written to the outbox. */
  async function register(
    email: string,
    password = PASSWORD,
    extra: Record<string, unknown> = {},
  ): Promise<string> {
    const skip = readOutbox(dataDir()).length;
    const response = await post('/v1/auth/register', {
      email,
      password,
      confirmPassword: password,
      ...extra,
    });
    expect(response.statusCode, response.body).toBe(201);
    const mail = await waitForOutbox(dataDir(), email.trim().toLowerCase(), 'verify', { skip });
    return tokenFromMail(mail.raw);
  }

  async function verify(token: string): Promise<LightMyRequestResponse> {
    return get(`/v1/auth/verify-email?token=${encodeURIComponent(token)}`);
  }

  async function login(email: string, password = PASSWORD) {
    const response = await post('/v1/auth/login', { email, password });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as {
      token: string;
      refreshToken: string;
      user: { id: string; email: string; role: string; organisation: { id: string; name: string } };
    };
    return { ...body, response };
  }

  /** A verified, signed-in user. */
  async function signUp(email: string, password = PASSWORD, extra: Record<string, unknown> = {}) {
    const token = await register(email, password, extra);
    expect((await verify(token)).statusCode).toBe(200);
    return login(email, password);
  }

  function refresh(refreshToken: string, headers: Record<string, string> = {}) {
    return post('/v1/auth/refresh', undefined, { cookie: `rfckit_refresh=${refreshToken}`, ...headers });
  }

  return { post, get, register, verify, login, signUp, refresh };
}

let toolCallers = 0;

/**
 * The Authorization header of a fresh, verified user (created as the admin command does, then
 * signed in through the real login route), for suites that exercise tool routes.
 */
export async function toolCallerHeaders(app: FastifyInstance): Promise<{ authorization: string }> {
  toolCallers += 1;
  const email = `tool-caller-${process.pid}-${toolCallers}-${Date.now()}@example.test`;
  await createAccount(app.db, { email, password: PASSWORD, verified: true, via: 'admin command' });
  const response = await app.inject({
    method: 'POST',
    url: '/v1/auth/login',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(response.statusCode, response.body).toBe(200);
  return { authorization: `Bearer ${(response.json() as { token: string }).token}` };
}
