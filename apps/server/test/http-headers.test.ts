import { describe, expect, it } from 'vitest';
import { toolTestApp } from './helpers/tool-test-app.ts';

describe('POST /v1/http-headers/validate', () => {
  const tool = toolTestApp();
  const validate = (
    body: unknown,
    headers: Record<string, string> = tool.signedIn,
    url = '/v1/http-headers/validate',
  ) => tool.post(url, body, headers);

  it('needs a signed-in caller', async () => {
    const response = await validate({ headers: 'X-Frame-Options: DENY' }, {});
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
  });

  it('grades pasted headers with the Observatory table', async () => {
    const response = await validate({
      headers: [
        'HTTP/2 200',
        'content-type: text/html; charset=utf-8',
        'strict-transport-security: max-age=300',
        "content-security-policy: default-src 'self'; script-src 'self' 'unsafe-inline'",
        'x-frame-options: SAMEORIGIN',
        'set-cookie: sessionid=abc; Secure; SameSite=Lax',
      ].join('\r\n'),
    });
    expect(response.statusCode, response.body).toBe(200);
    const { success, data } = response.json();
    expect(success).toBe(true);
    // HSTS max-age 300 −10, script-src 'unsafe-inline' −20, session cookie without HttpOnly −30,
    // X-Content-Type-Options missing −5; XFO's +5 is lost below 90: 100 − 65 = 35
    expect(data.score).toBe(35);
    expect(data.grade).toBe('D');
    expect(data.scoring).toMatchObject({
      penalties: -65,
      bonusesApplied: false,
      notEvaluated: ['redirection', 'subresource-integrity'],
    });
    const csp = data.tests.find((t: { name: string }) => t.name === 'content-security-policy');
    expect(csp).toMatchObject({
      pass: false,
      result: 'csp-implemented-with-unsafe-inline',
      modifier: -20,
      evaluated: true,
    });
    expect(csp.details.join(' ')).toContain("'unsafe-inline'");
    expect(data.results).toMatchObject({
      csp: 'FAIL',
      hsts: 'FAIL',
      cookies: 'FAIL',
      'x-frame-options': 'PASS',
    });
    expect(data.headers['strict-transport-security']).toBe('max-age=300');
    expect(data.recommendations[0]).toMatchObject({ severity: 'HIGH' });
    expect(data.diagnostics).toEqual([]);
  });

  it('answers on the /api/v1 alias too', async () => {
    const response = await validate(
      { headers: 'X-Content-Type-Options: nosniff' },
      tool.signedIn,
      '/api/v1/http-headers/validate',
    );
    expect(response.statusCode).toBe(200);
  });

  it('reports problems of the pasted text as diagnostics', async () => {
    const response = await validate({ headers: 'X-Frame-Options: DENY\nnot a header line' });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        code: 'HEADERS_LINE_NOT_A_FIELD',
        span: { start: 22, end: 39 },
      }),
    ]);
  });

  it('refuses blank input and unknown fields', async () => {
    const blank = await validate({ headers: '  \n ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({ error: 'Response headers are required' });
    const extra = await validate({ headers: 'X-A: 1', url: 'https://example.com' });
    expect(extra.statusCode).toBe(400);
  });

  it('answers 422 when nothing can be graded', async () => {
    const noFields = await validate({ headers: 'just some text' });
    expect(noFields.statusCode).toBe(422);
    expect(noFields.json()).toMatchObject({ success: false, code: 'NO_HEADERS' });
    const serverError = await validate({ headers: 'HTTP/1.1 500 Internal Server Error\nServer: x' });
    expect(serverError.statusCode).toBe(422);
    expect(serverError.json()).toMatchObject({ code: 'UNEXPECTED_STATUS' });
    expect(serverError.json().error).toMatch(/status 500/);
  });
});
