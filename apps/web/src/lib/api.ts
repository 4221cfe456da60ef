/** Client for the JSON envelope of DESIGN §4: `{ success, data }` or `{ success: false, error, code }`. */

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
  /** Supplies the bearer access token once accounts exist; null or absent sends no Authorization. */
  getToken?: () => string | null;
  fetch?: typeof fetch;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
}

export interface ApiClient {
  request<T>(path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, signal?: AbortSignal): Promise<T>;
  post<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T>;
}

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
  fetch: fetchImpl,
}: ApiClientOptions = {}): ApiClient {
  async function request<T>(path: string, { method = 'GET', body, signal }: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const token = getToken?.();
    if (token) headers.Authorization = `Bearer ${token}`;

    let response: Response;
    try {
      // resolved at call time so tests and the page can replace the global fetch
      response = await (fetchImpl ?? fetch)(baseUrl + path, {
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

    if (isRecord(payload) && payload.success === true && 'data' in payload) {
      return payload.data as T;
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
  };
}

/** The app's client; accounts will pass `getToken` here. */
export const api = createApiClient({ baseUrl: import.meta.env.VITE_API_BASE_URL ?? '' });
