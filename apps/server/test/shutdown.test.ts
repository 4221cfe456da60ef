import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, captureLogs, type LogCapture } from './helpers/app.ts';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Splits what a keep-alive connection received into its responses (Content-Length framed, ASCII bodies). */
function parseResponses(raw: string): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = raw;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) break;
    const [statusLine = '', ...lines] = rest.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
      }),
    );
    const length = Number(headers['content-length'] ?? 0);
    const bodyStart = end + 4;
    responses.push({
      status: Number(statusLine.split(' ')[1]),
      headers,
      body: rest.slice(bodyStart, bodyStart + length),
    });
    rest = rest.slice(bodyStart + length);
  }
  return responses;
}

async function waitFor(probe: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('shutting down', () => {
  let dataDir: string;
  let app: FastifyInstance;
  let logs: LogCapture;
  let release: () => void = () => {};
  let entered = false;

  beforeEach(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'rfckit-shutdown-'));
    logs = captureLogs();
    app = await buildTestApp({ DATA_DIR: dataDir }, logs);
    // a request still running when the close begins, which keeps its connection open
    const held = new Promise<void>((resolve) => (release = resolve));
    app.get('/v1/test/held', async () => {
      entered = true;
      await held;
      return { success: true, data: 'done' };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterEach(async () => {
    release();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers a request arriving on an open connection 503 SHUTTING_DOWN with the envelope and security headers', async () => {
    const address = app.server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const socket: Socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));

    socket.write('GET /v1/test/held HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await waitFor(() => entered, 5000);
    expect(entered).toBe(true);
    const closed = app.close();
    // the next request on the same connection, while the first one still runs
    socket.write('GET /v1/health HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await waitFor(
      () => logs.lines.some((line) => line.code === 'SHUTTING_DOWN' || line.statusCode === 503),
      2000,
    );
    release();
    await ended;
    await closed;

    const [first, second] = parseResponses(received);
    expect(first?.status).toBe(200);
    expect(second?.status).toBe(503);
    expect(JSON.parse(second?.body ?? '')).toEqual({
      success: false,
      error: 'The server is shutting down. Please try again.',
      code: 'SHUTTING_DOWN',
    });
    expect(second?.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(second?.headers['retry-after']).toBe('2');
    expect(second?.headers.connection).toBe('close');
    expect(second?.headers['x-content-type-options']).toBe('nosniff');
    expect(second?.headers['x-frame-options']).toBe('DENY');
    expect(second?.headers['content-security-policy']).toContain("default-src 'self'");
    expect(second?.headers['x-request-id']).toMatch(/.+/);
  });
});
