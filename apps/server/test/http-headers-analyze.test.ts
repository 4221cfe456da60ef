// POST /v1/http-headers/analyze against the network lab: sites whose headers, bodies, redirects,
// certificates and preflight answers are served by lab web servers on loopback, fetched by the
// real app through its guarded outbound layer and graded with the MDN HTTP Observatory's table.
// Expected scores are worked out by hand from the table (the modifiers are in the comments).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  startWebServer,
  type LabRequest,
  type Route,
  type RouteSpec,
  type SiteSpec as LabSiteSpec,
  type WebServer,
} from '@rfckit/testlab';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scoreTable } from '@rfckit/standards';
import {
  expectationVectors,
  fields,
  observerOrigin,
  type SiteSpec as VectorSpec,
} from '@rfckit/standards/testing';
import { PREFLIGHT_ORIGIN } from '../src/tools/http-headers/analyse.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { closedPort as findClosedPort } from './helpers/lab-fixtures.ts';
import { toolTestApp } from './helpers/tool-test-app.ts';

const tableModifier = new Map(scoreTable.map((entry) => [entry.expectation, entry.modifier]));

const plainPage = '<!doctype html><html><head><title>Lab</title></head><body>Hello</body></html>';
/** Declared UTF-8 but Latin-1 bytes: "café" with a bare 0xE9. */
const notUtf8 = Buffer.from('<!doctype html><html><body><p>caf\u00e9</p></body></html>', 'latin1');

/** "Name: value" lines as the lab's header list. */
function lines(text: string): [string, string][] {
  return fields(text).map(({ name, value }) => [name, value]);
}

function html(headers: string, body: string | Buffer = plainPage): RouteSpec {
  return { headers: [['Content-Type', 'text/html; charset=utf-8'], ...lines(headers)], body };
}

function originOf(request: LabRequest): string {
  return request.headers.find(([name]) => name.toLowerCase() === 'origin')?.[1] ?? '';
}

interface SecureSiteOptions {
  /** Headers of the answer to OPTIONS, given the request's Origin. */
  preflight?: (origin: string) => [string, string][];
  /** https answers by path before the page (redirects, other pages). */
  paths?: Record<string, RouteSpec>;
}

/**
 * A site as most are run: http:// answers every path with a 301 to the same URL on https, https
 * answers with `page`, and OPTIONS with a bare 204 unless `preflight` says more.
 */
function secureSite(page: RouteSpec, options: SecureSiteOptions = {}): LabSiteSpec {
  return {
    routes: {
      '*': (request) => {
        if (request.method === 'OPTIONS')
          return { status: 204, headers: options.preflight?.(originOf(request)) ?? [] };
        if (request.scheme === 'http')
          return { status: 301, redirect: `https://${request.host}${request.url}` };
        return options.paths?.[request.path] ?? page;
      },
    },
  };
}

/** The same answer on http and https, no redirect. */
function sameOnBothSchemes(page: RouteSpec): LabSiteSpec {
  return { routes: { '*': (request) => (request.method === 'OPTIONS' ? { status: 204 } : page) } };
}

/** Every lab site of this file, and the host:port pairs where nothing listens. */
const sites: Record<string, LabSiteSpec> = {};
const closed = new Set<string>();

// ---------------------------------------------------------------------------------------------
// Sites built from the expectation vectors: one per result of the score table.
// ---------------------------------------------------------------------------------------------

type Chain = [url: string, status: number][];

const vectorHost = (expectation: string) => `${expectation}.example.test`;

/** Serves a vector's requests from the lab, with example.com renamed to the vector's lab host. */
function addVectorSites(expectation: string, spec: VectorSpec): void {
  const host = vectorHost(expectation);
  const www = `www.${host}`;
  const untrusted = `untrusted.${host}`;
  const toLab = (url: string) =>
    url.replace('//www.example.com/', `//${www}/`).replace('//example.com/', `//${host}/`);
  let chain: Chain | null =
    spec.httpChain === undefined
      ? [
          ['http://example.com/', 301],
          ['https://example.com/', 200],
        ]
      : spec.httpChain;
  chain = chain && chain.map(([url, status]): [string, number] => [toLab(url), status]);
  // a certificate that fails on the http visit's way only: its redirect goes to another name
  if (spec.httpCertificateValid === false)
    chain = [
      [`http://${host}/`, 301],
      [`https://${untrusted}/`, 200],
    ];
  const contentType = spec.contentType === undefined ? 'text/html; charset=utf-8' : spec.contentType;
  const page: RouteSpec = {
    headers: [
      ...(contentType === null ? [] : [['Content-Type', contentType] as [string, string]]),
      ...lines(spec.headers ?? ''),
    ],
    body:
      spec.bodyError !== undefined
        ? notUtf8
        : (spec.body ?? plainPage).replaceAll('example.com', 'example.test'),
  };
  const route: Route = (request) => {
    // the vector's preflight answer, with its observer's Origin standing for whatever was sent
    if (request.method === 'OPTIONS')
      return { status: 204, headers: lines((spec.cors ?? '').replaceAll(observerOrigin, originOf(request))) };
    const here = `${request.scheme}://${request.host}${request.path}`;
    const at = chain?.findIndex(([url]) => url === here) ?? -1;
    const next = chain?.[at + 1];
    if (chain && at >= 0 && next) return { status: chain[at]![1], redirect: next[0] };
    if (request.scheme === 'http') return html('');
    return page;
  };
  sites[host] = {
    routes: { '*': route },
    ...(spec.https === 'invalid-cert' ? { certificate: 'expired' } : {}),
  };
  sites[www] = { routes: { '*': route } };
  sites[untrusted] = { routes: { '*': route }, certificate: 'expired' };
  if (spec.https === 'unreachable') closed.add(`${host}:443`);
  if (chain === null) closed.add(`${host}:80`);
}

