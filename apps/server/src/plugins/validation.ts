import type { FastifySchemaCompiler } from 'fastify';
import { z } from 'zod';
import type { $ZodRawIssue, $ZodType } from 'zod/v4/core';

/** A request part failed its zod schema; `message` is the one line the client is shown. */
export class RequestValidationError extends Error {
  readonly issues: readonly z.core.$ZodIssue[];

  constructor(message: string, issues: readonly z.core.$ZodIssue[]) {
    super(message);
    this.name = 'RequestValidationError';
    this.issues = issues;
  }
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

/**
 * Message for an issue that has no message of its own. Custom messages of the shared schemas
 * ('DNSKEY record is required') take precedence over this map and reach the client verbatim;
 * zod's generic ones get the field path in front so they are actionable.
 */
function defaultMessage(issue: $ZodRawIssue, httpPart: string): string | undefined {
  const path = issue.path ?? [];
  if (issue.code === 'unrecognized_keys') {
    const names = issue.keys.map((key) => `"${formatPath([...path, key])}"`);
    return `Unknown field${names.length > 1 ? 's' : ''} ${names.join(', ')}`;
  }
  const locale = z.config().localeError?.(issue);
  const message = typeof locale === 'string' ? locale : locale?.message;
  if (message === undefined) return undefined;
  return `${path.length > 0 ? formatPath(path) : httpPart}: ${message}`;
}

/** Validates body, query, params and headers with their zod schemas; the first issue becomes the message. */
export const validatorCompiler: FastifySchemaCompiler<$ZodType> = ({ schema, method, url, httpPart }) => {
  if (!(schema instanceof z.core.$ZodType)) {
    throw new TypeError(`Route ${method} ${url}: the ${httpPart ?? 'request'} schema must be a zod schema`);
  }
  const part = httpPart ?? 'request';
  return (data) => {
    const result = z.safeParse(schema, data, { error: (issue) => defaultMessage(issue, part) });
    if (result.success) return { value: result.data };
    const first = result.error.issues[0];
    return {
      error: new RequestValidationError(first?.message ?? `${part}: Invalid input`, result.error.issues),
    };
  };
};
