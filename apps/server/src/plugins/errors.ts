import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { couldNotCheckDetailsSchema, type TriedTarget } from '@rfckit/standards';
import { z } from 'zod';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { RequestValidationError } from './validation.ts';

/** `{ success: false, error, code }`: the body of every error response (docs/architecture.md §7). */
export const errorEnvelopeSchema = z.object({
  success: z.literal(false),
  error: z.string().describe('Human-readable message'),
  code: z.string().describe('Stable machine-readable code, e.g. VALIDATION_ERROR'),
  details: couldNotCheckDetailsSchema
    .optional()
    .describe('When we could not check (our resolver or the network failed): every name or URL tried'),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/** `{ success: true, data }` around a route's result schema. */
export function successEnvelope<Data extends z.ZodType>(data: Data) {
  return z.object({ success: z.literal(true), data });
}

export const INTERNAL_ERROR_MESSAGE = 'An unexpected error occurred. Please try again.';
export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is unavailable. Please try again shortly.';
/** Seconds a client is asked to wait after a 503: a database that failed over is usually back by then. */
export const RETRY_AFTER_SECONDS = 2;

/**
 * An error whose status, code and message are meant for the client as they are; `tried` lists the
 * names and URLs a check could not get an answer from, sent as the envelope's `details`.
 */
export class HttpError extends Error {
  readonly statusCode: number;
  readonly code: string;
  readonly tried: readonly TriedTarget[] | undefined;

  constructor(
    statusCode: number,
    code: string,
    message: string,
    options?: ErrorOptions & { tried?: readonly TriedTarget[] | undefined },
  ) {
    super(message, options);
    this.name = 'HttpError';
    this.statusCode = statusCode;
    this.code = code;
    this.tried = options?.tried;
  }
}

export function routeNotFound(request: FastifyRequest): HttpError {
  const path = request.url.split('?', 1)[0] ?? '/';
  const shown = path.length > 200 ? `${path.slice(0, 200)}...` : path;
  return new HttpError(404, 'NOT_FOUND', `Route ${request.method} ${shown} not found`);
}

const codeByStatus: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  408: 'REQUEST_TIMEOUT',
  409: 'CONFLICT',
  411: 'LENGTH_REQUIRED',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_ENTITY',
  429: 'RATE_LIMITED',
  431: 'HEADERS_TOO_LARGE',
  451: 'UNAVAILABLE_FOR_LEGAL_REASONS',
};

function formatBytes(bytes: number): string {
  return bytes % 1_048_576 === 0 ? `${bytes / 1_048_576} MiB` : `${bytes} bytes`;
}

interface Described {
  statusCode: number;
  code: string;
  message: string;
}

/** Maps anything thrown or rejected during a request to its status, stable code and message. */
export function describeError(error: unknown, request: FastifyRequest): Described {
  if (error instanceof HttpError)
    return { statusCode: error.statusCode, code: error.code, message: error.message };
  if (error instanceof RequestValidationError)
    return { statusCode: 400, code: 'VALIDATION_ERROR', message: error.message };

  const fastifyError = (typeof error === 'object' && error !== null ? error : {}) as Partial<FastifyError>;
  // a lost or refused database connection, not a fault of ours: the same request may work in a
  // moment. An error with a status of its own (a client's aborted body is an ECONNRESET 400) is not one.
  if (fastifyError.statusCode === undefined && isDatabaseUnavailable(error))
    return { statusCode: 503, code: 'DATABASE_UNAVAILABLE', message: DATABASE_UNAVAILABLE_MESSAGE };
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { statusCode: 400, code: 'INVALID_JSON', message: 'Request body is not valid JSON' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { statusCode: 400, code: 'INVALID_JSON', message: 'Request body is empty; send a JSON object' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        statusCode: 413,
        code: 'PAYLOAD_TOO_LARGE',
        message: `Request body is larger than the ${formatBytes(request.routeOptions.bodyLimit)} limit`,
      };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': {
      const type = request.headers['content-type'];
      return {
        statusCode: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message:
          type === undefined
            ? 'Missing content type: send application/json'
            : `Unsupported content type "${type.slice(0, 100)}": send application/json`,
      };
    }
    case 'FST_ERR_BAD_URL':
      return { statusCode: 400, code: 'BAD_URL', message: 'The URL is malformed' };
    default:
      // any other error is described by its status code below
      break;
  }

  const statusCode = fastifyError.statusCode ?? 500;
  if (statusCode >= 400 && statusCode < 500) {
    const message =
      typeof fastifyError.message === 'string' && fastifyError.message !== ''
        ? fastifyError.message
        : undefined;
    return {
      statusCode,
      code: codeByStatus[statusCode] ?? 'BAD_REQUEST',
      message: message ?? STATUS_CODES[statusCode] ?? 'Bad request',
    };
  }
  // anything else is our fault: the details go to the log, never to the client
  return { statusCode: 500, code: 'INTERNAL_ERROR', message: INTERNAL_ERROR_MESSAGE };
}

/** Logs the error at a level fitting its status and gives the status and envelope to answer with. */
export function errorAnswer(
  error: unknown,
  request: FastifyRequest,
): { statusCode: number; body: ErrorEnvelope } {
  const { statusCode, code, message } = describeError(error, request);
  if (error instanceof HttpError) {
    // an answer we chose: no stack, but the underlying cause (a database error, say) when there is one
    const details = error.cause === undefined ? { statusCode, code } : { statusCode, code, err: error.cause };
    if (statusCode >= 500) request.log.warn(details, message);
    else request.log.info(details, message);
  } else if (code === 'DATABASE_UNAVAILABLE') {
    request.log.warn({ err: error, statusCode, code }, 'database unavailable');
  } else if (statusCode >= 500) {
    request.log.error({ err: error, code }, 'request failed');
  } else {
    request.log.info({ statusCode, code }, message);
  }
  const tried = error instanceof HttpError ? error.tried : undefined;
  return {
    statusCode,
    body: {
      success: false,
      error: message,
      code,
      ...(tried === undefined ? {} : { details: { tried: [...tried] } }),
    },
  };
}

/** Logs the error at a level fitting its status and sends the envelope. */
export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { statusCode, body } = errorAnswer(error, request);
  if (statusCode === 503 && !reply.hasHeader('retry-after')) reply.header('retry-after', RETRY_AFTER_SECONDS);
  return reply.code(statusCode).type('application/json; charset=utf-8').send(body);
}

/**
 * Writes the envelope for requests Node's HTTP parser rejects before Fastify sees them
 * (malformed request line, oversized headers).
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [statusCode, code, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'HEADERS_TOO_LARGE', 'Request headers are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'REQUEST_TIMEOUT', 'The request took too long to arrive']
        : [400, 'BAD_REQUEST', 'Malformed HTTP request'];
  const body = JSON.stringify({ success: false, error: message, code } satisfies ErrorEnvelope);
  socket.end(
    `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode]}\r\nConnection: close\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/** Sends every error as the envelope. The 404 handler lives in web-static (history fallback first). */
export default fp(
  async (app) => {
    app.setErrorHandler((error, request, reply) => sendError(error, request, reply));
  },
  { name: 'errors' },
);
