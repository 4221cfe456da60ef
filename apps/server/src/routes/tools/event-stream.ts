// An operation that reports progress answers a caller who accepts `text/event-stream` with
// Server-Sent Events (docs/architecture.md §3): `progress` events while it works, then one
// `result` event with the success envelope or one `error` event with the error envelope and the
// status it would have had. The stream opens with the first progress event, so a failure before
// it (bad input, a refused target, a closed port) is the ordinary JSON answer with its status.
import type { ToolOperation } from '@rfckit/standards';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorAnswer } from '../../plugins/errors.ts';

export function acceptsEventStream(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').toLowerCase().includes('text/event-stream');
}

/** Runs `work`, streaming its progress; answers as JSON when it ends before its first event. */
export async function answerAsEventStream(
  operation: ToolOperation,
  request: FastifyRequest,
  reply: FastifyReply,
  work: (progress: (event: unknown) => void) => Promise<unknown>,
): Promise<unknown> {
  const schema = operation.progress;
  let open = false;
  const send = (event: string, data: unknown) => {
    if (!reply.raw.destroyed) reply.raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const progress = (event: unknown) => {
    if (schema === undefined) return;
    if (!open) {
      open = true;
      reply.hijack();
      // headers set so far (rate-limit counters, security headers) go out with the stream
      for (const [name, value] of Object.entries(reply.getHeaders()))
        if (value !== undefined) reply.raw.setHeader(name, value);
      reply.raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        // proxies such as nginx would hold the events back otherwise
        'x-accel-buffering': 'no',
      });
    }
    send('progress', schema.parse(event));
  };
  try {
    const data = await work(progress);
    if (!open) return { success: true as const, data };
    send('result', { success: true, data: operation.result.parse(data) });
  } catch (error) {
    if (!open) throw error;
    const { statusCode, body } = errorAnswer(error, request);
    send('error', { ...body, status: statusCode });
  }
  reply.raw.end();
  return reply;
}
