/** Client for the JSON envelope of DESIGN §4: `{ success, data }` or `{ success: false, error, code }`. */

import { apiBaseUrl, readAccessToken, renewAccessToken } from './access-token.ts';

export const NETWORK_ERROR_MESSAGE = 'Network error. Please try again.';
export const UNEXPECTED_ERROR_MESSAGE = 'An unexpected error occurred. Please try again.';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status; 0 when the request never reached the server. */
  readonly status: number;
  /** The server's stable error code, e.g. `VALIDATION_FAILED`; `NETWORK_ERROR` or `BAD_RESPONSE` from here. */
  readonly code: string;
  /** Seconds from a 429's Retry-After header. */
  readonly retryAfter: number | undefined;

  constructor(message: string, status: number, code: string, retryAfter?: number) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

export interface ApiClientOptions {
  /** Origin of the API; empty means the page's own origin (the server serves both). */
  baseUrl?: string;
  /** Supplies the bearer access token; null or absent sends no Authorization. */
  getToken?: () => string | null;
  /**
   * Called once when an authenticated call answers 401, with the token that call carried. Resolves
   * to a fresh access token, or null when the session cannot be renewed (the call then fails with
   * 'Authentication failed').
   */
  renewToken?: (staleToken: string) => Promise<string | null>;
  fetch?: typeof fetch;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  /** Send no bearer token and never renew: sign-in, registration and the other signed-out calls. */
  anonymous?: boolean;
  /** Set false to send the bearer token without renewing it on 401 (sign-out). */
  renew?: boolean;
}

export interface ApiClient {
  request<T>(path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, signal?: AbortSignal): Promise<T>;
  post<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T>;
  put<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T>;
}

/** The spec's text for a call whose session could not be renewed (part 1 §4, §8). */
export const AUTHENTICATION_FAILED_MESSAGE = 'Authentication failed';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function retryAfterSeconds(response: Response): number | undefined {
  const header = response.headers.get('Retry-After');
  if (header === null) return undefined;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

export function createApiClient({
  baseUrl = '',
  getToken,
  renewToken,
  fetch: fetchImpl,
}: ApiClientOptions = {}): ApiClient {
  async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
    const token = options.anonymous ? null : (getToken?.() ?? null);
    const response = await send(path, options, token);
    if (response.status !== 401 || token === null || renewToken === undefined || options.renew === false) {
      return read<T>(response);
    }
    // one renewal and one retry; a second 401 is the server's answer
    const renewed = await renewToken(token);
    if (renewed === null) throw new ApiError(AUTHENTICATION_FAILED_MESSAGE, 401, 'AUTHENTICATION_FAILED');
    return read<T>(await send(path, options, renewed));
  }

  async function send(
    path: string,
    { method = 'GET', body, signal }: RequestOptions,
    token: string | null,
  ): Promise<Response> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (token) headers.Authorization = `Bearer ${token}`;

    try {
      // resolved at call time so tests and the page can replace the global fetch
      return await (fetchImpl ?? fetch)(baseUrl + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'same-origin',
        signal,
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new ApiError(NETWORK_ERROR_MESSAGE, 0, 'NETWORK_ERROR');
    }
  }

  async function read<T>(response: Response): Promise<T> {
    let payload: unknown;
    try {
      payload = await response.json();
    } catch {
      throw new ApiError(
        UNEXPECTED_ERROR_MESSAGE,
        response.status,
        'BAD_RESPONSE',
        retryAfterSeconds(response),
      );
    }

    if (isRecord(payload) && payload.success === true) {
      // the sign-in answer keeps the spec's flat shape `{ success, token, refreshToken, user }`
      return ('data' in payload ? payload.data : payload) as T;
    }
    if (isRecord(payload) && payload.success === false) {
      const message =
        typeof payload.error === 'string' && payload.error !== '' ? payload.error : UNEXPECTED_ERROR_MESSAGE;
      const code = typeof payload.code === 'string' ? payload.code : 'UNKNOWN';
      throw new ApiError(message, response.status, code, retryAfterSeconds(response));
    }
    throw new ApiError(
      UNEXPECTED_ERROR_MESSAGE,
      response.status,
      'BAD_RESPONSE',
      retryAfterSeconds(response),
    );
  }

  return {
    request,
    get: (path, signal) => request(path, { method: 'GET', signal }),
    post: (path, body, signal) => request(path, { method: 'POST', body, signal }),
    put: (path, body, signal) => request(path, { method: 'PUT', body, signal }),
  };
}

/** The app's client: bearer token from storage, one shared refresh and one retry on 401. */
export const api = createApiClient({
  baseUrl: apiBaseUrl,
  getToken: readAccessToken,
  renewToken: renewAccessToken,
});
