import { describe, expect, it } from 'vitest';
import {
  expectationVectors as cases,
  hsts,
  observerOrigin,
  preloaded,
  script,
  site,
} from './expectation-vectors.ts';
import { gradeHeaderBlock, gradeResponse, HttpHeadersGradeError } from './grade.ts';
import { httpHeadersAnalysisSchema, type HttpHeadersAnalysis } from './schema.ts';
import { scoreTable, type ObservatoryTestName } from './score-table.ts';

function testOf(analysis: HttpHeadersAnalysis, name: ObservatoryTestName) {
  const test = analysis.tests.find((t) => t.name === name);
  if (!test) throw new Error(`no ${name} test`);
  return test;
}

describe('every result of the score table is reachable', () => {
  it('has one case per expectation id of the table', () => {
    const covered = cases.map(([expectation]) => expectation).sort();
    expect(covered).toEqual(scoreTable.map((entry) => entry.expectation).sort());
  });

  it.each(cases)('%s', (expectation, test, spec) => {
    const analysis = gradeResponse(site(spec));
    expect(testOf(analysis, test).result).toBe(expectation);
  });
});

describe('scoring', () => {
  it('applies bonuses when the penalties leave at least 90', () => {
    // XCTO missing −5, CSP default-src 'none' +10, XFO via frame-ancestors +5:
    // HSTS −20 is avoided with max-age, so penalties are −5 and 95 ≥ 90 → 95 + 15 = 110
    const analysis = gradeResponse(
      site({ headers: `${hsts}\nContent-Security-Policy: default-src 'none'; frame-ancestors 'none'` }),
    );
    expect(analysis.scoring.penalties).toBe(-5);
    expect(analysis.scoring.bonuses).toBe(15);
    expect(analysis.scoring.bonusesApplied).toBe(true);
    expect(analysis.score).toBe(110);
    expect(analysis.grade).toBe('A+');
  });

  it('applies bonuses at exactly 90', () => {
    // XCTO missing −5 and referrer unsafe-url −5 leave exactly 90, so the bonuses count:
    const analysis = gradeResponse(
      site({
        headers: `${hsts}\nContent-Security-Policy: default-src 'self'; frame-ancestors 'none'\nReferrer-Policy: unsafe-url\nCross-Origin-Opener-Policy: same-origin`,
      }),
    );
    // CSP +5, XFO via CSP +5, COOP +10 = +20 on top of 90
    expect(analysis.scoring.penalties).toBe(-10);
    expect(analysis.score).toBe(110);
  });

  it('drops every bonus when the penalties leave less than 90', () => {
    // HSTS missing −20 and XCTO missing −5 leave 75: CSP default-src 'none' (+10),
    // XFO via frame-ancestors (+5) and COOP (+10) do not count
    const analysis = gradeResponse(
      site({
        headers:
          "Content-Security-Policy: default-src 'none'; frame-ancestors 'none'\nCross-Origin-Opener-Policy: same-origin",
      }),
    );
    expect(analysis.scoring.penalties).toBe(-25);
    expect(analysis.scoring.bonusesApplied).toBe(false);
    expect(analysis.score).toBe(75);
    expect(analysis.grade).toBe('B');
  });

  it('floors the score at 0', () => {
    // CSP −25, cookies session without Secure −40, CORS universal −50, redirection missing −20,
    // HSTS −20, SRI without integrity over plain http −50, XCTO −5, XFO −20: −230
    const analysis = gradeResponse(
      site({
        headers: 'Set-Cookie: sessionid=1; HttpOnly',
        cors: `Access-Control-Allow-Origin: ${observerOrigin}\nAccess-Control-Allow-Credentials: true`,
        httpChain: [['http://example.com/', 200]],
        body: script('src="http://cdn.other.net/a.js"'),
      }),
    );
    expect(analysis.scoring.penalties).toBe(-230);
    expect(analysis.score).toBe(0);
    expect(analysis.grade).toBe('F');
  });

  it('gives a strict site 160 and A+ (165 once preloaded)', () => {
    const strict = {
      headers: [
        'Strict-Transport-Security: max-age=63072000; includeSubDomains; preload',
        "Content-Security-Policy: default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
        'X-Content-Type-Options: nosniff',
        'Referrer-Policy: strict-origin-when-cross-origin',
        'Set-Cookie: __Host-session=abc; Path=/; Secure; HttpOnly; SameSite=Strict',
        'Cross-Origin-Resource-Policy: same-origin',
        'Cross-Origin-Opener-Policy: same-origin',
        'Cross-Origin-Embedder-Policy: require-corp',
      ].join('\n'),
      body: script(
        'src="/app.js" integrity="sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC"',
      ),
    };
    // bonuses: CSP +10, cookies +5, referrer +5, SRI +5, XFO via CSP +5, CORP +10, COOP +10, COEP +10
    const analysis = gradeResponse(site(strict));
    expect(analysis.scoring.penalties).toBe(0);
    expect(analysis.scoring.bonuses).toBe(60);
    expect(analysis.score).toBe(160);
    expect(analysis.grade).toBe('A+');
    expect(analysis.tests.every((t) => t.pass)).toBe(true);
    // HSTS preloaded +5 on top
    expect(gradeResponse(site({ ...strict, preload: preloaded })).score).toBe(165);
  });

  it('gives a bare site 10 and F', () => {
    // nothing set, http:// answers without redirecting:
    // CSP −25, redirection −20, HSTS −20, XCTO −5, XFO −20 = −90
    const analysis = gradeResponse(site({ httpChain: [['http://example.com/', 200]] }));
    expect(analysis.score).toBe(10);
    expect(analysis.grade).toBe('F');
    expect(analysis.results).toMatchObject({ csp: 'FAIL', hsts: 'FAIL', redirection: 'FAIL' });
    expect(analysis.recommendations).toContainEqual({
      header: 'Content-Security-Policy',
      severity: 'HIGH',
      description:
        "Content Security Policy (CSP) header not implemented. Implement one, see MDN's Content Security Policy (CSP) documentation.",
      example: expect.stringMatching(/^Content-Security-Policy: default-src 'none';/),
    });
    expect(analysis.recommendations.find((r) => r.header === 'Location')?.example).toBe(
      'HTTP/1.1 301 Moved Permanently\nLocation: https://example.com/',
    );
  });

  it('grades a middling site D+', () => {
    // HSTS max-age 300 −10, script-src 'unsafe-inline' −20, session cookie without HttpOnly −30;
    // XFO DENY and nosniff cost nothing but their bonus (+5) is lost below 90: 40
    const analysis = gradeResponse(
      site({
        headers: [
          'Strict-Transport-Security: max-age=300',
          "Content-Security-Policy: default-src 'self'; script-src 'self' 'unsafe-inline'",
          'X-Frame-Options: DENY',
          'X-Content-Type-Options: nosniff',
          'Set-Cookie: sessionid=abc; Secure; SameSite=Lax',
        ].join('\n'),
      }),
    );
    expect(analysis.score).toBe(40);
    expect(analysis.grade).toBe('D+');
    expect(analysis.recommendations[0]?.severity).toBe('HIGH');
  });

  it('grades http → https on the same host, then another host, as a redirect to https', () => {
    const analysis = gradeResponse(
      site({
        httpChain: [
          ['http://example.com/', 301],
          ['https://example.com/', 301],
          ['https://www.example.com/', 200],
        ],
      }),
    );
    expect(testOf(analysis, 'redirection')).toMatchObject({
      result: 'redirection-to-https',
      modifier: 0,
      pass: true,
    });
  });

  it('refuses responses the Observatory does not grade', () => {
    const input = site();
    input.https!.response.status = 500;
    expect(() => gradeResponse(input)).toThrow(HttpHeadersGradeError);
    expect(() => gradeResponse({ ...site(), https: null, http: null })).toThrow(/could not be reached/);
    // 401 and 403 are graded
    input.https!.response.status = 403;
    expect(gradeResponse(input).status).toBe(403);
  });

  it('returns data that matches the API schema', () => {
    const analysis = gradeResponse(site({ headers: hsts }));
    expect(httpHeadersAnalysisSchema.parse(analysis)).toEqual(analysis);
    expect(analysis.redirects).toEqual([{ url: 'https://example.com/', status: 200, location: null }]);
  });
});

