/**
 * What a tool's server side supplies: one handler per routed operation of its table
 * (docs/architecture.md, "The operation contract"). The route, its schemas, envelope, OpenAPI
 * entry, sign-in requirement and rate-limit class all come from the table; a handler only turns a
 * checked body into the operation's result, or throws an HttpError.
 */
import type { ToolOperation } from '@rfckit/standards';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';

/** What a handler may use besides its body: the app (its outbound layer `app.net`) and the request. */
export interface ToolCall {
  app: FastifyInstance;
  request: FastifyRequest;
  /**
   * Reports how far the work is, for an operation that declares `progress`: sent as a Server-Sent
   * Event when the caller asked for a stream, dropped otherwise.
   */
  progress: (event: unknown) => void;
  /** Aborted when the caller goes away before the answer. */
  signal: AbortSignal;
}

export type OperationHandler<Op extends ToolOperation> = (
  body: z.output<Op['body']>,
  call: ToolCall,
) => Promise<z.input<Op['result']>> | z.input<Op['result']>;

/** A handler for every operation of the table that has a route (it does not run in the browser only). */
export type ToolHandlers<Table extends Readonly<Record<string, ToolOperation>>> = {
  readonly [Id in keyof Table as Table[Id]['runsIn'] extends 'browser' ? never : Id]: OperationHandler<
    Table[Id]
  >;
};

/** A tool's server module: the default export of `tools/<id>/handlers.ts`. */
export interface ToolServerModule {
  tool: string;
  handlers: Readonly<Record<string, OperationHandler<ToolOperation>>>;
}

/** Pairs a table with its handlers, checked against each other by type. */
export function defineHandlers<Table extends Readonly<Record<string, ToolOperation>>>(
  table: Table,
  handlers: ToolHandlers<Table>,
): ToolServerModule {
  const tool = Object.values(table)[0]?.tool ?? '';
  return { tool, handlers: handlers as unknown as ToolServerModule['handlers'] };
}
