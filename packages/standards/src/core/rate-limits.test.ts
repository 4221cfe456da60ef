import { describe, expect, it } from 'vitest';
import { RATE_LIMITS, rateLimitClassOf } from './rate-limits.ts';

describe('rateLimitClassOf', () => {
  it.each([
    ['/v1/auth/login', 'auth'],
    ['/api/v1/auth/request-password-reset', 'auth'],
    ['/v1/auth/refresh', 'auth'],
    ['/v1/auth/profile', 'profile'],
    ['/v1/organisation/activity', 'profile'],
    ['/api/v1/organisation', 'profile'],
    ['/v1/spf/verify', 'validation'],
    ['/v1/dkim/validate', 'validation'],
    ['/v1/dkim/dns', 'validation'],
    ['/v1/dmarc/validate', 'validation'],
    ['/v1/spf/generate', 'generation'],
    ['/v1/dkim/generate', 'generation'],
    ['/v1/tlsrpt/generate', 'generation'],
    ['/v1/tlsrpt/validate', 'default'],
    ['/v1/dnskey/validate', 'default'],
    ['/v1/health', 'default'],
    ['/v1', 'default'],
    ['/v10/health', undefined],
    ['/v1x', undefined],
    ['/', undefined],
    ['/docs/json', undefined],
    ['/assets/index-abc.js', undefined],
    ['/tools/spf', undefined],
  ])('%s → %s', (url, expected) => {
    expect(rateLimitClassOf(url)).toBe(expected);
  });

  it('has the spec limits, organisation included though no path maps to it', () => {
    expect(RATE_LIMITS).toEqual({
      auth: 10,
      validation: 100,
      generation: 50,
      profile: 30,
      organisation: 20,
      default: 60,
    });
  });
});
