import { HttpError } from '../plugins/errors.ts';

/**
 * Stable codes of outbound failures and the status a route answers with: 400/422 when the
 * user's input is the problem (a refused address, a name that does not exist), 502 when the
 * remote side misbehaved, 504 when it was too slow.
 */
export const netErrorStatus = {
  INVALID_URL: 400,
  OUTBOUND_BLOCKED: 422,
  DNS_NOT_FOUND: 422,
  DNS_NO_ADDRESS: 422,
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
 * An outbound failure with a message meant for the user as it is. It is an HttpError, so a
 * route that lets it propagate answers `{ success: false, error, code }` with the status
 * above; `details` carries what was learnt before the failure (redirect chain, TLS report).
 */
export class NetError extends HttpError {
  declare readonly code: NetErrorCode;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    code: NetErrorCode,
    message: string,
    options: { cause?: unknown; details?: Readonly<Record<string, unknown>> } = {},
  ) {
    super(
      netErrorStatus[code],
      code,
      message,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'NetError';
    this.details = options.details ?? {};
  }
}

export function isNetError(error: unknown): error is NetError {
  return error instanceof NetError;
}
