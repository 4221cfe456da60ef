import { describe, expect, it } from 'vitest';
import { createRateLimiter } from './rate-limiter.ts';

describe('client rate limiter', () => {
  it('refuses the 11th auth call in a window with the limit, window, reset time and wait', () => {
    let time = 1_000_000;
    const limiter = createRateLimiter(() => time);
    for (let i = 0; i < 10; i++) expect(limiter.take('anonymous', '/v1/auth/login')).toBeNull();
    time += 15_500;
    expect(limiter.take('anonymous', '/v1/auth/login')).toEqual({
      limitClass: 'auth',
      limit: 10,
      windowMs: 60_000,
      resetAt: 1_060_000,
      retryAfter: 45,
      source: 'client',
    });
    // a new window starts when the old one ends
    time = 1_060_000;
    expect(limiter.take('anonymous', '/v1/auth/login')).toBeNull();
  });

  it('counts each user and each kind of endpoint apart', () => {
    const limiter = createRateLimiter(() => 0);
    for (let i = 0; i < 10; i++) limiter.take('user-a', '/v1/auth/login');
    expect(limiter.take('user-a', '/v1/auth/login')).not.toBeNull();
    expect(limiter.take('user-b', '/v1/auth/login')).toBeNull();
    // profile is its own class though it sits under /auth
    expect(limiter.take('user-a', '/v1/auth/profile')).toBeNull();
  });

  it('uses the spec numbers per class and ignores the query string', () => {
    const limiter = createRateLimiter(() => 0);
    const allowed = (path: string, times: number) =>
      Array.from({ length: times }, () => limiter.take('u', path)).filter((r) => r === null).length;
    expect(allowed('/v1/spf/verify?x=1', 101)).toBe(100);
    expect(allowed('/v1/dkim/generate', 51)).toBe(50);
    expect(allowed('/v1/auth/profile', 31)).toBe(30);
    expect(allowed('/v1/dnskey/validate', 61)).toBe(60);
  });

  it('leaves non-API paths alone', () => {
    const limiter = createRateLimiter(() => 0);
    for (let i = 0; i < 500; i++) expect(limiter.take('u', '/cdn-cgi/trace')).toBeNull();
  });
});
