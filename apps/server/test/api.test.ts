import { connect } from 'node:net';
import rateLimit from '@fastify/rate-limit';
import { describe, expect, it } from 'vitest';
import { captureLogs } from './helpers/app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { toolTestApp } from './helpers/tool-test-app.ts';

const RFC8080_DNSKEY = 'example.com. 3600 IN DNSKEY 257 3 15 l02Woi0iS8Aa25FQkUd9RMzZHJpBoRQwAQEX1SxZJA4=';
const RFC8080_DS_SHA256 = '3AA5AB37EFCE57F737FC1627013FEE07BDF241BD10F3B1964AB55C78E79A304B';

describeEachDatabase('API', (database) => {
  const logs = captureLogs();
  const tool = toolTestApp({
    database,
    logs,
    prepare: async (app) => {
      // a route that fails the way a bug would, to see what a client gets for a 500
      app.get('/v1/test-only/crash', async () => {
        throw new Error('secret internal detail at /srv/rfckit');
      });
      await app.register(rateLimit, { global: false });
      app.get(
        '/v1/test-only/limited',
        { config: { rateLimit: { max: 1, timeWindow: 60_000 } } },
        async () => ({ success: true }),
      );
    },
  });

  function postValidate(payload: string | object, headers: Record<string, string> = {}) {
    const url = '/v1/dnskey/validate';
    const asCaller = { ...tool.signedIn, ...headers };
    return typeof payload === 'string'
      ? tool.postRaw(url, payload, asCaller)
      : tool.post(url, payload, asCaller);
  }

  describe('error envelope', () => {
    it.each([
      ['GET', '/v1/x'],
      ['POST', '/v1/nope'],
      ['DELETE', '/v1/health'],
    ] as const)('%s %s is a 404 NOT_FOUND', async (method, url) => {
      const response = await tool.inject({ method, url });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        success: false,
        error: `Route ${method} ${url} not found`,
        code: 'NOT_FOUND',
      });
    });

    it('rejects malformed JSON with 400 INVALID_JSON', async () => {
      const response = await postValidate('{"record": ');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        success: false,
        error: 'Request body is not valid JSON',
        code: 'INVALID_JSON',
      });
    });

    it('rejects an empty JSON body with 400 INVALID_JSON', async () => {
      const response = await postValidate('');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ success: false, code: 'INVALID_JSON' });
    });

    it('prefixes zod default messages with the field path', async () => {
      const response = await postValidate({ record: 42 });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        success: false,
        error: 'record: Invalid input: expected string, received number',
        code: 'VALIDATION_ERROR',
      });
    });

    it('names the body when it is not an object', async () => {
      const response = await postValidate('[1, 2]');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        success: false,
        error: 'body: Invalid input: expected object, received array',
        code: 'VALIDATION_ERROR',
      });
    });

    it('rejects unknown fields', async () => {
      const response = await postValidate({ record: RFC8080_DNSKEY, extra: true });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        success: false,
        error: 'Unknown field "extra"',
        code: 'VALIDATION_ERROR',
      });
    });

    it("passes the shared schema's own message through verbatim", async () => {
      for (const record of ['', '   ']) {
        const response = await postValidate({ record });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({
          success: false,
          error: 'DNSKEY record is required',
          code: 'VALIDATION_ERROR',
        });
      }
    });

    it('rejects a 2 MB body with 413 PAYLOAD_TOO_LARGE', async () => {
      const response = await postValidate({ record: 'A'.repeat(2 * 1024 * 1024) });
      expect(response.statusCode).toBe(413);
      expect(response.json()).toEqual({
        success: false,
        error: 'Request body is larger than the 1 MiB limit',
        code: 'PAYLOAD_TOO_LARGE',
      });
    });

    it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml'])(
      'rejects content-type %s with 415',
      async (contentType) => {
        const response = await postValidate('record=x', { 'content-type': contentType });
        expect(response.statusCode).toBe(415);
        expect(response.json()).toEqual({
          success: false,
          error: `Unsupported content type "${contentType}": send application/json`,
          code: 'UNSUPPORTED_MEDIA_TYPE',
        });
      },
    );

    it('answers a bug with a generic 500 and logs the details server-side only', async () => {
      const response = await tool.inject({ method: 'GET', url: '/v1/test-only/crash' });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({
        success: false,
        error: 'An unexpected error occurred. Please try again.',
        code: 'INTERNAL_ERROR',
      });
      expect(response.body).not.toContain('secret internal detail');
      const logged = logs.lines.find((line) => line.msg === 'request failed');
      expect(JSON.stringify(logged)).toContain('secret internal detail');
      expect((logged?.err as { stack?: string }).stack).toContain('api.test.ts');
    });

    it('answers 429 RATE_LIMITED with Retry-After', async () => {
      expect((await tool.inject({ url: '/v1/test-only/limited' })).statusCode).toBe(200);
      const response = await tool.inject({ url: '/v1/test-only/limited' });
      expect(response.statusCode).toBe(429);
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      expect(response.json()).toMatchObject({ success: false, code: 'RATE_LIMITED' });
      expect(response.json().error).toMatch(/^Rate limit exceeded/);
    });

    it('answers a request the HTTP parser rejects with the envelope', async () => {
      const address = await tool.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = new URL(address);
      const raw = await new Promise<string>((resolve, reject) => {
        let received = '';
        const socket = connect(Number(port), '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
        socket.on('data', (chunk) => (received += chunk.toString()));
        socket.on('end', () => resolve(received));
        socket.on('error', reject);
      });
      expect(raw).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(raw.slice(raw.indexOf('\r\n\r\n') + 4)).toBe(
        JSON.stringify({ success: false, error: 'Malformed HTTP request', code: 'BAD_REQUEST' }),
      );
    });

    it('never leaks a stack trace or a 500 for bad input', async () => {
      const responses = await Promise.all([
        tool.inject({ method: 'GET', url: '/v1/x' }),
        postValidate('{"record": '),
        postValidate({ record: 42 }),
        postValidate({ record: RFC8080_DNSKEY, extra: true }),
        postValidate({ record: '' }),
        postValidate('record=x', { 'content-type': 'text/plain' }),
        tool.inject({ method: 'GET', url: '/v1/%E0%A4%A' }),
      ]);
      for (const response of responses) {
        expect(response.statusCode).toBeGreaterThanOrEqual(400);
        expect(response.statusCode).toBeLessThan(500);
        expect(Object.keys(response.json()).sort()).toEqual(['code', 'error', 'success']);
        expect(response.body).not.toMatch(/\bat .+:\d+:\d+/);
        expect(response.body).not.toContain('FST_');
      }
    });
  });

  describe('request ids', () => {
    it('echoes a sane incoming x-request-id, on success and on errors', async () => {
      for (const url of ['/v1/health', '/nowhere']) {
        const response = await tool.inject({ url, headers: { 'x-request-id': 'lb-1234.abc:def' } });
        expect(response.headers['x-request-id']).toBe('lb-1234.abc:def');
      }
    });

    it('replaces a missing or unsafe one with a UUID', async () => {
      const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
      const plain = await tool.inject({ url: '/v1/health' });
      expect(plain.headers['x-request-id']).toMatch(uuid);
      const unsafe = await tool.inject({
        url: '/v1/health',
        headers: { 'x-request-id': 'a b\u0000<script>' },
      });
      expect(unsafe.headers['x-request-id']).toMatch(uuid);
      const malformed = await postValidate('{');
      expect(malformed.headers['x-request-id']).toMatch(uuid);
    });

    it('logs requests with their id and never the authorization or cookie headers', async () => {
      await tool.inject({
        url: '/v1/health',
        headers: { 'x-request-id': 'trace-me', authorization: 'Bearer top-secret', cookie: 'rt=top-secret' },
      });
      const mine = logs.lines.filter((line) => line.reqId === 'trace-me');
      expect(mine.length).toBeGreaterThan(0);
      expect(JSON.stringify(logs.lines)).not.toContain('top-secret');
    });
  });

  describe('tool routes need a signed-in caller', () => {
    it.each([
      ['no token', {}],
      ['a malformed token', { authorization: 'Bearer not.a.jwt' }],
      ['another scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
    ])('%s gets 401 before the body is even parsed', async (_name, auth) => {
      const response = await tool.inject({
        method: 'POST',
        url: '/v1/dnskey/validate',
        headers: { 'content-type': 'application/json', ...auth },
        payload: '{"record": ',
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        success: false,
        error: 'Authentication required',
        code: 'UNAUTHORIZED',
      });
      expect(response.headers['www-authenticate']).toMatch(/^Bearer realm="rfckit"/);
    });

    it('holds under /api/v1 too', async () => {
      const response = await tool.inject({
        method: 'POST',
        url: '/api/v1/dnskey/validate',
        headers: { 'content-type': 'application/json' },
        payload: { record: RFC8080_DNSKEY },
      });
      expect(response.statusCode).toBe(401);
    });
  });

  describe('DNSKEY validation', () => {
    it('computes the RFC 8080 §6.1 key tag and DS digest', async () => {
      const response = await postValidate({ record: RFC8080_DNSKEY });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.success).toBe(true);
      expect(body.data.valid).toBe(true);
      expect(body.data.errors).toEqual([]);
      expect(body.data.parsed.keyTag).toBe(3613);
      expect(JSON.stringify(body.data.parsed)).toContain(RFC8080_DS_SHA256);
    });

    it('is the same under /api/v1', async () => {
      const direct = await postValidate({ record: RFC8080_DNSKEY });
      const alias = await tool.inject({
        method: 'POST',
        url: '/api/v1/dnskey/validate',
        headers: { 'content-type': 'application/json', ...tool.signedIn },
        payload: { record: RFC8080_DNSKEY },
      });
      expect(alias.statusCode).toBe(200);
      expect(alias.json()).toEqual(direct.json());
    });
  });

  describe('health alias and docs', () => {
    it('serves /api/v1/health like /v1/health', async () => {
      const [direct, alias] = await Promise.all([
        tool.inject({ url: '/v1/health' }),
        tool.inject({ url: '/api/v1/health' }),
      ]);
      expect(alias.statusCode).toBe(200);
      expect(Object.keys(alias.json().data)).toEqual(Object.keys(direct.json().data));
      expect(alias.json().data.database.dialect).toBe(database.dialect);
    });

    it('publishes an OpenAPI 3.1 document with the /v1 routes only', async () => {
      const response = await tool.inject({ url: '/docs/json' });
      expect(response.statusCode).toBe(200);
      const document = response.json();
      expect(document.openapi).toBe('3.1.0');
      expect(document.info.title).toBe('rfckit API');
      const paths = Object.keys(document.paths);
      expect(paths).toContain('/v1/dnskey/validate');
      expect(paths).toContain('/v1/health');
      expect(paths.filter((p) => !p.startsWith('/v1/'))).toEqual([]);
      expect(
        document.paths['/v1/dnskey/validate'].post.requestBody.content['application/json'].schema,
      ).toMatchObject({
        type: 'object',
        required: ['record'],
        additionalProperties: false,
      });
      expect(document.paths['/v1/dnskey/validate'].post.security).toEqual([
        { bearerAuth: [] },
        { apiKeyAuth: [] },
      ]);
      expect(document.paths['/v1/health'].get.security).toBeUndefined();
    });

    it('serves the docs UI as HTML', async () => {
      const response = await tool.inject({ url: '/docs', headers: { accept: 'text/html' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('swagger-ui');
      const script = await tool.inject({ url: '/docs/static/swagger-initializer.js' });
      expect(script.statusCode).toBe(200);
    });
  });
});
