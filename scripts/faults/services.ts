// The processes the fault run starts and breaks: a throwaway PostgreSQL, a redis-server and the
// real rfckit server, all on 127.0.0.1, in temp dirs that `cleanup()` removes.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, createWriteStream, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '../..');

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** Runs a command to its end within `timeoutMs`; rejects with its output when it fails. */
export function run(command: string, args: string[], timeoutMs = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`${command} ${args.join(' ')} exited ${code ?? signal}:\n${output}`));
    });
  });
}

/** The newest PostgreSQL server binaries: PG_BIN, or Debian's /usr/lib/postgresql/<version>/bin. */
export function findPgBin(): string {
  const fromEnv = process.env.PG_BIN;
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((entry) => existsSync(path.join(base, entry, 'bin', 'pg_ctl')))
        .sort((a, b) => Number(a) - Number(b))
    : [];
  const newest = versions.at(-1);
  if (newest === undefined) throw new Error('PostgreSQL not found: install postgresql or set PG_BIN');
  return path.join(base, newest, 'bin');
}

const tempDirs: string[] = [];
const children = new Set<ChildProcess>();
const cleanups: (() => Promise<void>)[] = [];

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

/** Stops whatever is still running and removes the temp dirs; safe to call twice. */
export async function cleanup(): Promise<void> {
  for (const step of cleanups.splice(0).reverse()) await step().catch(() => undefined);
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * A throwaway PostgreSQL cluster on 127.0.0.1, as .ci/run makes one: trust auth, no fsync (a
 * crash of the server process loses nothing the OS has; only a machine crash would). Run as the
 * postgres user when we are root, since PostgreSQL refuses to run as root.
 */
export class Postgres {
  readonly user: string;
  readonly port: number;
  private readonly bin: string;
  private readonly dir: string;
  private readonly asPg: (command: string) => [string, string[]];

  private constructor(bin: string, dir: string, port: number) {
    this.bin = bin;
    this.dir = dir;
    this.port = port;
    const root = process.getuid?.() === 0;
    this.user = root ? 'postgres' : execFileSync('id', ['-un']).toString().trim();
    this.asPg = root
      ? (command) => ['runuser', ['-u', 'postgres', '--', path.join(this.bin, command)]]
      : (command) => [path.join(this.bin, command), []];
  }

  static async create(): Promise<Postgres> {
    const dir = tempDir('rfckit-faults-pg-');
    if (process.getuid?.() === 0) {
      const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
      const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
      chownSync(dir, uid, gid);
    }
    const postgres = new Postgres(findPgBin(), dir, await freePort());
    await postgres.pg('initdb', ['-D', postgres.data, '-A', 'trust', '-U', postgres.user, '--no-sync']);
    cleanups.push(() => postgres.stop('immediate'));
    return postgres;
  }

  private get data(): string {
    return path.join(this.dir, 'data');
  }

  private pg(command: string, args: string[]): Promise<string> {
    const [program, prefix] = this.asPg(command);
    return run(program, [...prefix, ...args]);
  }

  url(database: string): string {
    return `postgres://${this.user}@127.0.0.1:${this.port}/${database}`;
  }

  /** Starts the server and returns once it accepts connections (pg_ctl -w). */
  async start(): Promise<void> {
    const options = `-c listen_addresses=127.0.0.1 -p ${this.port} -k ${this.dir} -c fsync=off`;
    await this.pg('pg_ctl', [
      '-D',
      this.data,
      '-l',
      path.join(this.dir, 'log'),
      '-w',
      '-o',
      options,
      'start',
    ]);
  }

  /** `fast` ends every session and shuts down cleanly; `immediate` kills the server as a crash would. */
  async stop(mode: 'fast' | 'immediate'): Promise<void> {
    if (!existsSync(path.join(this.data, 'postmaster.pid'))) return;
    await this.pg('pg_ctl', ['-D', this.data, '-m', mode, '-w', 'stop']);
  }
}

/** A redis-server without persistence on a fixed port, which can be killed and started again. */
export class RedisServer {
  readonly port: number;
  private child: ChildProcess | undefined;

  private constructor(port: number) {
    this.port = port;
  }

  static async create(): Promise<RedisServer> {
    const redis = new RedisServer(await freePort());
    cleanups.push(() => redis.kill());
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.on('error', reject);
      child.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}:\n${output}`));
      });
    });
  }

  /** SIGKILL: Redis vanishes without closing its connections politely. */
  async kill(): Promise<void> {
    const child = this.child;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }
}

export interface ServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Set when the process exited, with how. */
  exited(): string | undefined;
  /** SIGTERM, then how it ended (SIGKILL after `timeoutMs`). */
  stop(timeoutMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly logFile: string;
}

/** Runs `node <script> args` from the repository with `env` (nothing of ours leaks in) to its end. */
export function node(script: string, args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(repoRoot, script), ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`${script} ${args[0] ?? ''} exited ${code}:\n${output}`));
    });
  });
}

/** The real server (apps/server/src/server.ts) on 127.0.0.1, its log in `logDir`. */
export async function startServer(env: Record<string, string>, logDir: string): Promise<ServerProcess> {
  const port = await freePort();
  const logFile = path.join(logDir, 'server.log');
  const log = createWriteStream(logFile);
  const child = spawn(process.execPath, [path.join(repoRoot, 'apps/server/src/server.ts')], {
    env: { PATH: process.env.PATH ?? '', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  let exit: string | undefined;
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => {
      exit = signal === null ? `exit code ${code}` : `signal ${signal}`;
      resolve({ code, signal });
    });
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exit !== undefined) throw new Error(`the server exited at start (${exit}); see ${logFile}`);
    const healthy = await fetch(`${url}/v1/health`, { signal: AbortSignal.timeout(2000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    if (Date.now() > deadline) throw new Error(`the server did not become healthy; see ${logFile}`);
    await sleep(100);
  }
  return {
    url,
    child,
    logFile,
    exited: () => exit,
    async stop(timeoutMs) {
      if (exit === undefined) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
        const result = await ended;
        clearTimeout(timer);
        return result;
      }
      return ended;
    },
  };
}
