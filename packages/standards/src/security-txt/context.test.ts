import { describe, expect, it } from 'vitest';
import { isSecurityTxtResponse, securityTxtFetchHost, securityTxtLocations } from './context.ts';

describe('securityTxtFetchHost', () => {
  it.each([
    ['example.com', 'example.com'],
    ['  Example.COM.  ', 'example.com'],
    ['https://example.com/', 'example.com'],
    ['HTTP://www.Example.com:8080/a/b?c#d', 'www.example.com', 'http://www.example.com:8080'],
    ['example.com/.well-known/security.txt', 'example.com'],
    ['example.com:8443', 'example.com', 'https://example.com:8443'],
    ['http://127.0.0.1:18090', '127.0.0.1', 'http://127.0.0.1:18090'],
    // a scheme's default port is no port of its own
    ['http://example.com:80/', 'example.com'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['192.0.2.1', '192.0.2.1'],
    // the URL parser's IPv4 forms become dotted ones, for the outbound layer to judge
    ['2130706433', '127.0.0.1'],
    ['[2001:db8::1]', '[2001:db8::1]'],
    ['https://[2001:DB8::1]:443/x', '[2001:db8::1]'],
  ])('%j is host %s', (input, host, origin?: string) => {
    expect(securityTxtFetchHost(input)).toEqual(
      origin === undefined ? { ok: true, host } : { ok: true, host, origin },
    );
  });

  it.each([
    ['', 'Domain is required'],
    ['   ', 'Domain is required'],
    ['localhost', 'Enter a domain such as example.com, or a URL such as https://example.com/'],
    ['exa mple.com', 'Enter a domain such as example.com, or a URL such as https://example.com/'],
    ['-bad-.example', 'Enter a domain such as example.com, or a URL such as https://example.com/'],
    ['https://', 'Enter a domain such as example.com, or a URL such as https://example.com/'],
    [
      `${'a'.repeat(64)}.example`,
      'Enter a domain such as example.com, or a URL such as https://example.com/',
    ],
    [
      'ftp://example.com/',
      'Only an http or https URL names a web site: enter its domain, such as example.com',
    ],
    ['https://user:secret@example.com/', 'Enter the domain without a user name or password'],
  ])('refuses %j', (input, message) => {
    expect(securityTxtFetchHost(input)).toEqual({ ok: false, message });
  });
});

describe('securityTxtLocations', () => {
  it('asks https then http, /.well-known/ then the legacy path, on the default ports (RFC 9116 §3)', () => {
    expect(securityTxtLocations('example.com')).toEqual([
      'https://example.com/.well-known/security.txt',
      'https://example.com/security.txt',
      'http://example.com/.well-known/security.txt',
      'http://example.com/security.txt',
    ]);
  });

  it('asks only the origin of a URL that named its port', () => {
    expect(securityTxtLocations('127.0.0.1', 'http://127.0.0.1:18090')).toEqual([
      'http://127.0.0.1:18090/.well-known/security.txt',
      'http://127.0.0.1:18090/security.txt',
    ]);
  });
});

describe('isSecurityTxtResponse', () => {
  const [wellKnown, legacy] = securityTxtLocations('example.com') as [string, string];

  it('takes a 200 at the location asked for', () => {
    expect(isSecurityTxtResponse(wellKnown, wellKnown, 200)).toBe(true);
    expect(isSecurityTxtResponse(wellKnown, wellKnown, 404)).toBe(false);
    expect(isSecurityTxtResponse(wellKnown, wellKnown, 204)).toBe(false);
  });

  it('after a redirect, only when the final path still ends with the path asked for', () => {
    expect(isSecurityTxtResponse(wellKnown, 'https://www.example.com/.well-known/security.txt', 200)).toBe(
      true,
    );
    // RFC 9116 §3: the legacy file may redirect to the /.well-known/ one
    expect(isSecurityTxtResponse(legacy, wellKnown, 200)).toBe(true);
    expect(isSecurityTxtResponse(wellKnown, 'https://example.com/security.txt', 200)).toBe(false);
    expect(isSecurityTxtResponse(wellKnown, 'https://example.com/', 200)).toBe(false);
    expect(isSecurityTxtResponse(legacy, 'https://example.com/login?next=/security.txt', 200)).toBe(false);
  });
});