// The vectors that need the HSTS preload list get their lab host into a list in Chromium's
// format (comment lines included), handed to the app as HSTS_PRELOAD_FILE.
const needsPreloadList = expectationVectors.filter(([, , spec]) => spec.preload !== undefined);
const servedVectors = expectationVectors;
for (const [expectation, , spec] of servedVectors) addVectorSites(expectation, spec);
const preloadFile = path.join(mkdtempSync(path.join(tmpdir(), 'rfckit-hsts-')), 'preload.json');
writeFileSync(
  preloadFile,
  [
    '// Chromium transport_security_state_static.json, lab copy',
    '{',
    '  "entries": [',
    '    // hosts on the list',
    needsPreloadList
      .map(
        ([expectation]) =>
          `    { "name": "${vectorHost(expectation)}", "policy": "custom", "mode": "force-https", "include_subdomains": true }`,
      )
      .join(',\n'),
    '  ]',
    '}',
  ].join('\n'),
);

// ---------------------------------------------------------------------------------------------
// Whole sites with every test set, scored by hand from the table.
// ---------------------------------------------------------------------------------------------

/** What a page with no security header at all gets, and its modifiers. */
const unprotected = {
  'content-security-policy': 'csp-not-implemented', // −25
  cookies: 'cookies-not-found', // 0
  'cross-origin-resource-sharing': 'cross-origin-resource-sharing-not-implemented', // 0
  redirection: 'redirection-to-https', // 0 (these sites redirect http:// unless said otherwise)
  'referrer-policy': 'referrer-policy-not-implemented', // 0
  'strict-transport-security': 'hsts-not-implemented', // −20
  'subresource-integrity': 'sri-not-implemented-but-no-scripts-loaded', // 0
  'x-content-type-options': 'x-content-type-options-not-implemented', // −5
  'x-frame-options': 'x-frame-options-not-implemented', // −20
  'cross-origin-resource-policy': 'corp-not-implemented', // 0
  'cross-origin-opener-policy': 'coop-not-implemented', // 0
  'cross-origin-embedder-policy': 'coep-not-implemented', // 0
};

interface ScoredSite {
  /** What is typed into the Analyser. */
  input: string;
  score: number;
  grade: string;
  /** Results that differ from `unprotected`. */
  results: Partial<Record<keyof typeof unprotected, string>>;
}

const strictHeaders = `
Content-Security-Policy: default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'
Strict-Transport-Security: max-age=63072000; includeSubDomains; preload
X-Content-Type-Options: nosniff
X-Frame-Options: DENY
Referrer-Policy: no-referrer
Cross-Origin-Resource-Policy: same-origin
Cross-Origin-Opener-Policy: same-origin
Cross-Origin-Embedder-Policy: require-corp
Permissions-Policy: camera=(), microphone=(), geolocation=()
Set-Cookie: __Host-session=4f1c; Path=/; Secure; HttpOnly; SameSite=Strict`;
const strictBody =
  '<!doctype html><html><head><title>Strict</title>' +
  '<script src="/app.js" integrity="sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC"></script>' +
  '</head><body>Hello</body></html>';
const goodHeaders = `
Content-Security-Policy: default-src 'self'
Strict-Transport-Security: max-age=31536000
X-Content-Type-Options: nosniff
X-Frame-Options: DENY`;

