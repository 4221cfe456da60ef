/** Client for the JSON envelope of docs/architecture.md §7: `{ success, data }` or `{ success: false, error, code }`. */

import { couldNotCheckDetailsSchema, RATE_LIMITED_MESSAGE, type TriedTarget } from '@rfckit/standards';
import { accessTokenSubject, apiBaseUrl, readAccessToken, renewAccessToken } from './access-token.ts';
import { createRateLimiter, type RateLimitDetails, type RateLimiter } from './rate-limiter.ts';

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
  /** When the server could not check: every name or URL it tried (the envelope's `details.tried`). */
  readonly tried: readonly TriedTarget[];

  constructor(
    message: string,
    status: number,
    code: string,
    retryAfter?: number,
    tried: readonly TriedTarget[] = [],
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
    this.tried = tried;
  }
}

/** 'Rate limit exceeded', from this browser's limiter or the server's 429, with what the spec says it carries. */
export class RateLimitError extends ApiError {
  readonly details: RateLimitDetails;

  constructor(details: RateLimitDetails, message = RATE_LIMITED_MESSAGE) {
    super(message, 429, 'RATE_LIMITED', details.retryAfter);
    this.details = details;
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
  /** Counts calls before they are sent and refuses those over the spec's limits. */
  rateLimiter?: RateLimiter;
  /** Whose counters a call uses; defaults to one shared key. */
  rateLimitKey?: () => string;
  /** Told of every refusal, the limiter's or the server's, e.g. to show the countdown toast. */
  onRateLimited?: (details: RateLimitDetails) => void;
  now?: () => number;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal | undefined;
  /** Send no bearer token and never renew: sign-in, registration and the other signed-out calls. */
  anonymous?: boolean;
  /** Set false to send the bearer token without renewing it on 401 (sign-out). */
  renew?: boolean;
  /** The Accept header; JSON unless a file is fetched. */
  accept?: string;
}

/** A file the server sent (a CSV export, an invoice), with the headers that describe it. */
export interface DownloadedFile {
  blob: Blob;
  /** From Content-Disposition, when the server named the file. */
  fileName: string | null;
  headers: Headers;
}

export interface ApiClient {
  request<T>(path: string, options?: RequestOptions): Promise<T>;
  /**
   * POSTs `body` asking for Server-Sent Events (docs/architecture.md §3): each `progress` event's
   * data goes to `onProgress`, and the `result` or `error` event settles as `request` would. A JSON
   * answer (a failure before the stream opened) is read as usual.
   */
  stream<T>(
    path: string,
    body: unknown,
    onProgress: (data: unknown) => void,
    signal?: AbortSignal,
  ): Promise<T>;
  get<T>(path: string, signal?: AbortSignal): Promise<T>;
  post<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T>;
  put<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T>;
  /** GET a file with the same bearer token, limiter and one renewal; failures are the JSON envelope's. */
  download(path: string, signal?: AbortSignal): Promise<DownloadedFile>;
}

/** The file name of a Content-Disposition header: RFC 6266 `filename*` (UTF-8) first, else `filename`. */
export function contentDispositionFileName(header: string | null): string | null {
  if (header === null) return null;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header)?.[1];
  if (extended !== undefined) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      // malformed percent-encoding: fall back to the plain parameter
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(header);
  if (plain === null) return null;
  return plain[1] !== undefined ? plain[1].replace(/\\(.)/g, '$1') : (plain[2] ?? null);
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
  rateLimiter,
  rateLimitKey = () => 'anonymous',
  onRateLimited,
  now = Date.now,
}: ApiClientOptions = {}): ApiClient {
  function refuse(details: RateLimitDetails, message?: string): never {
    onRateLimited?.(details);
    throw new RateLimitError(details, message);
  }

  async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
    return read<T>(await respond(path, options));
  }

  /** Sends, and on a 401 renews the token once and retries; a second 401 is the server's answer. */
  async function respond(path: string, options: RequestOptions): Promise<Response> {
    const token = options.anonymous ? null : (getToken?.() ?? null);
    const response = await send(path, options, token);
    if (response.status !== 401 || token === null || renewToken === undefined || options.renew === false) {
      return response;
    }
    const renewed = await renewToken(token);
    if (renewed === null) throw new ApiError(AUTHENTICATION_FAILED_MESSAGE, 401, 'AUTHENTICATION_FAILED');
    return send(path, options, renewed);
  }

  async function download(path: string, signal?: AbortSignal): Promise<DownloadedFile> {
    const response = await respond(path, { method: 'GET', signal, accept: '*/*' });
    // a refusal is the usual JSON envelope: read() throws its message
    if (!response.ok) await read<never>(response);
    let blob: Blob;
    try {
      blob = await response.blob();
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new ApiError(NETWORK_ERROR_MESSAGE, 0, 'NETWORK_ERROR');
    }
    return {
      blob,
      fileName: contentDispositionFileName(response.headers.get('Content-Disposition')),
      headers: response.headers,
    };
  }

  async function send(
    path: string,
    { method = 'GET', body, signal, accept = 'application/json' }: RequestOptions,
    token: string | null,
  ): Promise<Response> {
    const refusal = rateLimiter?.take(rateLimitKey(), path);
    if (refusal) refuse(refusal);
    const headers: Record<string, string> = { Accept: accept };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (token) headers.Authorization = `Bearer ${token}`;

    try {
      // resolved at call time so tests and the page can replace the global fetch
      return await (fetchImpl ?? fetch)(baseUrl + path, {
        method,
        headers,
        body: body === undefined ? null : JSON.stringify(body),
        credentials: 'same-origin',
        signal: signal ?? null,
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new ApiError(NETWORK_ERROR_MESSAGE, 0, 'NETWORK_ERROR');
    }
  }

  /** The server's 429, in the shape of the limiter's refusal. */
  function serverRefusal(response: Response): RateLimitDetails {
    const retryAfter = Math.max(1, Math.ceil(retryAfterSeconds(response) ?? 60));
    const limit = Number(response.headers.get('x-ratelimit-limit'));
    return {
      limitClass: undefined,
      limit: Number.isInteger(limit) && limit > 0 ? limit : undefined,
      windowMs: 60_000,
      resetAt: now() + retryAfter * 1000,
      retryAfter,
      source: 'server',
    };
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
    return unwrap<T>(payload, response.status, response);
  }

  /** The data of a success envelope, or the envelope's failure thrown as an ApiError. */
  function unwrap<T>(payload: unknown, status: number, response: Response): T {
    if (isRecord(payload) && payload.success === true) {
      // the sign-in answer keeps the spec's flat shape `{ success, token, refreshToken, user }`
      return ('data' in payload ? payload.data : payload) as T;
    }
    if (isRecord(payload) && payload.success === false) {
      const message =
        typeof payload.error === 'string' && payload.error !== '' ? payload.error : UNEXPECTED_ERROR_MESSAGE;
      const code = typeof payload.code === 'string' ? payload.code : 'UNKNOWN';
      if (status === 429) refuse(serverRefusal(response), message);
      const details = couldNotCheckDetailsSchema.safeParse(payload.details);
      throw new ApiError(
        message,
        status,
        code,
        retryAfterSeconds(response),
        details.success ? details.data.tried : [],
      );
    }
    throw new ApiError(UNEXPECTED_ERROR_MESSAGE, status, 'BAD_RESPONSE', retryAfterSeconds(response));
  }

  async function stream<T>(
    path: string,
    body: unknown,
    onProgress: (data: unknown) => void,
    signal?: AbortSignal,
  ): Promise<T> {
    const response = await respond(path, {
      method: 'POST',
      body,
      signal,
      accept: 'text/event-stream, application/json',
    });
    const type = response.headers.get('content-type') ?? '';
    if (!type.startsWith('text/event-stream') || response.body === null) return read<T>(response);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffered += value.replaceAll('\r\n', '\n');
        for (let end = buffered.indexOf('\n\n'); end !== -1; end = buffered.indexOf('\n\n')) {
          const event = serverSentEvent(buffered.slice(0, end));
          buffered = buffered.slice(end + 2);
          if (event === null) continue;
          if (event.name === 'progress') onProgress(event.data);
          else if (event.name === 'result') return unwrap<T>(event.data, 200, response);
          else if (event.name === 'error') {
            const status =
              isRecord(event.data) && typeof event.data.status === 'number' ? event.data.status : 500;
            return unwrap<T>(event.data, status, response);
          }
        }
      }
    } catch (error) {
      if (error instanceof ApiError || (error instanceof DOMException && error.name === 'AbortError'))
        throw error;
      throw new ApiError(NETWORK_ERROR_MESSAGE, 0, 'NETWORK_ERROR');
    } finally {
      void reader.cancel().catch(() => undefined);
    }
    // the stream ended without its answer: the connection dropped
    throw new ApiError(NETWORK_ERROR_MESSAGE, 0, 'NETWORK_ERROR');
  }

  return {
    request,
    stream,
    get: (path, signal) => request(path, { method: 'GET', signal }),
    post: (path, body, signal) => request(path, { method: 'POST', body, signal }),
    put: (path, body, signal) => request(path, { method: 'PUT', body, signal }),
    download,
  };
}

