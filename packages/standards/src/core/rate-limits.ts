/**
 * The request limits of spec part 1 §9, shared by the server (which enforces them) and the web
 * app (which stops a burst before it is sent): per client, per kind of endpoint, per 60 s.
 */

export const RATE_LIMIT_WINDOW_MS = 60_000;

/**
 * Requests per 60 s by kind of endpoint. `organisation` is defined as in the spec and, as in the
 * spec, no path maps to it: organisation paths count as `profile`.
 */
export const RATE_LIMITS = {
  auth: 10,
  validation: 100,
  generation: 50,
  profile: 30,
  organisation: 20,
  default: 60,
} as const;
export type RateLimitClass = keyof typeof RATE_LIMITS;

export const RATE_LIMITED_MESSAGE = 'Rate limit exceeded';

const API_PREFIX = /^(?:\/api)?\/v1(?=\/|$)/;
const validationTools = new Set(['spf', 'dmarc', 'dkim']);
const profileRoots = new Set(['organisation', 'organization', 'profile']);

/** Whether a path is an API path (`/v1/…` or `/api/v1/…`). */
export function isApiPath(path: string): boolean {
  return API_PREFIX.test(path);
}

/**
 * The limit class of an API path (`/v1/…` or `/api/v1/…`, without query), undefined for anything
 * else. Checked in this order: profile (`/auth/profile`, `/organisation…`), generation
 * (`…/generate`), auth (`/auth/…`), validation (`/spf`, `/dmarc`, `/dkim`), default.
 */
export function rateLimitClassOf(path: string): RateLimitClass | undefined {
  const prefix = API_PREFIX.exec(path);
  if (prefix === null) return undefined;
  const segments = path.slice(prefix[0].length).split('/').filter(Boolean);
  const [first, second] = segments;
  if (first === undefined) return 'default';
  if ((first === 'auth' && second === 'profile') || profileRoots.has(first)) return 'profile';
  if (segments.at(-1) === 'generate') return 'generation';
  if (first === 'auth') return 'auth';
  if (validationTools.has(first)) return 'validation';
  return 'default';
}
