import { describe, expect, it, vi } from 'vitest';

import {
  ApiError,
  contentDispositionFileName,
  createApiClient,
  NETWORK_ERROR_MESSAGE,
  RateLimitError,
  UNEXPECTED_ERROR_MESSAGE,
} from './api.ts';
import { createRateLimiter, type RateLimitDetails } from './rate-limiter.ts';

function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

describe('api client', () => {
  it('returns data from a success envelope and sends JSON', async () => {
    const fetchMock = vi
      .fn<typeof fetch>()
      .mockResolvedValue(jsonResponse({ success: true, data: { valid: true } }));
    const client = createApiClient({ fetch: fetchMock });
    await expect(client.post('/v1/dnskey/validate', { record: 'x' })).resolves.toEqual({ valid: true });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/v1/dnskey/validate');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"record":"x"}');
    expect((init?.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it("throws ApiError with the server's message and code", async () => {
    const client = createApiClient({
      fetch: async () =>
        jsonResponse({ success: false, error: 'Too many requests', code: 'RATE_LIMITED' }, 429, {
          'Retry-After': '30',
        }),
    });
    const error = await client.get('/v1/health').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      message: 'Too many requests',
      status: 429,
      code: 'RATE_LIMITED',
      retryAfter: 30,
    });
  });

  it('keeps what a check we could not make tried, and ignores details of another shape', async () => {
    const tried = [
      { target: 'https://example.com/', outcome: 'Nothing answered on port 443 at example.com' },
    ];
    const answer = (details: unknown) =>
      createApiClient({
        fetch: async () =>
          jsonResponse(
            {
              success: false,
              error: 'Nothing answered on port 443 at example.com',
              code: 'CONNECT_FAILED',
              details,
            },
            502,
          ),
      })
        .post('/v1/http-headers/analyze', { url: 'example.com' })
        .catch((e: unknown) => e);
    expect(await answer({ tried })).toMatchObject({ status: 502, code: 'CONNECT_FAILED', tried });
    expect(await answer({ tried: 'everything' })).toMatchObject({ code: 'CONNECT_FAILED', tried: [] });
  });

  it('stops the 11th sign-in of a minute in the browser, without a request', async () => {
    const fetchMock = vi
      .fn<typeof fetch>()
      .mockImplementation(async () => jsonResponse({ success: false, error: 'Invalid credentials' }, 401));
    const refusals: RateLimitDetails[] = [];
    const client = createApiClient({
      fetch: fetchMock,
      rateLimiter: createRateLimiter(() => 5_000),
      now: () => 5_000,
      onRateLimited: (details) => refusals.push(details),
    });
    for (let i = 0; i < 10; i++) {
      await expect(
        client.request('/v1/auth/login', { method: 'POST', body: {}, anonymous: true }),
      ).rejects.toThrow('Invalid credentials');
    }
    const error = await client
      .request('/v1/auth/login', { method: 'POST', body: {}, anonymous: true })
      .catch((e: unknown) => e);
    expect(fetchMock).toHaveBeenCalledTimes(10);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({
      message: 'Rate limit exceeded',
      status: 429,
      code: 'RATE_LIMITED',
      retryAfter: 60,
    });
    expect(refusals).toEqual([
      { limitClass: 'auth', limit: 10, windowMs: 60_000, resetAt: 65_000, retryAfter: 60, source: 'client' },
    ]);
    // other kinds of endpoint keep their own budget
    fetchMock.mockResolvedValueOnce(jsonResponse({ success: true, data: { ok: true } }));
    await expect(client.get('/v1/health')).resolves.toEqual({ ok: true });
  });

  it("turns the server's 429 into the same refusal, with its Retry-After and limit", async () => {
    const refusals: RateLimitDetails[] = [];
    const client = createApiClient({
      fetch: async () =>
        jsonResponse({ success: false, error: 'Rate limit exceeded', code: 'RATE_LIMITED' }, 429, {
          'Retry-After': '42',
          'x-ratelimit-limit': '100',
        }),
      now: () => 1_000,
      onRateLimited: (details) => refusals.push(details),
    });
    const error = await client.post('/v1/spf/verify', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(refusals).toEqual([
      {
        limitClass: undefined,
        limit: 100,
        windowMs: 60_000,
        resetAt: 43_000,
        retryAfter: 42,
        source: 'server',
      },
    ]);
  });

  it('reports a network failure', async () => {
    const client = createApiClient({
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await expect(client.get('/v1/health')).rejects.toMatchObject({
      message: NETWORK_ERROR_MESSAGE,
      status: 0,
    });
  });

  it('reports a response that is not JSON', async () => {
    const client = createApiClient({
      fetch: async () => new Response('<html>Bad gateway</html>', { status: 502 }),
    });
    await expect(client.get('/v1/health')).rejects.toMatchObject({
      message: UNEXPECTED_ERROR_MESSAGE,
      status: 502,
    });
  });

  it('sends a bearer token when a getter supplies one', async () => {
    const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(jsonResponse({ success: true, data: null }));
    await createApiClient({ fetch: fetchMock, getToken: () => 'abc' }).get('/v1/auth/profile');
    const headers = fetchMock.mock.calls[0]?.[1]?.headers as Record<string, string>;
    expect(headers.Authorization).toBe('Bearer abc');
  });
});

describe('file downloads', () => {
  it('returns the body, the named file and the headers, with the bearer token', async () => {
    const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(
      new Response('id,action\r\n1,login\r\n', {
        status: 200,
        headers: {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': 'attachment; filename="activity-acme-2025-01-02.csv"',
          'X-Export-Truncated': 'false',
        },
      }),
    );
    const client = createApiClient({ fetch: fetchMock, getToken: () => 'access-1' });
    const file = await client.download('/v1/organisation/activity/export?action=login');
    expect(await file.blob.text()).toBe('id,action\r\n1,login\r\n');
    expect(file.fileName).toBe('activity-acme-2025-01-02.csv');
    expect(file.headers.get('x-export-truncated')).toBe('false');
    const headers = fetchMock.mock.calls[0]?.[1]?.headers as Record<string, string>;
    expect(headers.Authorization).toBe('Bearer access-1');
    expect(headers.Accept).toBe('*/*');
  });

  it('renews the token once on 401 and throws the envelope of a refusal', async () => {
    const fetchMock = vi
      .fn<typeof fetch>()
      .mockResolvedValueOnce(jsonResponse({ success: false, error: 'Access token expired' }, 401))
      .mockResolvedValueOnce(
        jsonResponse({ success: false, error: 'dateFrom must be a date', code: 'VALIDATION_ERROR' }, 400),
      );
    const client = createApiClient({
      fetch: fetchMock,
      getToken: () => 'stale',
      renewToken: async () => 'fresh',
    });
    const error = await client.download('/v1/organisation/activity/export').catch((e: unknown) => e);
    expect(error).toMatchObject({
      message: 'dateFrom must be a date',
      status: 400,
      code: 'VALIDATION_ERROR',
    });
    expect((fetchMock.mock.calls[1]?.[1]?.headers as Record<string, string>).Authorization).toBe(
      'Bearer fresh',
    );
  });

  it.each([
    ['attachment; filename="activity-acme-2025-01-02.csv"', 'activity-acme-2025-01-02.csv'],
    ['attachment; filename=plain.csv', 'plain.csv'],
    ['attachment; filename="say \\"hi\\".csv"', 'say "hi".csv'],
    ['attachment; filename="fallback.pdf"; filename*=UTF-8\'\'Rechnung%20M%C3%A4rz.pdf', 'Rechnung März.pdf'],
    ['attachment', null],
    [null, null],
  ])('names %j as %j', (header, expected) => {
    expect(contentDispositionFileName(header)).toBe(expected);
  });
});