sites['strict.example.test'] = secureSite(html(strictHeaders, strictBody));
sites['bare.example.test'] = sameOnBothSchemes(html(''));
sites['cookie-on-redirect.example.test'] = secureSite(
  html(`
Content-Security-Policy: default-src 'self'
X-Content-Type-Options: nosniff
X-Frame-Options: SAMEORIGIN`),
  {
    paths: {
      // the session cookie is set by the redirect, not by the page: a browser keeps it all the same
      '/': {
        status: 302,
        redirect: '/home',
        headers: [['Set-Cookie', 'sessionid=8f2c; Path=/; HttpOnly; SameSite=Lax']],
      },
    },
  },
);
sites['inline-script.example.test'] = secureSite(
  html(`
Content-Security-Policy: default-src 'self'; script-src 'self' 'unsafe-inline'
Strict-Transport-Security: max-age=300
X-Frame-Options: SAMEORIGIN
Set-Cookie: sessionid=abc; Path=/; Secure; SameSite=Lax`),
);
sites['cors-echo.example.test'] = secureSite(html(goodHeaders), {
  preflight: (origin) => [
    ['Access-Control-Allow-Origin', origin],
    ['Access-Control-Allow-Credentials', 'true'],
    ['Access-Control-Allow-Methods', 'GET, POST'],
  ],
});
sites['cdn-scripts.example.test'] = secureSite(
  html(
    `${goodHeaders}\nReferrer-Policy: strict-origin-when-cross-origin`,
    '<!doctype html><html><head><script src="http://cdn.other.net/jquery.js"></script></head></html>',
  ),
);
sites['eval.example.test'] = secureSite(
  html(`
Content-Security-Policy: default-src 'self'; script-src 'self' 'unsafe-eval'
Strict-Transport-Security: max-age=31536000; includeSubDomains
X-Content-Type-Options: nosniff
X-Frame-Options: DENY
Referrer-Policy: strict-origin-when-cross-origin
Cross-Origin-Resource-Policy: same-site
Cross-Origin-Opener-Policy: same-origin-allow-popups
Cross-Origin-Embedder-Policy: credentialless
Set-Cookie: sessionid=77; Path=/; Secure; HttpOnly; SameSite=Lax`),
);
sites['passive-http.example.test'] = secureSite(
  html(`
Content-Security-Policy: default-src 'self'; img-src 'self' http://images.example.org
Strict-Transport-Security: max-age=31536000
X-Frame-Options: SAMEORIGIN
Referrer-Policy: no-referrer
Cross-Origin-Resource-Policy: same-origin`),
);
sites['hsts-cookies.example.test'] = secureSite(
  html(`
Content-Security-Policy: default-src 'self'; style-src 'self' 'unsafe-inline'
Strict-Transport-Security: max-age=31536000
X-Content-Type-Options: nosniff
X-Frame-Options: DENY
Referrer-Policy: unsafe-url
Cross-Origin-Resource-Policy: cross-origin
Cross-Origin-Opener-Policy: unsafe-none
Cross-Origin-Embedder-Policy: unsafe-none
Set-Cookie: theme=dark; Path=/; SameSite=Lax`),
);
sites['http-only.example.test'] = sameOnBothSchemes(
  html(`
X-Content-Type-Options: nosniff
X-Frame-Options: DENY
Set-Cookie: sessionid=1; Path=/; HttpOnly; SameSite=Lax`),
);
closed.add('http-only.example.test:443');
sites['expired-cert.example.test'] = { ...secureSite(html(goodHeaders)), certificate: 'expired' };
// http:// detours through an old name whose certificate has expired, then lands on a valid one
sites['detour.example.test'] = {
  routes: {
    '*': (request) =>
      request.method === 'OPTIONS'
        ? { status: 204 }
        : request.scheme === 'http'
          ? { status: 301, redirect: 'https://old.detour.example.test/' }
          : html(goodHeaders),
  },
};
sites['old.detour.example.test'] = {
  certificate: 'expired',
  routes: { '*': { status: 301, redirect: 'https://detour.example.test/' } },
};
const apiPage: RouteSpec = {
  headers: [
    ['Content-Type', 'application/json'],
    ...lines(`
Content-Security-Policy: default-src 'none'; frame-ancestors 'none'
Strict-Transport-Security: max-age=31536000
X-Content-Type-Options: nosniff
Cross-Origin-Resource-Policy: same-origin`),
  ],
  body: '{"status":"ok"}',
};
sites['api.example.test'] = {
  routes: {
    '*': (request) =>
      request.method === 'OPTIONS'
        ? { status: 204 }
        : request.scheme === 'http'
          ? { status: 301, redirect: `https://www.api.example.test${request.url}` }
          : apiPage,
  },
};
sites['www.api.example.test'] = secureSite(apiPage);
sites['chain.example.test'] = secureSite(html(''), {
  paths: { '/': { status: 302, redirect: 'https://landing.chain.example.test/welcome' } },
});
sites['landing.chain.example.test'] = secureSite(
  html(`${goodHeaders}\nReferrer-Policy: no-referrer\nCross-Origin-Opener-Policy: same-origin`),
);
const invalidHeaders = html(`
Content-Security-Policy: default-src 'self'
Strict-Transport-Security: max-age=31536000
X-Content-Type-Options: nosniff
X-Content-Type-Options: nosniff
X-Frame-Options: SAMEORIGIN
X-Frame-Options: DENY
Referrer-Policy: everyone
Cross-Origin-Resource-Policy: same-host
Cross-Origin-Opener-Policy: same-site
Cross-Origin-Embedder-Policy: require-corp
Cross-Origin-Embedder-Policy: credentialless`);
sites['http-hop.example.test'] = {
  routes: {
    '*': (request) =>
      request.method === 'OPTIONS'
        ? { status: 204 }
        : request.scheme === 'http'
          ? { status: 301, redirect: `http://www.http-hop.example.test${request.url}` }
          : invalidHeaders,
  },
};
sites['www.http-hop.example.test'] = secureSite(invalidHeaders);
sites['report-only.example.test'] = secureSite(
  html(
    `
Content-Security-Policy-Report-Only: default-src 'self'
Strict-Transport-Security: max-age=15552000
X-Content-Type-Options: nosniff
X-Frame-Options: ALLOW-FROM https://partner.example.org/
Referrer-Policy: no-referrer
Set-Cookie: csrftoken=1; Path=/; Secure`,
    notUtf8,
  ),
);

