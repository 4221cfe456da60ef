/**
 * The client-side rate limiter of spec part 1 §9: per user and per kind of endpoint, the same
 * numbers the server enforces, counted over fixed 60 s windows. It spares the server a burst the
 * server would refuse anyway; the server's own limit is what protects it (docs/architecture.md §10).
 */
import { RATE_LIMIT_WINDOW_MS, RATE_LIMITS, type RateLimitClass, rateLimitClassOf } from '@rfckit/standards';

/** What a refused call carries (spec part 1 §8): the limit, its window, when it resets, and how long to wait. */
export interface RateLimitDetails {
  limitClass: RateLimitClass | undefined;
  limit: number | undefined;
  windowMs: number;
  /** Epoch ms at which calls are accepted again. */
  resetAt: number;
  /** Whole seconds until `resetAt`, at least 1. */
  retryAfter: number;
  /** Whether this browser stopped the call, or the server answered 429. */
  source: 'client' | 'server';
}

export interface RateLimiter {
  /** Counts a call to `path` for `userKey`; answers the refusal when the window is full, else null. */
  take(userKey: string, path: string): RateLimitDetails | null;
}

interface Window {
  count: number;
  resetAt: number;
}

export function createRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, Window>();
  return {
    take(userKey, path) {
      const limitClass = rateLimitClassOf(path.split(/[?#]/, 1)[0] ?? path);
      if (limitClass === undefined) return null;
      const limit = RATE_LIMITS[limitClass];
      const key = `${userKey}\u0000${limitClass}`;
      const time = now();
      let window = windows.get(key);
      if (window === undefined || window.resetAt <= time) {
        window = { count: 0, resetAt: time + RATE_LIMIT_WINDOW_MS };
        windows.set(key, window);
      }
      if (window.count >= limit) {
        return {
          limitClass,
          limit,
          windowMs: RATE_LIMIT_WINDOW_MS,
          resetAt: window.resetAt,
          retryAfter: Math.max(1, Math.ceil((window.resetAt - time) / 1000)),
          source: 'client',
        };
      }
      window.count += 1;
      return null;
    },
  };
}
