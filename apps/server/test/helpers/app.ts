import path from 'node:path';
import { tmpdir } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';

export interface LogCapture {
  lines: Record<string, unknown>[];
  write(line: string): void;
}

/** A log destination that keeps every JSON line, for assertions on what was logged. */
export function captureLogs(): LogCapture {
  const lines: Record<string, unknown>[] = [];
  return {
    lines,
    write(line: string) {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    },
  };
}

/**
 * Builds the real app from environment variables, as the process would. Logs are silent and
 * no web build is served unless the test sets LOG_LEVEL or WEB_DIST.
 */
export function buildTestApp(
  env: Record<string, string | undefined>,
  logs?: LogCapture,
): Promise<FastifyInstance> {
  const config = loadConfig({
    LOG_LEVEL: logs === undefined ? 'silent' : 'info',
    NODE_ENV: 'test',
    WEB_DIST: path.join(tmpdir(), 'rfckit-no-web-build'),
    ...env,
  });
  return buildApp(config, logs === undefined ? {} : { logStream: logs });
}