const scoredSites: [label: string, site: ScoredSite][] = [
  [
    'every bonus and no penalty',
    {
      input: 'strict.example.test',
      // CSP default-src 'none' +10, cookies +5, Referrer-Policy +5, SRI +5, XFO +5, CORP +10,
      // COOP +10, COEP +10; no penalty, so the bonuses count: 100 + 60 = 160
      score: 160,
      grade: 'A+',
      results: {
        'content-security-policy': 'csp-implemented-with-no-unsafe-default-src-none',
        cookies: 'cookies-secure-with-httponly-sessions-and-samesite',
        'referrer-policy': 'referrer-policy-private',
        'strict-transport-security': 'hsts-implemented-max-age-at-least-six-months',
        'subresource-integrity': 'sri-implemented-and-all-scripts-loaded-securely',
        'x-content-type-options': 'x-content-type-options-nosniff',
        // frame-ancestors takes precedence over the X-Frame-Options header (both +5)
        'x-frame-options': 'x-frame-options-implemented-via-csp',
        'cross-origin-resource-policy': 'corp-implemented-with-same-origin',
        'cross-origin-opener-policy': 'coop-implemented-with-same-origin',
        'cross-origin-embedder-policy': 'coep-implemented-with-require-corp',
      },
    },
  ],
  [
    'no header and no redirect',
    {
      input: 'http://bare.example.test/',
      // CSP −25, redirection −20, HSTS −20, XCTO −5, XFO −20: 100 − 90 = 10
      score: 10,
      grade: 'F',
      results: { redirection: 'redirection-missing' },
    },
  ],
  [
    'a session cookie without Secure set by a redirect',
    {
      input: 'https://cookie-on-redirect.example.test/',
      // CSP +5 and XFO +5 lost; HSTS −20, session cookie without Secure −40: 100 − 60 = 40
      score: 40,
      grade: 'D+',
      results: {
        'content-security-policy': 'csp-implemented-with-no-unsafe',
        cookies: 'cookies-session-without-secure-flag',
        'x-content-type-options': 'x-content-type-options-nosniff',
        'x-frame-options': 'x-frame-options-sameorigin-or-deny',
      },
    },
  ],
  [
    "script-src 'unsafe-inline', short HSTS, session cookie readable by scripts",
    {
      input: 'inline-script.example.test',
      // CSP −20, HSTS under six months −10, session cookie without HttpOnly −30, XCTO −5;
      // XFO +5 lost below 90: 100 − 65 = 35
      score: 35,
      grade: 'D',
      results: {
        'content-security-policy': 'csp-implemented-with-unsafe-inline',
        cookies: 'cookies-session-without-httponly-flag',
        'strict-transport-security': 'hsts-implemented-max-age-less-than-six-months',
        'x-frame-options': 'x-frame-options-sameorigin-or-deny',
      },
    },
  ],
  [
    'a preflight that echoes any Origin with credentials',
    {
      input: 'cors-echo.example.test',
      // universal CORS access −50; CSP +5 and XFO +5 lost: 100 − 50 = 50
      score: 50,
      grade: 'C',
      results: {
        'content-security-policy': 'csp-implemented-with-no-unsafe',
        'cross-origin-resource-sharing': 'cross-origin-resource-sharing-implemented-with-universal-access',
        'strict-transport-security': 'hsts-implemented-max-age-at-least-six-months',
        'x-content-type-options': 'x-content-type-options-nosniff',
        'x-frame-options': 'x-frame-options-sameorigin-or-deny',
      },
    },
  ],
  [
    'a foreign script over http without integrity',
    {
      input: 'cdn-scripts.example.test',
      // SRI −50; CSP +5, XFO +5 and Referrer-Policy +5 lost: 100 − 50 = 50
      score: 50,
      grade: 'C',
      results: {
        'content-security-policy': 'csp-implemented-with-no-unsafe',
        'referrer-policy': 'referrer-policy-private',
        'strict-transport-security': 'hsts-implemented-max-age-at-least-six-months',
        'subresource-integrity': 'sri-not-implemented-and-external-scripts-not-loaded-securely',
        'x-content-type-options': 'x-content-type-options-nosniff',
        'x-frame-options': 'x-frame-options-sameorigin-or-deny',
      },
    },
  ],
  [
    'penalties of exactly 10 keep the bonuses',
    {
      input: 'https://eval.example.test/',
      // 'unsafe-eval' −10 leaves 90, so the bonuses count: XFO +5, Referrer-Policy +5, CORP +10,
      // COOP +10, COEP +10, cookies +5: 90 + 45 = 135
      score: 135,
      grade: 'A+',
      results: {
        'content-security-policy': 'csp-implemented-with-unsafe-eval',
        cookies: 'cookies-secure-with-httponly-sessions-and-samesite',
        'referrer-policy': 'referrer-policy-private',
        'strict-transport-security': 'hsts-implemented-max-age-at-least-six-months',
        'x-content-type-options': 'x-content-type-options-nosniff',
        'x-frame-options': 'x-frame-options-sameorigin-or-deny',
        'cross-origin-resource-policy': 'corp-implemented-with-same-site',
        'cross-origin-opener-policy': 'coop-implemented-with-same-origin-allow-popups',
        'cross-origin-embedder-policy': 'coep-implemented-with-credentialless',
      },
    },
  ],
  [
    'penalties of 15 lose the bonuses',
    {
      input: 'passive-http.example.test',
      // images over http −10, XCTO −5 leave 85 < 90: XFO +5, Referrer-Policy +5, CORP +10 lost
      score: 85,
      grade: 'A-',
      results: {
        'content-security-policy': 'csp-implemented-with-insecure-scheme-in-passive-content-only',
        'referrer-policy': 'referrer-policy-private',
        'strict-transport-security': 'hsts-implemented-max-age-at-least-six-months',
        'x-frame-options': 'x-frame-options-sameorigin-or-deny',
        'cross-origin-resource-policy': 'corp-implemented-with-same-origin',
      },
    },
  ],
  [
    'a cookie without Secure kept safe by HSTS',
    {
      input: 'hsts-cookies.example.test',
      // cookie without Secure under HSTS −5, Referrer-Policy unsafe-url −5; style-src
      // 'unsafe-inline' 0, CORP cross-origin 0, COOP and COEP unsafe-none 0: 90, so XFO +5 counts: 95
      score: 95,
      grade: 'A',
      results: {
        'content-security-policy': 'csp-implemented-with-unsafe-inline-in-style-src-only',
        cookies: 'cookies-without-secure-flag-but-protected-by-hsts',
        'referrer-policy': 'referrer-policy-unsafe',
        'strict-transport-security': 'hsts-implemented-max-age-at-least-six-months',
        'x-content-type-options': 'x-content-type-options-nosniff',
        'x-frame-options': 'x-frame-options-sameorigin-or-deny',
        'cross-origin-resource-policy': 'corp-implemented-with-cross-origin',
        'cross-origin-opener-policy': 'coop-implemented-with-unsafe-none',
        'cross-origin-embedder-policy': 'coep-implemented-with-unsafe-none',
      },
    },
  ],
  [
    'no https at all (the score stops at 0)',
    {
      input: 'http://http-only.example.test/',
      // CSP −25, session cookie without Secure −40, redirection −20, HSTS without https −20:
      // 100 − 105 is below 0, so 0
      score: 0,
      grade: 'F',
      results: {
        cookies: 'cookies-session-without-secure-flag',
        redirection: 'redirection-missing',
        'strict-transport-security': 'hsts-not-implemented-no-https',
        'x-content-type-options': 'x-content-type-options-nosniff',
        'x-frame-options': 'x-frame-options-sameorigin-or-deny',
      },
    },
  ],
  [
    'an expired certificate on https and on the redirect to it',
    {
      input: 'expired-cert.example.test',
      // HSTS with an invalid certificate −20, redirection to an invalid certificate −20;
      // CSP +5 and XFO +5 lost: 100 − 40 = 60
      score: 60,
      grade: 'C+',
      results: {
        'content-security-policy': 'csp-implemented-with-no-unsafe',
        redirection: 'redirection-invalid-cert',
        'strict-transport-security': 'hsts-invalid-cert',
        'x-content-type-options': 'x-content-type-options-nosniff',
        'x-frame-options': 'x-frame-options-sameorigin-or-deny',
      },
    },
  ],
  [
    'an expired certificate in the middle of the http:// chain',
    {
      input: 'detour.example.test',
      // the https page is fine; http:// passes a host with an expired certificate: redirection
      // −20; CSP +5 and XFO +5 lost: 100 − 20 = 80
      score: 80,
      grade: 'B+',
      results: {
        'content-security-policy': 'csp-implemented-with-no-unsafe',
        redirection: 'redirection-invalid-cert',
        'strict-transport-security': 'hsts-implemented-max-age-at-least-six-months',
        'x-content-type-options': 'x-content-type-options-nosniff',
        'x-frame-options': 'x-frame-options-sameorigin-or-deny',
      },
    },
  ],
  [
    'a JSON API whose http:// goes to another host',
    {
      input: 'api.example.test',
      // off-host first redirect −5 leaves 95: CSP default-src 'none' +10, XFO via frame-ancestors
      // +5, CORP +10 count; SRI does not apply to JSON (0): 95 + 25 = 120
      score: 120,
      grade: 'A+',
      results: {
        'content-security-policy': 'csp-implemented-with-no-unsafe-default-src-none',
        redirection: 'redirection-off-host-from-http',
        'strict-transport-security': 'hsts-implemented-max-age-at-least-six-months',
        'subresource-integrity': 'sri-not-implemented-response-not-html',
        'x-content-type-options': 'x-content-type-options-nosniff',
        'x-frame-options': 'x-frame-options-implemented-via-csp',
        'cross-origin-resource-policy': 'corp-implemented-with-same-origin',
      },
    },
  ],
  [
    'http → https → another host',
    {
      input: 'chain.example.test',
      // the first redirect stays on the host and goes to https, so no redirection penalty; the
      // landing page: CSP +5, XFO +5, Referrer-Policy +5, COOP +10: 100 + 25 = 125
      score: 125,
      grade: 'A+',
      results: {
        'content-security-policy': 'csp-implemented-with-no-unsafe',
        'referrer-policy': 'referrer-policy-private',
        'strict-transport-security': 'hsts-implemented-max-age-at-least-six-months',
        'x-content-type-options': 'x-content-type-options-nosniff',
        'x-frame-options': 'x-frame-options-sameorigin-or-deny',
        'cross-origin-opener-policy': 'coop-implemented-with-same-origin',
      },
    },
  ],
  [
    'http → http on another host first, and every header sent twice or wrong',
    {
      input: 'http-hop.example.test',
      // first redirect not to https −10, XCTO invalid −5, XFO invalid −20, Referrer-Policy invalid
      // −5, CORP invalid −5, COOP invalid −5, COEP invalid −5; CSP +5 lost: 100 − 55 = 45
      score: 45,
      grade: 'C-',
      results: {
        'content-security-policy': 'csp-implemented-with-no-unsafe',
        redirection: 'redirection-not-to-https-on-initial-redirection',
        'referrer-policy': 'referrer-policy-header-invalid',
        'strict-transport-security': 'hsts-implemented-max-age-at-least-six-months',
        'x-content-type-options': 'x-content-type-options-header-invalid',
        'x-frame-options': 'x-frame-options-header-invalid',
        'cross-origin-resource-policy': 'corp-header-invalid',
        'cross-origin-opener-policy': 'coop-header-invalid',
        'cross-origin-embedder-policy': 'coep-header-invalid',
      },
    },
  ],
  [
    'a report-only CSP, an unreadable body and a CSRF cookie without SameSite',
    {
      input: 'report-only.example.test',
      // report-only CSP −25, body not valid UTF-8 −20, anti-CSRF cookie without SameSite −20;
      // HSTS of exactly 180 days 0, ALLOW-FROM 0, Referrer-Policy +5 lost: 100 − 65 = 35
      score: 35,
      grade: 'D',
      results: {
        'content-security-policy': 'csp-not-implemented-but-reporting-enabled',
        cookies: 'cookies-anticsrf-without-samesite-flag',
        'referrer-policy': 'referrer-policy-private',
        'strict-transport-security': 'hsts-implemented-max-age-at-least-six-months',
        'subresource-integrity': 'html-not-parseable',
        'x-content-type-options': 'x-content-type-options-nosniff',
        'x-frame-options': 'x-frame-options-allow-from-origin',
      },
    },
  ],
];

