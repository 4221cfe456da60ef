// DNSKEY validate throughput against a bare Fastify hello-world, each server its own process, over
// loopback. Run by run.ts; runs alone as `node bench/throughput.ts`. Its helpers serve load.ts too.
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

export const root = path.resolve(import.meta.dirname, '..');

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);

/**
 * Distinct real keys, as admins paste them (owner, TTL, class), so DS digests are computed too:
 * RSASHA256-2048, ECDSAP256SHA256 and ED25519 KSKs and ZSKs in turn.
 */
export function dnskeyBodies(count: number): string[] {
  const bodies: string[] = [];
  for (let i = 0; i < count; i++) {
    const owner = `zone${i}.example.`;
    const flags = i % 2 === 0 ? 257 : 256;
    let algorithm: number;
    let key: Buffer;
    if (i % 3 === 0) {
      const jwk = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'jwk' });
      const e = Buffer.from(jwk.e!, 'base64url');
      key = Buffer.concat([Buffer.from([e.length]), e, Buffer.from(jwk.n!, 'base64url')]); // RFC 3110 §2
      algorithm = 8;
    } else if (i % 3 === 1) {
      const jwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
      key = Buffer.concat([Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]); // RFC 6605 §4
      algorithm = 13;
    } else {
      const jwk = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
      key = Buffer.from(jwk.x!, 'base64url'); // RFC 8080 §3
      algorithm = 15;
    }
    bodies.push(
      JSON.stringify({ record: `${owner} 3600 IN DNSKEY ${flags} 3 ${algorithm} ${key.toString('base64')}` }),
    );
  }
  return bodies;
}

export async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no answer from ${url}`);
}

export function start(script: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, script, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/**
 * Autocannon options where each request carries a different record (nothing may depend on
 * repetition) and, with tokens, the next of several users' access tokens.
 */
export function cannonOptions(
  url: string,
  method: 'GET' | 'POST',
  bodies: readonly string[],
  tokens: readonly string[],
  load: { connections: number; duration: number },
): autocannon.Options {
  let next = 0;
  return {
    url,
    ...load,
    headers: { 'content-type': 'application/json' },
    requests: [
      {
        method,
        setupRequest: (request) => {
          const n = next++;
          return {
            ...request,
            ...(bodies.length === 0 ? {} : { body: bodies[n % bodies.length] }),
            ...(tokens.length === 0
              ? {}
              : { headers: { ...request.headers, authorization: `Bearer ${tokens[n % tokens.length]}` } }),
          };
        },
      },
    ],
  };
}

async function load(
  url: string,
  method: 'GET' | 'POST',
  bodies: string[] = [],
  tokens: string[] = [],
): Promise<{ rps: number; p99Ms: number; errors: number }> {
  const opts = cannonOptions(url, method, bodies, tokens, { connections, duration: seconds });
  await autocannon({ ...opts, duration: 2 }); // warm-up
  const result = await autocannon(opts);
  const errors = result.errors + result.non2xx + result.timeouts;
  return { rps: Math.round(result.requests.average), p99Ms: result.latency.p99, errors };
}

const UNAUTHENTICATED_PREFIX = '/bench-unauthenticated/v1';
const BENCH_PASSWORD = 'bench-password-not-secret';

/** Verified users made with the admin command, each signed in through the real login route. */
export async function accessTokens(baseUrl: string, dataDir: string, count: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const email = `bench-${i}@example.test`;
    const admin = start(
      [
        'apps/server/src/admin.ts',
        'create-user',
        '--email',
        email,
        '--password',
        BENCH_PASSWORD,
        '--verified',
      ],
      { DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    );
    const code = await new Promise((r) => admin.once('exit', r));
    if (code !== 0) throw new Error(`admin create-user exited with ${String(code)}`);
    const response = await fetch(`${baseUrl}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: BENCH_PASSWORD }),
    });
    if (!response.ok) throw new Error(`login failed: ${response.status} ${await response.text()}`);
    tokens.push(((await response.json()) as { token: string }).token);
  }
  return tokens;
}

export async function throughput(): Promise<Record<string, unknown>> {
  const helloPort = 4391;
  const appPort = 4392;
  const hello = start(['bench/hello-world.ts'], { PORT: String(helloPort) });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rfckit-bench-'));
  // production-like: request logging on, sent nowhere slower than a pipe
  const app = start(['bench/tool-server.ts'], {
    BENCH_UNAUTHENTICATED_PREFIX: UNAUTHENTICATED_PREFIX,
    PORT: String(appPort),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    NODE_ENV: 'production',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    // one client sends every request: the limiter still runs and counts, its ceiling is out of reach
    RATE_LIMIT_SCALE: '1000000',
  });
  try {
    await waitForHealth(`http://127.0.0.1:${helloPort}/`, hello);
    await waitForHealth(`http://127.0.0.1:${appPort}/v1/health`, app);
    const appUrl = `http://127.0.0.1:${appPort}`;
    const tokens = await accessTokens(appUrl, dataDir, 20);
    const bodies = dnskeyBodies(300);
    const helloWorld = await load(`http://127.0.0.1:${helloPort}/`, 'GET');
    const dnskey = await load(`${appUrl}/v1/dnskey/validate`, 'POST', bodies, tokens);
    if (dnskey.errors > 0) throw new Error(`${dnskey.errors} failed DNSKEY requests`);
    const unauthenticated = await load(`${appUrl}${UNAUTHENTICATED_PREFIX}/dnskey/validate`, 'POST', bodies);
    if (unauthenticated.errors > 0) throw new Error(`${unauthenticated.errors} failed DNSKEY requests`);
    const bare = await load(`http://127.0.0.1:${helloPort}/dnskey/validate`, 'POST', bodies);
    if (bare.errors > 0) throw new Error(`${bare.errors} failed DNSKEY requests`);
    return {
      seconds,
      connections,
      helloWorld,
      dnskeyValidate: dnskey,
      // what the whole stack (sign-in, limiter, headers, schemas, log) leaves of the bare validation
      stackRatio: Number((dnskey.rps / bare.rps).toFixed(3)),
      stackTarget: 0.65,
      // against a hello-world: reported for comparison with earlier runs, no longer a target
      ratio: Number((dnskey.rps / helloWorld.rps).toFixed(3)),
      dnskeyValidateUnauthenticated: unauthenticated,
      authenticatedRatio: Number((dnskey.rps / unauthenticated.rps).toFixed(3)),
      authenticatedTarget: 0.7,
      // the validation alone in the bare server: the most the ratio could be with no stack at all
      dnskeyValidateBare: bare,
      bareRatio: Number((bare.rps / helloWorld.rps).toFixed(3)),
    };
  } finally {
    await Promise.all([stop(hello), stop(app)]);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const rps = await throughput();
  console.log(JSON.stringify(rps, null, 2));
  console.log(`signed-in POST /v1/dnskey/validate / bare validateDnskey: ${rps.stackRatio} (target ≥ 0.65)`);
}
