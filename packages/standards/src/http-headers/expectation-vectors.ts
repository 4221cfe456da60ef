// Test vectors: one site per result of the Observatory's score table, as the requests a fetcher
// hands to `gradeResponse`. Used by the unit tests, the conformance suite and (as specs for lab
// servers) the Analyser's lab tests. Not in the package's main entry: tests elsewhere import it as
// @rfckit/standards/http-headers/expectation-vectors.
import type { CorsPreflight, FetchedVisit, GradeResponseInput } from './grade.ts';
import type { HeaderField } from './headers.ts';
import type { ObservatoryTestName } from './score-table.ts';
import { hstsPreloadList, type HstsPreloadEntry } from './transport.ts';

/** "Name: value" lines to header fields (split at the first colon). */
export function fields(text: string): HeaderField[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const colon = line.indexOf(':');
      return { name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() };
    });
}

export const observerOrigin = 'https://observer.invalid';
const plainPage = '<!doctype html><html><head><title>Example</title></head><body>Hello</body></html>';

export interface SiteSpec {
  /** Header lines of the final https response, besides Content-Type. */
  headers?: string;
  contentType?: string | null;
  body?: string | null;
  bodyError?: string;
  https?: 'unreachable' | 'invalid-cert';
  /** The http:// visit: the URLs and statuses of its chain, final last; null = no http. */
  httpChain?: [string, number][] | null;
  httpCertificateValid?: boolean;
  cors?: string;
  preload?: HstsPreloadEntry[];
}

/**
 * The Observatory's requests for https://example.com/, as a fetcher would hand them over: by
 * default https answers 200 and http://example.com/ redirects there with a 301.
 */
export function site(spec: SiteSpec = {}): GradeResponseInput {
  const contentType = spec.contentType === undefined ? 'text/html; charset=utf-8' : spec.contentType;
  const headerText = `${contentType === null ? '' : `Content-Type: ${contentType}\n`}${spec.headers ?? ''}`;
  const httpsVisit: FetchedVisit = {
    redirects: [],
    response: {
      url: 'https://example.com/',
      status: 200,
      headers: fields(headerText),
      body: spec.body === undefined ? plainPage : spec.body,
      ...(spec.bodyError ? { bodyError: spec.bodyError } : {}),
    },
    certificateValid: spec.https !== 'invalid-cert',
  };
  const chain =
    spec.httpChain === undefined
      ? ([
          ['http://example.com/', 301],
          ['https://example.com/', 200],
        ] as [string, number][])
      : spec.httpChain;
  let httpVisit: FetchedVisit | null = null;
  if (chain !== null) {
    const hops = chain.map(([url, status], index) => ({
      url,
      status,
      headers: index < chain.length - 1 ? [{ name: 'Location', value: chain[index + 1]![0] }] : [],
    }));
    const last = hops.at(-1)!;
    httpVisit = {
      redirects: hops.slice(0, -1),
      response: {
        ...last,
        headers: last.url.startsWith('https:') ? httpsVisit.response.headers : [],
        body: plainPage,
      },
      certificateValid: spec.httpCertificateValid ?? true,
    };
  }
  const cors: CorsPreflight = { origin: observerOrigin, headers: fields(spec.cors ?? '') };
  return {
    site: 'example.com',
    https: spec.https === 'unreachable' ? null : httpsVisit,
    http: httpVisit,
    cors,
    ...(spec.preload ? { hstsPreload: hstsPreloadList(spec.preload) } : {}),
  };
}

export const hsts = 'Strict-Transport-Security: max-age=31536000';
export const preloaded: HstsPreloadEntry[] = [
  { name: 'example.com', mode: 'force-https', include_subdomains: true },
];
export const script = (attributes: string) =>
  `<!doctype html><html><head><script ${attributes}></script></head></html>`;

