import { getDomain } from 'tldts';
import { worseOf, type TestOutcome } from './outcome.ts';

/** A Set-Cookie line parsed as RFC 6265 §5.2 says a user agent does. */
export interface ParsedCookie {
  name: string;
  value: string;
  /** Lower-case Domain attribute without a leading dot, or null. */
  domain: string | null;
  /** Path attribute when it starts with "/", else null (the default path applies). */
  path: string | null;
  secure: boolean;
  httpOnly: boolean;
  /** Recognised SameSite value; undefined when absent or not strict/lax/none. */
  sameSite: 'strict' | 'lax' | 'none' | undefined;
}

// eslint-disable-next-line no-control-regex -- RFC 6265 §5.2 drops cookies with control characters
const controlCharacter = /[\x00-\x1f]/;

/** Parses one Set-Cookie value; null when a user agent would ignore it (no "name=", control characters). */
export function parseSetCookie(line: string): ParsedCookie | null {
  const text = line.trim();
  const firstSemi = text.indexOf(';');
  let pair = firstSemi === -1 ? text : text.slice(0, firstSemi);
  for (const terminator of ['\n', '\r', '\0']) {
    const at = pair.indexOf(terminator);
    if (at !== -1) pair = pair.slice(0, at);
  }
  const eq = pair.indexOf('=');
  if (eq <= 0) return null;
  const name = pair.slice(0, eq).trim();
  const value = pair.slice(eq + 1).trim();
  if (controlCharacter.test(name) || controlCharacter.test(value)) return null;

  const cookie: ParsedCookie = {
    name,
    value,
    domain: null,
    path: null,
    secure: false,
    httpOnly: false,
    sameSite: undefined,
  };
  if (firstSemi === -1) return cookie;
  for (const rawAttribute of text.slice(firstSemi + 1).split(';')) {
    const attribute = rawAttribute.trim();
    if (attribute === '') continue;
    const sep = attribute.indexOf('=');
    const key = (sep === -1 ? attribute : attribute.slice(0, sep)).trim().toLowerCase();
    const attributeValue = sep === -1 ? '' : attribute.slice(sep + 1).trim();
    switch (key) {
      case 'domain': {
        const domain = attributeValue.replace(/^\./, '').toLowerCase();
        if (domain) cookie.domain = domain;
        break;
      }
      case 'path':
        cookie.path = attributeValue.startsWith('/') ? attributeValue : null;
        break;
      case 'secure':
        cookie.secure = true;
        break;
      case 'httponly':
        cookie.httpOnly = true;
        break;
      case 'samesite': {
        const sameSite = attributeValue.toLowerCase();
        cookie.sameSite =
          sameSite === 'strict' || sameSite === 'lax' || sameSite === 'none' ? sameSite : undefined;
        break;
      }
      default:
        break;
    }
  }
  return cookie;
}

/**
 * True when a raw Set-Cookie line carries a SameSite attribute with no value or a value other
 * than Lax, Strict or None. Checked on the raw text, as the parsed cookie no longer shows it.
 */
export function hasInvalidSameSite(line: string): boolean {
  for (const part of line.trim().split(';')) {
    const [key = '', value] = part.trim().split('=');
    if (key.trim().toLowerCase() !== 'samesite') continue;
    if (!value) return true;
    if (!['lax', 'strict', 'none'].includes(value.trim().toLowerCase())) return true;
  }
  return false;
}

/** A cookie the browser kept, with where it was set. */
export interface StoredCookie extends ParsedCookie {
  /** The domain it is stored under: the Domain attribute or the setting host. */
  storedDomain: string;
  hostOnly: boolean;
  storedPath: string;
}

export interface CookieSource {
  /** URL of the response that set the cookies; null when unknown (pasted headers). */
  url: URL | null;
  setCookies: readonly string[];
}

export interface CookieJarResult {
  cookies: StoredCookie[];
  /** Set-Cookie lines a browser would refuse, with the reason. */
  rejected: { line: string; reason: string }[];
}

const specialUseTlds = new Set(['local', 'example', 'invalid', 'localhost', 'test']);
const ipv4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

