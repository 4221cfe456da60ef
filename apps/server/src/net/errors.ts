import type { TriedTarget } from '@rfckit/standards';
import { HttpError } from '../plugins/errors.ts';

/**
 * Stable codes of outbound failures and the status a route answers with: 400/422 when the
 * user's input is the problem (a refused address, a name that does not exist), 502 when the
 * remote side misbehaved, 504 when it was too slow, 503 when our own DNS resolver did not answer
 * (our service, not the user's configuration, failed: see `couldNotCheckTitles`).
 */
export const netErrorStatus = {
  INVALID_URL: 400,
  OUTBOUND_BLOCKED: 422,
  DNS_NOT_FOUND: 422,
  DNS_NO_ADDRESS: 422,
  RESOLVER_UNAVAILABLE: 503,
  DNS_FAILED: 502,
  DNS_TIMEOUT: 504,
  CONNECT_FAILED: 502,
  CONNECT_TIMEOUT: 504,
  TLS_HANDSHAKE_FAILED: 502,
  TLS_CERTIFICATE_INVALID: 502,
  FIRST_BYTE_TIMEOUT: 504,
  TIMEOUT: 504,
  TOO_MANY_REDIRECTS: 502,
  INVALID_REDIRECT: 502,
  BODY_TOO_LARGE: 502,
  PROTOCOL_ERROR: 502,
} as const;

export type NetErrorCode = keyof typeof netErrorStatus;

/**
 * An outbound failure with a message meant for the user as it is: plain words naming the target
 * the user gave, never our resolver's address or raw errno text. It is an HttpError, so a route
 * that lets it propagate answers `{ success: false, error, code }` with the status above (and
 * `details.tried` when `tried` is given); `details` here carries what was learnt before the
 * failure (redirect chain, TLS report) for the code that handles it.
 */
export class NetError extends HttpError {
  declare readonly code: NetErrorCode;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    code: NetErrorCode,
    message: string,
    options: {
      cause?: unknown;
      details?: Readonly<Record<string, unknown>>;
      tried?: readonly TriedTarget[];
    } = {},
  ) {
    super(netErrorStatus[code], code, message, {
      ...(options.cause === undefined ? {} : { cause: options.cause }),
      tried: options.tried,
    });
    this.name = 'NetError';
    this.details = options.details ?? {};
  }
}

export function isNetError(error: unknown): error is NetError {
  return error instanceof NetError;
}

/**
 * Our DNS resolver gave no answer for `names` (docs/architecture.md §6): we could not check, and
 * the user's configuration is not at fault. The message names what was looked up, never the
 * resolver's address.
 */
export function resolverUnavailable(
  names: string | readonly string[],
  { cause, outOfTime = false }: { cause?: unknown; outOfTime?: boolean } = {},
): NetError {
  const list = typeof names === 'string' ? [names] : [...new Set(names)];
  const why = outOfTime
    ? 'Our DNS lookups ran out of the time one check may take'
    : 'Our DNS resolver did not answer';
  return new NetError('RESOLVER_UNAVAILABLE', `${why}, so we could not look up ${list.join(', ')}`, {
    ...(cause === undefined ? {} : { cause }),
    tried: list.map((target) => ({
      target,
      outcome: outOfTime ? 'Not answered within the time of this check' : 'No answer from our DNS resolver',
    })),
  });
}
