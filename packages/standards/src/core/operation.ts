import type { z } from 'zod';
import type { RateLimitClass } from './rate-limits.ts';

/**
 * Where an operation's work is done. `server` and `both` are API routes; `browser` runs in the
 * page alone (no secret leaves it, no network is needed) and has no route. See
 * docs/architecture.md, "Where a generator runs".
 */
export type OperationRunsIn = 'browser' | 'server' | 'both';

/**
 * One thing a tool does, declared once: the server registers its route from this, the web app
 * calls it through this, the OpenAPI document describes it from this.
 */
export interface ToolOperation<
  Body extends z.ZodType = z.ZodType,
  Result extends z.ZodType = z.ZodType,
  RunsIn extends OperationRunsIn = OperationRunsIn,
> {
  /** The registry id of the tool the operation belongs to. */
  tool: string;
  /** Stable within the tool, e.g. `validate`. */
  id: string;
  /** POST takes `body` as JSON; GET takes it as the query string (a read-only look-up). */
  method: 'GET' | 'POST';
  /** Full path below the version prefix, e.g. `/dnskey/validate` (served under /v1 and /api/v1). */
  path: `/${string}`;
  /** Other full paths of the same route (`/tls-cipher/analyze` for `/tls-cipher/analyse`, `/dnssec/chain`). */
  aliases: readonly `/${string}`[];
  body: Body;
  result: Result;
  summary: string;
  description: string | undefined;
  /** The limit class of spec part 1 §9 the route counts against. */
  rateLimit: RateLimitClass;
  runsIn: RunsIn;
  /** A larger JSON body than the 1 MiB default (a message whose CRLFs JSON doubles). */
  bodyLimit: number | undefined;
  /** Whether the route may answer 5xx on purpose (502/504 for a remote site that failed, 503 when our resolver did not answer). */
  remoteFailures: boolean;
  /**
   * Events the handler reports while it works, checked by this schema: a request that accepts
   * `text/event-stream` gets them as Server-Sent Events, then the answer (docs/architecture.md §3).
   */
  progress: z.ZodType | undefined;
}

export type OperationBody<Op extends ToolOperation> = z.input<Op['body']>;
export type OperationResult<Op extends ToolOperation> = z.output<Op['result']>;

export interface OperationSpec<Body extends z.ZodType, Result extends z.ZodType> {
  /** Path below the tool, e.g. `/validate`. */
  path: `/${string}`;
  /** POST by default; GET reads `body` from the query string. */
  method?: 'GET' | 'POST';
  /**
   * Other full paths of the same route below the version prefix: another spelling under the tool
   * (`/tls-cipher/analyze`), or the path a standard's wider name gives it (`/dnssec/chain`).
   */
  aliases?: readonly `/${string}`[];
  body: Body;
  result: Result;
  summary: string;
  description?: string;
  rateLimit: RateLimitClass;
  runsIn: OperationRunsIn;
  bodyLimit?: number;
  remoteFailures?: boolean;
  progress?: z.ZodType;
}

type OperationsOf<Specs extends Record<string, OperationSpec<z.ZodType, z.ZodType>>> = {
  readonly [Id in keyof Specs & string]: ToolOperation<
    Specs[Id]['body'],
    Specs[Id]['result'],
    Specs[Id]['runsIn']
  >;
};

/**
 * A tool's operation table: each spec gets the tool id, its id and its full path
 * (`/<tool><path>`), so paths are written once, here; aliases are given in full.
 */
export function defineOperations<const Specs extends Record<string, OperationSpec<z.ZodType, z.ZodType>>>(
  tool: string,
  specs: Specs,
): OperationsOf<Specs> {
  const table: Record<string, ToolOperation> = {};
  for (const [id, spec] of Object.entries(specs)) {
    table[id] = {
      tool,
      id,
      method: spec.method ?? 'POST',
      path: `/${tool}${spec.path}`,
      aliases: spec.aliases ?? [],
      body: spec.body,
      result: spec.result,
      summary: spec.summary,
      description: spec.description,
      rateLimit: spec.rateLimit,
      runsIn: spec.runsIn,
      bodyLimit: spec.bodyLimit,
      remoteFailures: spec.remoteFailures ?? false,
      progress: spec.progress,
    };
  }
  return table as OperationsOf<Specs>;
}

/** The operations of a table that have an API route (they run on the server, or both). */
export function routedOperations(table: Readonly<Record<string, ToolOperation>>): ToolOperation[] {
  return Object.values(table).filter((operation) => operation.runsIn !== 'browser');
}
