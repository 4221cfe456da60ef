import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const serverEntry = path.resolve(import.meta.dirname, '../src/server.ts');

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startServer(env: Record<string, string>): Started {
  const child = spawn(process.execPath, [serverEntry], {
    // a clean environment: nothing from the developer's shell (DATABASE_URL, PORT…) leaks in
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
  return { child, output: () => output, exited };
}

async function waitFor<T>(probe: () => T | undefined, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no exit within ${ms} ms`)), ms)),
  ]);
}

describe('the server process', () => {
  let dataDir: string;
  let started: Started | undefined;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'rfckit-process-'));
  });
  afterEach(() => {
    if (started !== undefined && started.child.exitCode === null) started.child.kill('SIGKILL');
    started = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('listens on the port it logs, answers health and exits 0 on SIGTERM', async () => {
    started = startServer({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    const current = started;
    const port = await waitFor(
      () => /"msg":"rfckit listening on port (\d+)"/.exec(current.output())?.[1],
      'the listening line',
    );
    const response = await fetch(`http://127.0.0.1:${port}/v1/health`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: { status: string } }).data.status).toBe('ok');

    current.child.kill('SIGTERM');
    expect(await within(current.exited, 5000)).toEqual({ code: 0, signal: null });
    expect(current.output()).toContain('shut down cleanly');
  });

  it('prints a configuration error without a stack trace and exits 1', async () => {
    started = startServer({ PORT: 'abc', DATA_DIR: dataDir });
    expect((await within(started.exited, 5000)).code).toBe(1);
    expect(started.output()).toBe(
      'rfckit: Invalid configuration:\n  - PORT must be an integer 0-65535 (got "abc")\n',
    );
  });
});
