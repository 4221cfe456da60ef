import { vi } from 'vitest';

/** A Response carrying `body` as the API's JSON. */
export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A fetch mock that answers every call with `body`, the whole envelope as given. */
export function respondWith(body: unknown, status = 200) {
  return vi.fn<typeof fetch>().mockImplementation(async () => json(body, status));
}

/** A fetch mock that answers with the API's success envelope around `data`, what the server computed. */
export function succeedWith(data: unknown) {
  return respondWith({ success: true, data });
}

/** A fetch mock that answers with the API's error envelope. */
export function failWith(error: string, code: string, status: number) {
  return respondWith({ success: false, error, code }, status);
}

const eventBlock = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/** A fetch answering with a Server-Sent Events body the test writes to, chunk by chunk. */
export function streamingFetch() {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(start) {
      controller = start;
    },
  });
  const fetchMock = vi
    .fn<typeof fetch>()
    .mockResolvedValue(new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } }));
  return {
    fetchMock,
    send: (name: string, data: unknown) => controller.enqueue(encoder.encode(eventBlock(name, data))),
    end: () => controller.close(),
  };
}
