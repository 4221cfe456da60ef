import {
  routedOperations,
  tools as registry,
  type ToolDefinition,
  type ToolOperation,
} from '@rfckit/standards';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema, successEnvelope } from '../../plugins/errors.ts';
import type { ToolServerModule } from '../../tools/contract.ts';
import { acceptsEventStream, answerAsEventStream } from './event-stream.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The tool operation a route serves (tool routes only). */
    toolOperation?: ToolOperation;
  }
}

export interface ToolRoute {
  tool: ToolDefinition;
  operation: ToolOperation;
  module: ToolServerModule;
}

/**
 * Every routed operation of every built tool, from the registry: its table, and the handlers of
 * `src/tools/<id>/handlers.ts`. A tool whose table has a routed operation and no handler for it
 * stops the server at start (and the contract test), rather than answering 404 at run time.
 */
export async function loadToolRoutes(only?: readonly string[]): Promise<ToolRoute[]> {
  const routes: ToolRoute[] = [];
  for (const tool of registry) {
    if (tool.operations === undefined || (only !== undefined && !only.includes(tool.id))) continue;
    const operations = routedOperations(await tool.operations());
    if (operations.length === 0) continue;
    const { default: module } = (await import(`../../tools/${tool.id}/handlers.ts`)) as {
      default: ToolServerModule;
    };
    for (const operation of operations) {
      if (module.tool !== tool.id || typeof module.handlers[operation.id] !== 'function') {
        throw new Error(`src/tools/${tool.id}/handlers.ts has no handler for operation '${operation.id}'`);
      }
      routes.push({ tool, operation, module });
    }
  }
  return routes;
}

function registerToolRoute(app: FastifyInstance, { tool, operation, module }: ToolRoute): void {
  const handler = module.handlers[operation.id]!;
  for (const url of [operation.path, ...operation.aliases]) {
    (app as Parameters<FastifyPluginAsyncZod>[0]).route({
      method: operation.method,
      url,
      ...(operation.bodyLimit === undefined ? {} : { bodyLimit: operation.bodyLimit }),
      config: { toolOperation: operation },
      schema: {
        tags: [tool.name],
        summary: operation.summary,
        ...(operation.description === undefined ? {} : { description: operation.description }),
        ...(operation.method === 'GET' ? { querystring: operation.body } : { body: operation.body }),
        response: {
          200: successEnvelope(operation.result),
          '4xx': errorEnvelopeSchema,
          ...(operation.remoteFailures ? { '5xx': errorEnvelopeSchema } : {}),
        },
      },
      handler: async (request, reply) => {
        const body = operation.method === 'GET' ? request.query : request.body;
        // the caller hanging up ends the work (a scan holds connections to someone's server)
        const gone = new AbortController();
        reply.raw.once('close', () => {
          if (!reply.raw.writableFinished) gone.abort();
        });
        const call = { app, request, signal: gone.signal };
        if (operation.progress !== undefined && acceptsEventStream(request))
          return answerAsEventStream(operation, request, reply, (progress) =>
            Promise.resolve(handler(body, { ...call, progress })),
          );
        return { success: true as const, data: await handler(body, { ...call, progress: () => undefined }) };
      },
    });
  }
}

export interface ToolRoutesOptions {
  /** Register only these tools (the bench mounts one tool a second time). */
  only?: readonly string[];
}

/** The routes of the operation tables, without the sign-in requirement (see `tools` below). */
export const toolOperationRoutes: FastifyPluginAsync<ToolRoutesOptions> = async (app, options) => {
  for (const route of await loadToolRoutes(options.only)) registerToolRoute(app, route);
};

/**
 * Every tool route. They all need a signed-in caller or an organisation API key (docs/architecture.md §7),
 * enforced here once so that a new tool cannot be left open by mistake; the OpenAPI document says
 * so too. These are the only routes that accept an API key.
 */
const tools: FastifyPluginAsync = async (app) => {
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, security: [{ bearerAuth: [] }, { apiKeyAuth: [] }] };
    route.config = { ...route.config, apiKeyAccess: true };
  });
  // at onRequest: an anonymous body is never parsed or validated
  app.addHook('onRequest', app.authenticateToolCaller);
  await app.register(toolOperationRoutes);
};

export default tools;