describe('gradeHeaderBlock (the Validator)', () => {
  it('scores pasted headers from the ten tests it can evaluate, and says so', () => {
    // HSTS ok, CSP default-src 'none' +10 with frame-ancestors (XFO +5), nosniff;
    // redirection and SRI (no body) not evaluated: 100 + 15 = 115
    const analysis = gradeHeaderBlock(
      [
        'HTTP/2 200',
        'content-type: text/html',
        'strict-transport-security: max-age=63072000',
        "content-security-policy: default-src 'none'; frame-ancestors 'none'",
        'x-content-type-options: nosniff',
      ].join('\n'),
    );
    expect(analysis.score).toBe(115);
    expect(analysis.scoring.notEvaluated).toEqual(['redirection', 'subresource-integrity']);
    expect(analysis.scoring.testsEvaluated).toBe(10);
    expect(testOf(analysis, 'redirection')).toMatchObject({
      evaluated: false,
      pass: null,
      result: null,
      modifier: 0,
    });
    expect(analysis.results).not.toHaveProperty('redirection');
    expect(analysis.scoring.notes.join(' ')).toMatch(/Scored from 10 of 12 tests/);
  });

  it('grades a bare response D (30): only the header tests can fail', () => {
    // CSP −25, HSTS −20, XCTO −5, XFO −20
    const analysis = gradeHeaderBlock('HTTP/1.1 200 OK\nServer: nginx\n');
    expect(analysis.score).toBe(30);
    expect(analysis.grade).toBe('D');
  });

  it('reads the body of curl -i output for SRI and meta policies', () => {
    const analysis = gradeHeaderBlock(
      [
        'HTTP/1.1 200 OK',
        'Content-Type: text/html',
        '',
        '<!doctype html><meta http-equiv="Content-Security-Policy" content="default-src \'self\'">',
        '<script src="/app.js"></script>',
      ].join('\n'),
    );
    expect(testOf(analysis, 'subresource-integrity').result).toBe(
      'sri-not-implemented-but-all-scripts-loaded-from-secure-origin',
    );
    expect(testOf(analysis, 'content-security-policy').result).toBe('csp-implemented-with-no-unsafe');
  });

  it('does not evaluate SRI when it cannot tell external scripts', () => {
    const analysis = gradeHeaderBlock(
      'HTTP/1.1 200 OK\nContent-Type: text/html\n\n<script src="https://cdn.example.net/a.js"></script>',
    );
    expect(testOf(analysis, 'subresource-integrity').evaluated).toBe(false);
  });

  it('takes the last response of a redirect chain and lists the others', () => {
    const analysis = gradeHeaderBlock(
      [
        'HTTP/1.1 301 Moved Permanently',
        'Location: https://www.example.com/',
        'Set-Cookie: sessionid=1; Secure',
        '',
        'HTTP/2 200',
        'content-type: text/plain',
        'strict-transport-security: max-age=31536000',
      ].join('\n'),
    );
    expect(analysis.status).toBe(200);
    expect(analysis.redirects).toEqual([
      { url: null, status: 301, location: 'https://www.example.com/' },
      { url: 'https://www.example.com/', status: 200, location: null },
    ]);
    // the redirect's session cookie lacks HttpOnly: it counts, as in a browser's jar
    expect(testOf(analysis, 'cookies').result).toBe('cookies-session-without-httponly-flag');
  });

  it('refuses a paste without header fields, and a 5xx response', () => {
    expect(() => gradeHeaderBlock('hello world')).toThrow(/not a header field/);
    expect(() => gradeHeaderBlock('HTTP/1.1 502 Bad Gateway\nServer: x')).toThrow(/status 502/);
  });

  it('lists Permissions-Policy advice as not scored', () => {
    const open = gradeHeaderBlock('Permissions-Policy: camera=*, geolocation=(self)');
    expect(open.results['permissions-policy']).toBe('WARN');
    expect(open.permissionsPolicy.scored).toBe(false);
    const advice = open.recommendations.find((r) => r.header === 'Permissions-Policy');
    expect(advice?.description).toMatch(/camera/);
    expect(advice?.description).toMatch(/does not score/);
    const broken = gradeHeaderBlock('Permissions-Policy: camera=(self');
    expect(broken.results['permissions-policy']).toBe('ERROR');
    const good = gradeHeaderBlock('Permissions-Policy: camera=(), microphone=()');
    expect(good.results['permissions-policy']).toBe('PASS');
  });
});
