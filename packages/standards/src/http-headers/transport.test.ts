import { describe, expect, it } from 'vitest';
import { findHstsPreload, hstsPreloadList, hstsTest, parseHsts, redirectionTest } from './transport.ts';

describe('parseHsts', () => {
  it('reads max-age, includeSubDomains and preload in any case and order', () => {
    expect(parseHsts(' Preload; includeSubDomains; MAX-AGE=63072000 ')).toEqual({
      maxAge: 63072000,
      includeSubDomains: true,
      preload: true,
    });
    expect(parseHsts('max-age="31536000"')).toMatchObject({ maxAge: 31536000 });
  });

  it.each([
    ['max-age=31536000, max-age=31536000', /more than once/],
    ['max-age=1; max-age=2', /appears more than once/],
    ['max-age=abc', /number of seconds/],
    ['includeSubDomains', /max-age is missing/],
    ['', /max-age is missing/],
  ])('%j is invalid', (value, reason) => {
    const parsed = parseHsts(value);
    expect('error' in parsed && parsed.error).toMatch(reason);
  });
});

describe('HSTS preload list', () => {
  const lookup = hstsPreloadList([
    { name: 'example.com', mode: 'force-https', include_subdomains: true },
    { name: 'only.example.net', mode: 'force-https' },
    { name: 'pinned.example.org' },
  ]);

  it('matches the host itself or a parent that includes subdomains', () => {
    expect(findHstsPreload('example.com', lookup)?.name).toBe('example.com');
    expect(findHstsPreload('a.b.example.com', lookup)?.name).toBe('example.com');
    expect(findHstsPreload('only.example.net', lookup)?.name).toBe('only.example.net');
    expect(findHstsPreload('sub.only.example.net', lookup)).toBeNull();
    expect(findHstsPreload('pinned.example.org', lookup)).toBeNull();
  });

  it('overrides the header result when the site is preloaded', () => {
    const outcome = hstsTest({
      https: { certificateValid: true, value: null },
      site: 'www.example.com',
      preload: lookup,
    });
    expect(outcome).toMatchObject({ result: 'hsts-preloaded', pass: true });
  });
});

describe('redirectionTest', () => {
  it('shows the chain it judged', () => {
    const outcome = redirectionTest({
      http: {
        chain: [
          { url: 'http://example.com/', status: 301 },
          { url: 'https://example.com/', status: 200 },
        ],
        certificateValid: true,
      },
    });
    expect(outcome.details).toEqual(['http://example.com/ (301) → https://example.com/ (200)']);
  });
});
