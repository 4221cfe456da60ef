import { describe, expect, it } from 'vitest';
import { collectCookies, cookiesTest, hasInvalidSameSite, parseSetCookie } from './cookies.ts';

const at = (url: string, ...setCookies: string[]) => ({ url: new URL(url), setCookies });

describe('parseSetCookie', () => {
  it('reads the pair and the attributes a browser knows', () => {
    expect(
      parseSetCookie(' id=a3fWa; Path=/docs; Domain=.Example.COM; Secure; HttpOnly; SameSite=Strict '),
    ).toEqual({
      name: 'id',
      value: 'a3fWa',
      path: '/docs',
      domain: 'example.com',
      secure: true,
      httpOnly: true,
      sameSite: 'strict',
    });
  });

  it('ignores cookies without a name=value pair or with control characters', () => {
    expect(parseSetCookie('novalue')).toBeNull();
    expect(parseSetCookie('=value')).toBeNull();
    expect(parseSetCookie('a=b\u0001c')).toBeNull();
  });

  it('knows only Strict, Lax and None for SameSite', () => {
    expect(parseSetCookie('a=b; SameSite=Sometimes')?.sameSite).toBeUndefined();
    expect(hasInvalidSameSite('a=b; SameSite=Sometimes')).toBe(true);
    expect(hasInvalidSameSite('a=b; SameSite')).toBe(true);
    expect(hasInvalidSameSite('a=b; samesite=none; Secure')).toBe(false);
  });
});

describe('collectCookies', () => {
  it('drops what a browser refuses, saying why', () => {
    const jar = collectCookies([
      at(
        'https://www.example.com/',
        'a=1; Domain=com',
        'b=1; Domain=other.org',
        '__Secure-c=1',
        '__Host-d=1; Secure; Path=/; Domain=example.com',
        'e=1; Domain=example.com',
      ),
      at('http://www.example.com/', 'f=1; Secure'),
    ]);
    expect(jar.cookies.map((c) => c.name)).toEqual(['e']);
    expect(jar.rejected.map((r) => r.reason)).toEqual([
      'its Domain=com is a public suffix',
      'its Domain=other.org does not cover the host www.example.com',
      'its __Secure- prefix requires the Secure attribute',
      'its __Host- prefix requires Secure, Path=/ and no Domain attribute',
      'it is Secure but was set over plain http',
    ]);
  });

  it('keeps a correct __Host- cookie, Secure cookies from localhost, and replaces by name, domain and path', () => {
    const jar = collectCookies([
      at('https://example.com/login', '__Host-s=1; Secure; Path=/', 'theme=light'),
      at('https://example.com/login', 'theme=dark; Secure'),
      at('http://localhost:8080/', 'local=1; Secure'),
    ]);
    expect(jar.rejected).toEqual([]);
    expect(jar.cookies.map((c) => [c.name, c.value, c.storedPath])).toEqual([
      ['__Host-s', '1', '/'],
      ['theme', 'dark', '/'],
      ['local', '1', '/'],
    ]);
  });
});

describe('cookiesTest', () => {
  const test = (hstsPasses: boolean, ...lines: string[]) =>
    cookiesTest({
      jar: collectCookies([at('https://example.com/', ...lines)]),
      finalSetCookies: lines,
      hstsPasses,
    });

  it('ignores the Heroku affinity cookie, as the Observatory does', () => {
    expect(test(false, 'heroku-session-affinity=x').result).toBe('cookies-not-found');
  });

  it('keeps the worst result in the Observatory’s order', () => {
    // no Secure (−20) and a session cookie without HttpOnly (−30): the latter ranks worse
    expect(test(false, 'theme=dark; SameSite=Lax', 'PHPSESSID=1; Secure; SameSite=Lax').result).toBe(
      'cookies-session-without-httponly-flag',
    );
    // SameSite=None without Secure is an invalid SameSite (−20), worse than the missing Secure
    expect(test(true, 'theme=dark; SameSite=None').result).toBe('cookies-samesite-flag-invalid');
  });

  it('recognises session cookies by name: login or sess', () => {
    expect(test(true, 'user_login=1; Secure; SameSite=Lax').result).toBe(
      'cookies-session-without-httponly-flag',
    );
    expect(test(true, 'user=1; Secure; SameSite=Lax').result).toBe(
      'cookies-secure-with-httponly-sessions-and-samesite',
    );
  });
});
