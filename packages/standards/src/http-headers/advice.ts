import type { ObservatoryTestName } from './score-table.ts';

/** The header (or page feature) each test is about, as recommendations name it. */
export const testHeader: Readonly<Record<ObservatoryTestName, string>> = {
  'content-security-policy': 'Content-Security-Policy',
  cookies: 'Set-Cookie',
  'cross-origin-resource-sharing': 'Access-Control-Allow-Origin',
  redirection: 'Location',
  'referrer-policy': 'Referrer-Policy',
  'strict-transport-security': 'Strict-Transport-Security',
  'subresource-integrity': 'Subresource Integrity (script integrity attribute)',
  'x-content-type-options': 'X-Content-Type-Options',
  'x-frame-options': 'X-Frame-Options',
  'cross-origin-resource-policy': 'Cross-Origin-Resource-Policy',
  'cross-origin-opener-policy': 'Cross-Origin-Opener-Policy',
  'cross-origin-embedder-policy': 'Cross-Origin-Embedder-Policy',
};

/**
 * Short keys of `results` (header → PASS/FAIL/WARN/ERROR) that the vulnerability scanner reads:
 * it rates a finding High when its key contains "csp" or "hsts" (spec part 2 §9).
 */
export const resultKey: Readonly<Record<ObservatoryTestName, string>> = {
  'content-security-policy': 'csp',
  cookies: 'cookies',
  'cross-origin-resource-sharing': 'cors',
  redirection: 'redirection',
  'referrer-policy': 'referrer-policy',
  'strict-transport-security': 'hsts',
  'subresource-integrity': 'sri',
  'x-content-type-options': 'x-content-type-options',
  'x-frame-options': 'x-frame-options',
  'cross-origin-resource-policy': 'corp',
  'cross-origin-opener-policy': 'coop',
  'cross-origin-embedder-policy': 'coep',
};

/** A configuration that earns the test's best result; `host` names the site where it matters. */
export function exampleFor(test: ObservatoryTestName, result: string, host: string | null): string {
  const site = host ?? 'example.com';
  switch (test) {
    case 'content-security-policy':
      return "Content-Security-Policy: default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
    case 'cookies':
      return 'Set-Cookie: __Host-session=<value>; Path=/; Secure; HttpOnly; SameSite=Lax';
    case 'cross-origin-resource-sharing':
      return 'Access-Control-Allow-Origin: https://app.example.com\nVary: Origin';
    case 'redirection':
      return `HTTP/1.1 301 Moved Permanently\nLocation: https://${site}/`;
    case 'referrer-policy':
      return 'Referrer-Policy: strict-origin-when-cross-origin';
    case 'strict-transport-security':
      return 'Strict-Transport-Security: max-age=63072000; includeSubDomains; preload';
    case 'subresource-integrity':
      return result === 'html-not-parseable'
        ? 'Content-Type: text/html; charset=utf-8'
        : '<script src="https://cdn.example.net/library.js" integrity="sha384-<base64 SHA-384 digest of the file>" crossorigin="anonymous"></script>';
    case 'x-content-type-options':
      return 'X-Content-Type-Options: nosniff';
    case 'x-frame-options':
      return "Content-Security-Policy: frame-ancestors 'self'";
    case 'cross-origin-resource-policy':
      return 'Cross-Origin-Resource-Policy: same-origin';
    case 'cross-origin-opener-policy':
      return 'Cross-Origin-Opener-Policy: same-origin';
    case 'cross-origin-embedder-policy':
      return 'Cross-Origin-Embedder-Policy: require-corp';
  }
}
