import fastifyRateLimit, { type FastifyRateLimitStore, normalizeIP } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  isApiPath,
  RATE_LIMIT_WINDOW_MS,
  RATE_LIMITED_MESSAGE,
  RATE_LIMITS,
  type RateLimitClass,
  rateLimitClassOf,
} from '@rfckit/standards';
import { HttpError } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The limit class this request counts against; undefined for pages, assets and docs. */
    rateLimitClass: RateLimitClass | undefined;
  }
}

export interface RateLimitOptions {
  /** Multiplies every limit (RATE_LIMIT_SCALE). */
  scale: number;
}

function decodedPath(url: string): string {
  const end = url.search(/[?#]/);
  const path = end === -1 ? url : url.slice(0, end);
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * The path to classify: the matched route's pattern when it is an API route, so that `%61uth`
 * cannot dodge the auth limit; else the decoded URL (404s, and the static wildcard route).
 */
function classify(request: FastifyRequest): RateLimitClass | undefined {
  // a tool route counts against the class its operation table declares
  const declared = request.routeOptions.config.toolOperation?.rateLimit;
  if (declared !== undefined) return declared;
  const route = request.routeOptions.url;
  return rateLimitClassOf(route !== undefined && isApiPath(route) ? route : decodedPath(request.url));
}

/** The id of the user that authentication verified for this request, if any. */
function verifiedUserId(request: FastifyRequest): string | undefined {
  // set by the auth plugin only after verifying the bearer token; nothing here decodes a token
  const user = (request as { user?: unknown }).user;
  if (typeof user !== 'object' || user === null) return undefined;
  const id = (user as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

/** The id of the organisation API key that authenticated this request (tool routes), if any. */
function verifiedApiKeyId(request: FastifyRequest): string | undefined {
  // set by the api-keys plugin only after finding the key's hash among the active keys
  const key = (request as { apiKey?: unknown }).apiKey;
  if (typeof key !== 'object' || key === null) return undefined;
  const id = (key as { id?: unknown }).id;
  return typeof id === 'string' ? id : undefined;
}

/**
 * Whom a request counts for: the client address (`request.ip`, which honours TRUST_PROXY; IPv6
 * grouped by /64 as one client) on the auth class, whatever token the request carries, so that a
 * signed-in attacker cannot move their guesses onto a budget of their own; elsewhere the verified
 * user or API key when there is one, else the address.
 */
export function rateLimitKey(request: FastifyRequest): string {
  const address = `ip:${normalizeIP(request.ip)}`;
  if (request.rateLimitClass === 'auth') return address;
  const apiKeyId = verifiedApiKeyId(request);
  if (apiKeyId !== undefined) return `apikey:${apiKeyId}`;
  const userId = verifiedUserId(request);
  return userId === undefined ? address : `user:${userId}`;
}

interface Window {
  count: number;
  resetAt: number;
}

type StoreCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * Fixed-window counters in process memory. Replaces the plugin's LocalStore, which hands every
 * caller the same mutable counter object: requests arriving in one burst then all read the
 * burst's final count, and six concurrent calls against a limit of five are all refused instead
 * of one. Expired windows are swept once per window, so memory follows the clients of the last
 * minute.
 */
export class MemoryStore implements FastifyRateLimitStore {
  private readonly windows = new Map<string, Window>();
  private nextSweep = 0;

  incr(key: string, callback: StoreCallback, timeWindow: number): void {
    const now = Date.now();
    if (now >= this.nextSweep) this.sweep(now, timeWindow);
    let window = this.windows.get(key);
    if (window === undefined || window.resetAt <= now) {
      window = { count: 0, resetAt: now + timeWindow };
      this.windows.set(key, window);
    }
    window.count += 1;
    callback(null, { current: window.count, ttl: window.resetAt - now });
  }

  read(key: string, callback: StoreCallback): void {
    const now = Date.now();
    const window = this.windows.get(key);
    if (window === undefined || window.resetAt <= now) callback(null, { current: 0, ttl: 0 });
    else callback(null, { current: window.count, ttl: window.resetAt - now });
  }

  child(): FastifyRateLimitStore {
    return new MemoryStore();
  }

  private sweep(now: number, timeWindow: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    this.nextSweep = now + timeWindow;
  }
}

/**
 * Per-client request limits on the API, by kind of endpoint, over a fixed 60 s window: 429
 * RATE_LIMITED with `Retry-After` and `x-ratelimit-*` headers. Counted in preParsing, after
 * every onRequest hook (so a user set by authentication is known) and before any body is read.
 * Pages, static assets, `/docs` and `/cdn-cgi/trace` are not limited.
 */
export default fp<RateLimitOptions>(
  async (app, options) => {
    // shares the counters between processes; in memory per process without it
    const redis = app.redis;

    const limits = Object.fromEntries(
      Object.entries(RATE_LIMITS).map(([name, max]) => [name, Math.max(1, Math.floor(max * options.scale))]),
    ) as Record<RateLimitClass, number>;

    await app.register(fastifyRateLimit, {
      global: false,
      timeWindow: RATE_LIMIT_WINDOW_MS,
      max: (request) => limits[request.rateLimitClass ?? 'default'],
      keyGenerator: (request) => `${request.rateLimitClass ?? 'default'}:${rateLimitKey(request)}`,
      errorResponseBuilder: () => new HttpError(429, 'RATE_LIMITED', RATE_LIMITED_MESSAGE),
      ...(redis === null ? { store: MemoryStore } : { redis, nameSpace: 'rfckit:rate-limit:' }),
      // a Redis outage must not take the API down with it
      skipOnError: true,
    });

    const limit = app.rateLimit();
    app.decorateRequest('rateLimitClass', undefined);
    app.addHook('preParsing', async (request, reply, payload) => {
      request.rateLimitClass = classify(request);
      if (request.rateLimitClass !== undefined) await limit.call(app, request, reply);
      return payload;
    });
    app.log.debug({ limits, store: redis === null ? 'memory' : 'redis' }, 'rate limits');
  },
  { name: 'rate-limit', dependencies: ['redis'] },
);
