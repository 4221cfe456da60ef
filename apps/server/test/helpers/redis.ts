import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/** Set it to use a running Redis instead of starting one, e.g. redis://127.0.0.1:6379 */
const externalUrl = process.env.TEST_REDIS_URL;

function redisServerOnPath(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Whether the Redis suites can run: TEST_REDIS_URL is set or `redis-server` is installed. */
export const redisAvailable = (externalUrl !== undefined && externalUrl !== '') || redisServerOnPath();

// CI provides redis-server (.ci/run): there a missing one is a broken setup, not a reason to skip
if (!redisAvailable && process.env.CI) {
  throw new Error(
    'CI is set but redis-server is not on PATH and TEST_REDIS_URL is unset: install redis-server',
  );
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/**
 * A Redis for this suite: TEST_REDIS_URL, or a throwaway `redis-server` on 127.0.0.1 and a free
 * port, without persistence, stopped after the suite. Call the result inside hooks and tests.
 */
export interface TestRedis {
  url(): string;
  /** Stops the server this suite started (an outage); a no-op with TEST_REDIS_URL. */
  stop(): Promise<void>;
}

export function useRedis(): TestRedis {
  let url = externalUrl !== undefined && externalUrl !== '' ? externalUrl : undefined;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    if (url !== undefined) return;
    const port = await freePort();
    const server = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = server;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
      server.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      server.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}:\n${output}`));
      });
    });
    url = `redis://127.0.0.1:${port}`;
  }, 15_000);

  async function stop(): Promise<void> {
    const server = child;
    if (server === undefined || server.exitCode !== null || server.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      server.once('exit', () => resolve());
      server.kill('SIGTERM');
    });
  }
  afterAll(stop);

  return {
    url: () => {
      if (url === undefined) throw new Error('Redis is only ready inside hooks and tests');
      return url;
    },
    stop,
  };
}
