import { describe, expect, it, vi } from 'vitest';

import { readAccessToken, restoreAccessToken, storeAccessToken } from './access-token.ts';
import { api } from './api.ts';

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A server whose access token `old` has expired; the refresh answers `refreshed` (or fails). */
function fakeServer(refreshOk: boolean) {
  let refreshes = 0;
  const fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    if (url === '/v1/auth/refresh') {
      refreshes += 1;
      expect(init?.credentials).toBe('include');
      await new Promise((resolve) => setTimeout(resolve, 10));
      return refreshOk
        ? json({ success: true, data: { token: 'refreshed', expiresIn: 900 } })
        : json({ success: false, error: 'Your session has expired', code: 'INVALID_REFRESH_TOKEN' }, 401);
    }
    const auth = new Headers(init?.headers).get('Authorization');
    return auth === 'Bearer refreshed'
      ? json({ success: true, data: { url } })
      : json({ success: false, error: 'Authentication required', code: 'UNAUTHORIZED' }, 401);
  });
  return { fetchMock, refreshes: () => refreshes };
}

describe('the API client on 401', () => {
  it('shares one refresh between concurrent calls and retries each once', async () => {
    storeAccessToken('old');
    const server = fakeServer(true);
    const answers = await Promise.all([api.get('/v1/a'), api.get('/v1/b'), api.get('/v1/c')]);
    expect(answers).toEqual([{ url: '/v1/a' }, { url: '/v1/b' }, { url: '/v1/c' }]);
    expect(server.refreshes()).toBe(1);
    expect(readAccessToken()).toBe('refreshed');
    // in memory only: storage says no more than that there is a sign-in to restore
    expect(Object.values({ ...localStorage }).join()).not.toContain('refreshed');
    expect(localStorage.getItem('rfckit.signed-in')).toBe('1');
    // three refused calls, one refresh, three retries
    expect(server.fetchMock).toHaveBeenCalledTimes(7);
  });

  it("fails with 'Authentication failed' and clears the token when the refresh fails", async () => {
    storeAccessToken('old');
    const server = fakeServer(false);
    const results = await Promise.allSettled([api.get('/v1/a'), api.get('/v1/b')]);
    for (const result of results) {
      expect(result.status).toBe('rejected');
      expect((result as PromiseRejectedResult).reason).toMatchObject({
        message: 'Authentication failed',
        status: 401,
      });
    }
    expect(server.refreshes()).toBe(1);
    expect(readAccessToken()).toBeNull();
    expect(localStorage.getItem('rfckit.signed-in')).toBeNull();
  });

  it('does not refresh for a call sent without a token', async () => {
    const server = fakeServer(true);
    await expect(api.get('/v1/a')).rejects.toMatchObject({ message: 'Authentication required' });
    expect(server.refreshes()).toBe(0);
  });
});

describe('restoring a sign-in on page load', () => {
  it('gets a new access token from the refresh cookie when this browser signed in', async () => {
    localStorage.setItem('rfckit.signed-in', '1');
    const server = fakeServer(true);
    expect(await restoreAccessToken()).toBe('refreshed');
    expect(readAccessToken()).toBe('refreshed');
    expect(server.refreshes()).toBe(1);
  });

  it('asks nothing when this browser has no sign-in to restore', async () => {
    localStorage.removeItem('rfckit.signed-in');
    const server = fakeServer(true);
    expect(await restoreAccessToken()).toBeNull();
    expect(server.refreshes()).toBe(0);
  });
});