/** One input per result of the score table: every result the table has must be reachable. */
export const expectationVectors: [expectation: string, test: ObservatoryTestName, spec: SiteSpec][] = [
  // Content Security Policy
  [
    'csp-implemented-with-no-unsafe-default-src-none',
    'content-security-policy',
    { headers: "Content-Security-Policy: default-src 'none'" },
  ],
  [
    'csp-implemented-with-no-unsafe',
    'content-security-policy',
    { headers: "Content-Security-Policy: default-src 'self'" },
  ],
  [
    'csp-implemented-with-unsafe-inline-in-style-src-only',
    'content-security-policy',
    { headers: "Content-Security-Policy: default-src 'self'; style-src 'self' 'unsafe-inline'" },
  ],
  [
    'csp-implemented-with-insecure-scheme-in-passive-content-only',
    'content-security-policy',
    { headers: "Content-Security-Policy: default-src 'self'; img-src http://images.example.com" },
  ],
  [
    'csp-implemented-with-unsafe-eval',
    'content-security-policy',
    { headers: "Content-Security-Policy: default-src 'self'; script-src 'self' 'unsafe-eval'" },
  ],
  [
    'csp-implemented-with-unsafe-inline',
    'content-security-policy',
    { headers: "Content-Security-Policy: default-src 'self'; script-src 'self' 'unsafe-inline'" },
  ],
  [
    'csp-implemented-with-insecure-scheme',
    'content-security-policy',
    { headers: "Content-Security-Policy: default-src 'self'; script-src http://cdn.example.com" },
  ],
  [
    'csp-header-invalid',
    'content-security-policy',
    { headers: "Content-Security-Policy: default-src 'self'; default-src 'none'" },
  ],
  ['csp-not-implemented', 'content-security-policy', {}],
  [
    'csp-not-implemented-but-reporting-enabled',
    'content-security-policy',
    { headers: "Content-Security-Policy-Report-Only: default-src 'self'" },
  ],
  [
    'csp-implemented-but-duplicate-directives',
    'content-security-policy',
    { headers: "Content-Security-Policy: default-src 'self'; report-uri /a; report-uri /b" },
  ],
  // Cookies
  [
    'cookies-secure-with-httponly-sessions-and-samesite',
    'cookies',
    { headers: 'Set-Cookie: sessionid=1; Secure; HttpOnly; SameSite=Lax' },
  ],
  [
    'cookies-secure-with-httponly-sessions',
    'cookies',
    { headers: 'Set-Cookie: sessionid=1; Secure; HttpOnly' },
  ],
  ['cookies-not-found', 'cookies', {}],
  [
    'cookies-without-secure-flag-but-protected-by-hsts',
    'cookies',
    { headers: `${hsts}\nSet-Cookie: theme=dark; SameSite=Lax` },
  ],
  [
    'cookies-session-without-secure-flag-but-protected-by-hsts',
    'cookies',
    { headers: `${hsts}\nSet-Cookie: sessionid=1; HttpOnly; SameSite=Lax` },
  ],
  ['cookies-without-secure-flag', 'cookies', { headers: 'Set-Cookie: theme=dark; SameSite=Lax' }],
  [
    'cookies-samesite-flag-invalid',
    'cookies',
    { headers: 'Set-Cookie: theme=dark; Secure; SameSite=Sometimes' },
  ],
  ['cookies-anticsrf-without-samesite-flag', 'cookies', { headers: 'Set-Cookie: csrftoken=1; Secure' }],
  [
    'cookies-session-without-httponly-flag',
    'cookies',
    { headers: 'Set-Cookie: sessionid=1; Secure; SameSite=Lax' },
  ],
  [
    'cookies-session-without-secure-flag',
    'cookies',
    { headers: 'Set-Cookie: sessionid=1; HttpOnly; SameSite=Lax' },
  ],
  // Cross-origin resource sharing (the preflight's answer)
  ['cross-origin-resource-sharing-not-implemented', 'cross-origin-resource-sharing', {}],
  [
    'cross-origin-resource-sharing-implemented-with-public-access',
    'cross-origin-resource-sharing',
    { cors: 'Access-Control-Allow-Origin: *' },
  ],
  [
    'cross-origin-resource-sharing-implemented-with-restricted-access',
    'cross-origin-resource-sharing',
    {
      cors: 'Access-Control-Allow-Origin: https://partner.example.org\nAccess-Control-Allow-Credentials: true',
    },
  ],
  [
    'cross-origin-resource-sharing-implemented-with-universal-access',
    'cross-origin-resource-sharing',
    { cors: `Access-Control-Allow-Origin: ${observerOrigin}\nAccess-Control-Allow-Credentials: true` },
  ],
  // Redirection (the visit that starts at http://)
  ['redirection-all-redirects-preloaded', 'redirection', { preload: preloaded }],
  ['redirection-to-https', 'redirection', {}],
  ['redirection-not-needed-no-http', 'redirection', { httpChain: null }],
  [
    'redirection-off-host-from-http',
    'redirection',
    {
      httpChain: [
        ['http://example.com/', 301],
        ['https://www.example.com/', 200],
      ],
    },
  ],
  [
    'redirection-not-to-https-on-initial-redirection',
    'redirection',
    {
      httpChain: [
        ['http://example.com/', 301],
        ['http://www.example.com/', 301],
        ['https://www.example.com/', 200],
      ],
    },
  ],
  [
    'redirection-not-to-https',
    'redirection',
    {
      httpChain: [
        ['http://example.com/', 301],
        ['http://www.example.com/', 200],
      ],
    },
  ],
  ['redirection-missing', 'redirection', { httpChain: [['http://example.com/', 200]] }],
  ['redirection-invalid-cert', 'redirection', { httpCertificateValid: false }],
  // Referrer-Policy
  ['referrer-policy-private', 'referrer-policy', { headers: 'Referrer-Policy: no-referrer' }],
  ['referrer-policy-not-implemented', 'referrer-policy', {}],
  ['referrer-policy-unsafe', 'referrer-policy', { headers: 'Referrer-Policy: unsafe-url' }],
  ['referrer-policy-header-invalid', 'referrer-policy', { headers: 'Referrer-Policy: everyone' }],
  // Strict-Transport-Security
  ['hsts-preloaded', 'strict-transport-security', { preload: preloaded }],
  [
    'hsts-implemented-max-age-at-least-six-months',
    'strict-transport-security',
    { headers: 'Strict-Transport-Security: max-age=15552000' },
  ],
  [
    'hsts-implemented-max-age-less-than-six-months',
    'strict-transport-security',
    { headers: 'Strict-Transport-Security: max-age=15551999' },
  ],
  ['hsts-not-implemented', 'strict-transport-security', {}],
  [
    'hsts-header-invalid',
    'strict-transport-security',
    { headers: 'Strict-Transport-Security: includeSubDomains' },
  ],
  [
    'hsts-not-implemented-no-https',
    'strict-transport-security',
    { https: 'unreachable', httpChain: [['http://example.com/', 200]] },
  ],
  ['hsts-invalid-cert', 'strict-transport-security', { https: 'invalid-cert', headers: hsts }],
  // Subresource Integrity
  [
    'sri-implemented-and-all-scripts-loaded-securely',
    'subresource-integrity',
    { body: script('src="/app.js" integrity="sha384-abc"') },
  ],
  [
    'sri-implemented-and-external-scripts-loaded-securely',
    'subresource-integrity',
    { body: script('src="https://cdn.other.net/a.js" integrity="sha384-abc" crossorigin="anonymous"') },
  ],
  [
    'sri-not-implemented-response-not-html',
    'subresource-integrity',
    { contentType: 'application/json', body: '{}' },
  ],
  ['sri-not-implemented-but-no-scripts-loaded', 'subresource-integrity', {}],
  [
    'sri-not-implemented-but-all-scripts-loaded-from-secure-origin',
    'subresource-integrity',
    { body: `${script('src="/app.js"')}${script('src="https://static.example.com/x.js"')}` },
  ],
  [
    'sri-not-implemented-but-external-scripts-loaded-securely',
    'subresource-integrity',
    { body: script('src="https://cdn.other.net/a.js"') },
  ],
  [
    'sri-implemented-but-external-scripts-not-loaded-securely',
    'subresource-integrity',
    { body: script('src="http://cdn.other.net/a.js" integrity="sha384-abc"') },
  ],
  [
    'sri-not-implemented-and-external-scripts-not-loaded-securely',
    'subresource-integrity',
    { body: script('src="//cdn.other.net/a.js"') },
  ],
  ['html-not-parseable', 'subresource-integrity', { bodyError: 'The body is not valid UTF-8.' }],
  // X-Content-Type-Options
  [
    'x-content-type-options-nosniff',
    'x-content-type-options',
    { headers: 'X-Content-Type-Options: nosniff' },
  ],
  ['x-content-type-options-not-implemented', 'x-content-type-options', {}],
  [
    'x-content-type-options-header-invalid',
    'x-content-type-options',
    { headers: 'X-Content-Type-Options: nosniff\nX-Content-Type-Options: nosniff' },
  ],
  // X-Frame-Options
  [
    'x-frame-options-implemented-via-csp',
    'x-frame-options',
    { headers: "Content-Security-Policy: default-src 'self'; frame-ancestors 'self'" },
  ],
  ['x-frame-options-sameorigin-or-deny', 'x-frame-options', { headers: 'X-Frame-Options: DENY' }],
  [
    'x-frame-options-allow-from-origin',
    'x-frame-options',
    { headers: 'X-Frame-Options: ALLOW-FROM https://partner.example.org/' },
  ],
  ['x-frame-options-not-implemented', 'x-frame-options', {}],
  [
    'x-frame-options-header-invalid',
    'x-frame-options',
    { headers: 'X-Frame-Options: SAMEORIGIN\nX-Frame-Options: DENY' },
  ],
  // Cross-Origin-Resource-Policy
  [
    'corp-header-invalid',
    'cross-origin-resource-policy',
    { headers: 'Cross-Origin-Resource-Policy: same-host' },
  ],
  [
    'corp-implemented-with-cross-origin',
    'cross-origin-resource-policy',
    { headers: 'Cross-Origin-Resource-Policy: cross-origin' },
  ],
  [
    'corp-implemented-with-same-origin',
    'cross-origin-resource-policy',
    { headers: 'Cross-Origin-Resource-Policy: same-origin' },
  ],
  [
    'corp-implemented-with-same-site',
    'cross-origin-resource-policy',
    { headers: 'Cross-Origin-Resource-Policy: Same-Site' },
  ],
  ['corp-not-implemented', 'cross-origin-resource-policy', {}],
  // Cross-Origin-Embedder-Policy
  [
    'coep-implemented-with-require-corp',
    'cross-origin-embedder-policy',
    { headers: 'Cross-Origin-Embedder-Policy: require-corp' },
  ],
  [
    'coep-implemented-with-credentialless',
    'cross-origin-embedder-policy',
    { headers: 'Cross-Origin-Embedder-Policy: credentialless' },
  ],
  [
    'coep-implemented-with-unsafe-none',
    'cross-origin-embedder-policy',
    { headers: 'Cross-Origin-Embedder-Policy: unsafe-none' },
  ],
  ['coep-not-implemented', 'cross-origin-embedder-policy', {}],
  [
    'coep-header-invalid',
    'cross-origin-embedder-policy',
    { headers: 'Cross-Origin-Embedder-Policy: require-corp\nCross-Origin-Embedder-Policy: credentialless' },
  ],
  // Cross-Origin-Opener-Policy
  [
    'coop-implemented-with-same-origin',
    'cross-origin-opener-policy',
    { headers: 'Cross-Origin-Opener-Policy: same-origin' },
  ],
  [
    'coop-implemented-with-same-origin-allow-popups',
    'cross-origin-opener-policy',
    { headers: 'Cross-Origin-Opener-Policy: same-origin-allow-popups' },
  ],
  [
    'coop-implemented-with-noopener-allow-popups',
    'cross-origin-opener-policy',
    { headers: 'Cross-Origin-Opener-Policy: noopener-allow-popups' },
  ],
  [
    'coop-implemented-with-unsafe-none',
    'cross-origin-opener-policy',
    { headers: 'Cross-Origin-Opener-Policy: unsafe-none' },
  ],
  ['coop-not-implemented', 'cross-origin-opener-policy', {}],
  ['coop-header-invalid', 'cross-origin-opener-policy', { headers: 'Cross-Origin-Opener-Policy: same-site' }],
];