// ---------------------------------------------------------------------------------------------
// Sites that must be cut off or refused.
// ---------------------------------------------------------------------------------------------

// Latin-1 bytes with no charset declared: browsers fall back to windows-1252 and read the page
sites['undeclared.example.test'] = secureSite({
  headers: [['Content-Type', 'text/html']],
  body: Buffer.concat([notUtf8, Buffer.from('<script src="/app.js" integrity="sha384-x"></script>')]),
});
sites['big.example.test'] = secureSite({
  headers: [['Content-Type', 'text/html']],
  bigBody: { bytes: 10 * 1024 * 1024 + 1 },
});
sites['hops.example.test'] = {
  routes: {
    '*': (request) => {
      if (request.scheme === 'http')
        return { status: 301, redirect: `https://hops.example.test${request.url}` };
      const n = Number(new URL(request.url, 'https://x').searchParams.get('n') ?? '0');
      return n < 20 ? { redirect: `/?n=${n + 1}` } : html(goodHeaders);
    },
  },
};
sites['broken.example.test'] = secureSite({ status: 500, body: 'Internal Server Error' });
sites['down.example.test'] = secureSite(html(''));
closed.add('down.example.test:80');
closed.add('down.example.test:443');

interface Failure {
  statusCode: number;
  code: string;
  error: string;
}