function isIpAddress(host: string): boolean {
  return ipv4.test(host) || host.includes(':') || host.startsWith('[');
}

function isPublicSuffix(domain: string): boolean {
  if (isIpAddress(domain)) return false;
  const labels = domain.split('.');
  if (specialUseTlds.has(labels.at(-1) ?? '')) return labels.length < 2;
  return getDomain(domain, { allowPrivateDomains: true }) === null;
}

function domainMatches(host: string, domain: string): boolean {
  if (host === domain) return true;
  return !isIpAddress(host) && host.endsWith(`.${domain}`);
}

function defaultPath(pathname: string): string {
  if (!pathname.startsWith('/') || pathname === '/') return '/';
  const lastSlash = pathname.lastIndexOf('/');
  return lastSlash === 0 ? '/' : pathname.slice(0, lastSlash);
}

/** http: pages may still set Secure cookies when they are local (RFC 6265bis "potentially trustworthy"). */
function isTrustworthy(url: URL): boolean {
  if (url.protocol === 'https:' || url.protocol === 'wss:') return true;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (ipv4.test(host)) return host.startsWith('127.');
  return host === '::1' || host === 'localhost' || host.endsWith('.localhost');
}

/**
 * Stores cookies as a browser's jar would across the responses of one visit (redirects
 * included): cookies for a foreign domain or a public suffix, Secure cookies from plain http,
 * and `__Secure-`/`__Host-` cookies that break their prefix's rules (RFC 6265bis §4.1.3) are
 * dropped; a later cookie with the same name, domain and path replaces an earlier one.
 */
export function collectCookies(sources: readonly CookieSource[]): CookieJarResult {
  const cookies: StoredCookie[] = [];
  const rejected: CookieJarResult['rejected'] = [];
  for (const source of sources) {
    const host = source.url?.hostname.toLowerCase() ?? null;
    for (const line of source.setCookies) {
      const cookie = parseSetCookie(line);
      if (!cookie) {
        rejected.push({ line, reason: 'it has no name=value pair, or holds control characters' });
        continue;
      }
      let storedDomain = host ?? '';
      let hostOnly = true;
      if (cookie.domain !== null) {
        if (isPublicSuffix(cookie.domain)) {
          rejected.push({ line, reason: `its Domain=${cookie.domain} is a public suffix` });
          continue;
        }
        if (host !== null && !domainMatches(host, cookie.domain)) {
          rejected.push({ line, reason: `its Domain=${cookie.domain} does not cover the host ${host}` });
          continue;
        }
        storedDomain = cookie.domain;
        hostOnly = false;
      }
      // without a URL (pasted headers) the page is taken to be the site's root
      const storedPath = cookie.path ?? defaultPath(source.url?.pathname ?? '/');
      if (cookie.secure && source.url && !isTrustworthy(source.url)) {
        rejected.push({ line, reason: 'it is Secure but was set over plain http' });
        continue;
      }
      if (cookie.name.startsWith('__Secure-') && !cookie.secure) {
        rejected.push({ line, reason: 'its __Secure- prefix requires the Secure attribute' });
        continue;
      }
      if (cookie.name.startsWith('__Host-') && !(cookie.secure && hostOnly && cookie.path === '/')) {
        rejected.push({ line, reason: 'its __Host- prefix requires Secure, Path=/ and no Domain attribute' });
        continue;
      }
      const stored: StoredCookie = { ...cookie, storedDomain, hostOnly, storedPath };
      const existing = cookies.findIndex(
        (c) => c.name === cookie.name && c.storedDomain === storedDomain && c.storedPath === storedPath,
      );
      if (existing === -1) cookies.push(stored);
      else cookies[existing] = stored;
    }
  }
  return { cookies, rejected };
}

// The Observatory skips this one (Heroku sets it without flags on every app).
const ignoredCookieNames = new Set(['heroku-session-affinity']);