/** One Server-Sent Event block (`event:` and `data:` lines); null for a comment or an unreadable one. */
function serverSentEvent(block: string): { name: string; data: unknown } | null {
  let name = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) name = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  if (data.length === 0) return null;
  try {
    return { name, data: JSON.parse(data.join('\n')) as unknown };
  } catch {
    throw new ApiError(UNEXPECTED_ERROR_MESSAGE, 200, 'BAD_RESPONSE');
  }
}

const rateLimitListeners = new Set<(details: RateLimitDetails) => void>();

/** Subscribes to the app client's rate-limit refusals; returns the unsubscribe function. */
export function onRateLimited(listener: (details: RateLimitDetails) => void): () => void {
  rateLimitListeners.add(listener);
  return () => rateLimitListeners.delete(listener);
}

/**
 * The app's client: bearer token from storage, one shared refresh and one retry on 401, and the
 * spec's client-side limits counted per signed-in user (or for the anonymous visitor).
 */
export const api = createApiClient({
  baseUrl: apiBaseUrl,
  getToken: readAccessToken,
  renewToken: renewAccessToken,
  rateLimiter: createRateLimiter(),
  rateLimitKey: () => accessTokenSubject() ?? 'anonymous',
  onRateLimited: (details) => {
    for (const listener of rateLimitListeners) listener(details);
  },
});