describeEachDatabase('POST /v1/http-headers/analyze', (database) => {
  let web: WebServer;
  /** On 127.0.0.2: the one "public" host of the restricted app. */
  let outside: WebServer;
  let closedPort: number;

  beforeAll(async () => {
    closedPort = await findClosedPort();
    web = await startWebServer({ sites });
    outside = await startWebServer({
      ca: web.ca,
      address: '127.0.0.2',
      sites: {
        'public.example.test': secureSite(html(goodHeaders), {
          paths: {
            '/': { redirect: `http://127.0.0.1:${web.httpPort}/` },
            '/to-intranet': { redirect: 'http://intranet.example.test/' },
          },
        }),
        'slow.example.test': secureSite({
          headers: [['Content-Type', 'text/html']],
          slowBody: { bytes: 3000, seconds: 30 },
        }),
      },
    });
    // ~200 certificates to issue: more than the default on a busy machine
  }, 60_000);

  afterAll(async () => {
    await Promise.all([web?.close(), outside?.close()]);
  });

  const zones = { 'intranet.example.test': { A: '10.0.0.1' } };
  // one caller sends ~100 analyses within seconds; the default class allows 60 a minute
  const RATE_LIMIT_SCALE = '10';
  /** OUTBOUND_ALLOW=127.0.0.0/8: reaches every lab site. */
  const lab = toolTestApp({
    database,
    zones,
    lab: () => ({
      connectTo: Object.keys(sites).flatMap((host) =>
        ([80, 443] as const).map((port) => {
          const to = closed.has(`${host}:${port}`) ? closedPort : port === 80 ? web.httpPort : web.httpsPort;
          return `${host}:${port}:127.0.0.1:${to}`;
        }),
      ),
    }),
    env: () => ({ RATE_LIMIT_SCALE, OUTBOUND_CA_FILE: web.caFile, HSTS_PRELOAD_FILE: preloadFile }),
  });
  /** Production's refusals, with 127.0.0.2 alone let through as a stand-in for a public address. */
  const restricted = toolTestApp({
    database,
    zones,
    lab: () => ({ web: outside, allow: '127.0.0.2/32' }),
    env: { RATE_LIMIT_SCALE, OUTBOUND_TIMEOUT_MS: '1000' },
  });

  beforeEach(() => {
    for (const server of [web, outside]) {
      server.connections.length = 0;
      server.requests.length = 0;
    }
  });

  function analyse(url: unknown, on: 'lab' | 'restricted' = 'lab', headers?: Record<string, string>) {
    return (on === 'lab' ? lab : restricted).post('/v1/http-headers/analyze', { url }, headers);
  }

  async function analysis(input: string) {
    const response = await analyse(input);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.success).toBe(true);
    return body.data as {
      score: number;
      grade: string;
      url: string;
      status: number;
      tests: { name: string; result: string | null; modifier: number; pass: boolean | null }[];
      redirects: { url: string; status: number; location: string | null }[];
      results: Record<string, string>;
      headers: Record<string, string>;
      recommendations: { header: string; severity: string }[];
      scoring: { notes: string[]; bonusesApplied: boolean; notEvaluated: string[] };
    };
  }

  async function failure(url: unknown, on: 'lab' | 'restricted' = 'lab'): Promise<Failure> {
    const response = await analyse(url, on);
    const body = response.json() as { success: boolean; error: string; code: string };
    expect(body.success, response.body).toBe(false);
    return { statusCode: response.statusCode, code: body.code, error: body.error };
  }

  describe('the grade of whole sites, worked out by hand from the table', () => {
    it.each(scoredSites)('%s', async (_label, expected) => {
      const data = await analysis(expected.input);
      expect(Object.fromEntries(data.tests.map((test) => [test.name, test.result]))).toEqual({
        ...unprotected,
        ...expected.results,
      });
      expect({ score: data.score, grade: data.grade }).toEqual({
        score: expected.score,
        grade: expected.grade,
      });
      // every test evaluated: nothing was left out of the score
      expect(data.scoring.notEvaluated).toEqual([]);
    });

    it('follows http → https → another host and shows the chain it graded', async () => {
      const data = await analysis('chain.example.test');
      expect(data.url).toBe('https://landing.chain.example.test/welcome');
      expect(data.redirects).toEqual([
        {
          url: 'https://chain.example.test/',
          status: 302,
          location: 'https://landing.chain.example.test/welcome',
        },
        { url: 'https://landing.chain.example.test/welcome', status: 200, location: null },
      ]);
      const redirection = data.tests.find((test) => test.name === 'redirection');
      expect(redirection).toMatchObject({ result: 'redirection-to-https', pass: true, modifier: 0 });
      // both visits and the preflight went to the lab, in one session
      const asked = web.requests.map(
        (request) => `${request.method} ${request.scheme}://${request.host}${request.url}`,
      );
      expect(asked.sort()).toEqual(
        [
          'GET http://chain.example.test/',
          'GET https://chain.example.test/',
          'GET https://chain.example.test/',
          'GET https://landing.chain.example.test/welcome',
          'GET https://landing.chain.example.test/welcome',
          'OPTIONS https://landing.chain.example.test/welcome',
        ].sort(),
      );
    });

    it('sends the preflight with its own foreign Origin and asks for GET', async () => {
      await analysis('cors-echo.example.test');
      const preflight = web.requests.find((request) => request.method === 'OPTIONS');
      expect(preflight?.headers).toContainEqual(['Origin', PREFLIGHT_ORIGIN]);
      expect(preflight?.headers).toContainEqual(['Access-Control-Request-Method', 'GET']);
      expect(new URL(PREFLIGHT_ORIGIN).hostname.endsWith('.invalid')).toBe(true);
    });

    it('grades the http:// response when https cannot be reached, and says so', async () => {
      const data = await analysis('http-only.example.test');
      expect(data.url).toBe('http://http-only.example.test/');
      expect(data.scoring.notes).toContain('HTTPS could not be reached, so the http:// response was graded.');
      expect(data.scoring.notes.join('\n')).toContain(
        'https://http-only.example.test/ could not be fetched: Nothing answered on port 443 at http-only.example.test',
      );
    });

    it('reads a body without a declared charset as a browser would', async () => {
      const data = await analysis('undeclared.example.test');
      expect(data.tests.find((test) => test.name === 'subresource-integrity')?.result).toBe(
        'sri-implemented-and-all-scripts-loaded-securely',
      );
    });

    it('visits the path given, on both schemes', async () => {
      await analysis('https://strict.example.test/account/login?next=%2F#top');
      const paths = web.requests.map((request) => `${request.scheme} ${request.url}`);
      expect(paths).toContain('https /account/login?next=%2F');
      expect(paths).toContain('http /account/login?next=%2F');
    });
  });

  describe('every result of the table, served by the lab', () => {
    it('serves every result, the two that need the HSTS preload list through HSTS_PRELOAD_FILE', () => {
      expect(needsPreloadList.map(([expectation]) => expectation).sort()).toEqual([
        'hsts-preloaded',
        'redirection-all-redirects-preloaded',
      ]);
      expect(servedVectors.length).toBe(scoreTable.length);
    });

    it.each(servedVectors)('%s (%s)', async (expectation, testName) => {
      const data = await analysis(vectorHost(expectation));
      const test = data.tests.find((t) => t.name === testName);
      expect(test?.result).toBe(expectation);
      expect(test?.modifier).toBe(tableModifier.get(expectation));
    });
  });

  describe('cut-offs', () => {
    it('cuts a 10 MB body off', async () => {
      expect(await failure('big.example.test')).toEqual({
        statusCode: 502,
        code: 'BODY_TOO_LARGE',
        error: 'Response body exceeds 10 MiB (the size limit)',
      });
    });

    it('gives up on a body dribbled over 30 s at the fetch time limit', async () => {
      expect(await failure('slow.example.test', 'restricted')).toEqual({
        statusCode: 504,
        code: 'TIMEOUT',
        error: 'Fetching https://slow.example.test/ took longer than the 1 s limit',
      });
    });

    it('stops a chain of 20 redirects after 10', async () => {
      expect(await failure('hops.example.test')).toEqual({
        statusCode: 502,
        code: 'TOO_MANY_REDIRECTS',
        error: 'Too many redirects (more than 10)',
      });
      // the https visit's 11 requests; the http visit's first hop and its 10 on https
      expect(web.requests.filter((request) => request.scheme === 'https')).toHaveLength(21);
    });
  });

  describe('SSRF: refused through the route, and the lab sees no connection', () => {
    const refusals: [label: string, url: () => string, message: string][] = [
      [
        'a loopback address',
        () => `http://127.0.0.1:${web.httpPort}/`,
        'Refusing to connect to 127.0.0.1: loopback address',
      ],
      [
        'localhost',
        () => `localhost:${web.httpsPort}`,
        'Refusing to connect to localhost (127.0.0.1): loopback address',
      ],
      [
        'a name resolving to 10.0.0.1',
        () => 'intranet.example.test',
        'Refusing to connect to intranet.example.test (10.0.0.1): private address',
      ],
      [
        'a redirect to a loopback address',
        () => 'https://public.example.test/',
        'Refusing to follow a redirect to 127.0.0.1: loopback address',
      ],
      [
        'a redirect to a name resolving to 10.0.0.1',
        () => 'https://public.example.test/to-intranet',
        'Refusing to follow a redirect to intranet.example.test (10.0.0.1): private address',
      ],
    ];

    it.each(refusals)('refuses %s with 422', async (_label, url, message) => {
      expect(await failure(url(), 'restricted')).toEqual({
        statusCode: 422,
        code: 'OUTBOUND_BLOCKED',
        error: message,
      });
      expect(web.connections).toEqual([]);
      expect(web.requests).toEqual([]);
      // only the allowed public host ever saw a request, and only for the first hop
      for (const request of outside.requests) expect(request.host).toBe('public.example.test');
    });

    it('reaches the allowed public host (so the refusals above are the policy, not the lab)', async () => {
      const response = await analyse('https://public.example.test/welcome', 'restricted');
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data.url).toBe('https://public.example.test/welcome');
    });
  });

  describe('input and errors', () => {
    it('needs a signed-in caller', async () => {
      const response = await analyse('strict.example.test', 'lab', {});
      expect(response.statusCode).toBe(401);
      expect(web.requests).toEqual([]);
    });

    it("refuses a blank URL with the spec's message", async () => {
      const response = await analyse('   ');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ success: false, error: 'URL is required' });
    });

    it.each([
      ['ftp://strict.example.test/', 'Only http and https sites can be analysed (got ftp:)'],
      ['https://user:secret@strict.example.test/', 'URLs with a user name or password are not fetched'],
      ['https://exa mple.test/', 'Not a URL or host name: "https://exa mple.test/"'],
    ])('refuses %s', async (url, message) => {
      expect(await failure(url)).toEqual({ statusCode: 400, code: 'INVALID_URL', error: message });
      expect(web.requests).toEqual([]);
    });

    it('answers 422 for a name that does not exist', async () => {
      expect(await failure('nowhere.example.test')).toEqual({
        statusCode: 422,
        code: 'DNS_NOT_FOUND',
        error: 'nowhere.example.test does not exist (NXDOMAIN)',
      });
    });

    it('answers 422 for a status the Observatory does not grade', async () => {
      const result = await failure('broken.example.test');
      expect(result).toMatchObject({ statusCode: 422, code: 'UNEXPECTED_STATUS' });
      expect(result.error).toContain('HTTP status 500');
    });

    it('answers 502 when nothing listens on https or http', async () => {
      const result = await failure('down.example.test');
      expect(result).toMatchObject({ statusCode: 502, code: 'SITE_DOWN' });
      expect(result.error).toBe(
        'The site could not be reached over https or http: Nothing answered on port 443 at down.example.test; Nothing answered on port 80 at down.example.test',
      );
    });
  });
});