// best first; the Observatory's order, which is not the order of the penalties
const cookieOrder = [
  'cookies-without-secure-flag-but-protected-by-hsts',
  'cookies-without-secure-flag',
  'cookies-session-without-secure-flag-but-protected-by-hsts',
  'cookies-samesite-flag-invalid',
  'cookies-anticsrf-without-samesite-flag',
  'cookies-session-without-httponly-flag',
  'cookies-session-without-secure-flag',
];

export interface CookiesTestInput {
  jar: CookieJarResult;
  /** Raw Set-Cookie lines of the graded (final) response, checked for malformed SameSite. */
  finalSetCookies: readonly string[];
  /** Whether the HSTS test passed: cookies without Secure are then at least not sent over http. */
  hstsPasses: boolean;
}

/** The Observatory's cookies test. */
export function cookiesTest({ jar, finalSetCookies, hstsPasses }: CookiesTestInput): TestOutcome {
  const details: string[] = [];
  let result: string | null = null;

  for (const line of finalSetCookies) {
    if (hasInvalidSameSite(line)) {
      result = worseOf('cookies-samesite-flag-invalid', result, cookieOrder);
      details.push(`SameSite has no value or one other than Strict, Lax or None in: ${line}`);
    }
  }
  for (const { line, reason } of jar.rejected) {
    details.push(`A browser ignores the cookie because ${reason}: ${line}`);
  }

  const cookies = jar.cookies.filter((c) => c.name !== '' && !ignoredCookieNames.has(c.name));
  if (cookies.length === 0) {
    return { result: 'cookies-not-found', pass: true, details };
  }

  let missingSameSite = false;
  for (const cookie of cookies) {
    const lower = cookie.name.toLowerCase();
    // how the Observatory recognises session and anti-CSRF cookies: by name
    const session = lower.includes('login') || lower.includes('sess');
    const antiCsrf = lower.includes('csrf');
    const problems: string[] = [];

    if (!cookie.secure && cookie.sameSite === 'none') {
      result = worseOf('cookies-samesite-flag-invalid', result, cookieOrder);
      problems.push('SameSite=None without Secure (browsers reject it)');
    }
    if (!cookie.secure) {
      result = worseOf(
        hstsPasses ? 'cookies-without-secure-flag-but-protected-by-hsts' : 'cookies-without-secure-flag',
        result,
        cookieOrder,
      );
      problems.push(hstsPasses ? 'no Secure flag (HSTS keeps it off plain http)' : 'no Secure flag');
    }
    if (antiCsrf && cookie.sameSite === undefined) {
      result = worseOf('cookies-anticsrf-without-samesite-flag', result, cookieOrder);
      problems.push('an anti-CSRF cookie without SameSite');
    }
    if (session && !cookie.secure) {
      result = worseOf(
        hstsPasses
          ? 'cookies-session-without-secure-flag-but-protected-by-hsts'
          : 'cookies-session-without-secure-flag',
        result,
        cookieOrder,
      );
    }
    if (session && !cookie.httpOnly) {
      result = worseOf('cookies-session-without-httponly-flag', result, cookieOrder);
      problems.push('a session cookie readable by scripts (no HttpOnly)');
    }
    if (cookie.sameSite === undefined) missingSameSite = true;

    const flags = [
      cookie.secure ? 'Secure' : null,
      cookie.httpOnly ? 'HttpOnly' : null,
      cookie.sameSite ? `SameSite=${cookie.sameSite[0]!.toUpperCase()}${cookie.sameSite.slice(1)}` : null,
    ].filter((flag) => flag !== null);
    const kind = session ? 'session cookie' : antiCsrf ? 'anti-CSRF cookie' : 'cookie';
    details.push(
      `${kind} ${cookie.name}: ${flags.length ? flags.join(', ') : 'no flags'}` +
        (problems.length ? ` — ${problems.join('; ')}` : ''),
    );
  }

  if (result === null) {
    result = missingSameSite
      ? 'cookies-secure-with-httponly-sessions'
      : 'cookies-secure-with-httponly-sessions-and-samesite';
  }
  const pass =
    result === 'cookies-secure-with-httponly-sessions' ||
    result === 'cookies-secure-with-httponly-sessions-and-samesite';
  return { result, pass, details };
}
