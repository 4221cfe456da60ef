// Benchmarks (not tests): DNSKEY validate throughput against a bare Fastify hello-world on
// this machine, and the gzip size of the JS the welcome page loads. Loopback only.
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { chromium } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../e2e/chromium.ts';
import { activityBench, describeActivityBench } from './activity.ts';
import { dkimBench, describeDkimBench } from './dkim.ts';
import { dnsBench, describeDnsBench } from './dns.ts';
import { describeHttpHeadersBench, httpHeadersBench } from './http-headers.ts';
import { describeSpfBench, spfBench } from './spf.ts';
import { describeSpfLintBench, spfLintBench } from './spf-lint.ts';

const root = path.resolve(import.meta.dirname, '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);

/**
 * Distinct real keys, as admins paste them (owner, TTL, class), so DS digests are computed too:
 * RSASHA256-2048, ECDSAP256SHA256 and ED25519 KSKs and ZSKs in turn.
 */
function dnskeyBodies(count: number): string[] {
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

async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
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

function start(script: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, script, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

async function load(
  url: string,
  method: 'GET' | 'POST',
  bodies: string[] = [],
  tokens: string[] = [],
): Promise<{ rps: number; p99Ms: number; errors: number }> {
  let next = 0;
  const opts: autocannon.Options = {
    url,
    connections,
    duration: seconds,
    headers: { 'content-type': 'application/json' },
    requests: [
      {
        method,
        // each request a different record (nothing may depend on repetition), and with tokens,
        // the next of several users' access tokens
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
  await autocannon({ ...opts, duration: 2 }); // warm-up
  const result = await autocannon(opts);
  const errors = result.errors + result.non2xx + result.timeouts;
  return { rps: Math.round(result.requests.average), p99Ms: result.latency.p99, errors };
}

const UNAUTHENTICATED_PREFIX = '/bench-unauthenticated/v1';
const BENCH_PASSWORD = 'bench-password-not-secret';

/** Verified users made with the admin command, each signed in through the real login route. */
async function accessTokens(baseUrl: string, dataDir: string, count: number): Promise<string[]> {
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

async function throughput(): Promise<Record<string, unknown>> {
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
      ratio: Number((dnskey.rps / helloWorld.rps).toFixed(3)),
      target: 0.5,
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

async function welcomeJs(): Promise<Record<string, unknown>> {
  const port = 4393;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rfckit-bench-'));
  const app = start(['apps/server/src/server.ts'], {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  });
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: chromiumArgs,
  });
  try {
    await waitForHealth(`http://127.0.0.1:${port}/v1/health`, app);
    const page = await browser.newPage();
    const scripts = new Set<string>();
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.add(new URL(response.url()).pathname);
    });
    await page.goto(`http://127.0.0.1:${port}/welcome`, { waitUntil: 'networkidle' });
    const dist = path.join(root, 'apps/web/dist');
    const files = [...scripts].sort().map((p) => {
      const bytes = readFileSync(path.join(dist, p));
      return { path: p, bytes: bytes.length, gzipBytes: gzipSync(bytes).length };
    });
    const gzipBytes = files.reduce((sum, f) => sum + f.gzipBytes, 0);
    return { files, gzipBytes, gzipKB: Number((gzipBytes / 1024).toFixed(1)), targetKB: 180 };
  } finally {
    await browser.close();
    await stop(app);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const js = await welcomeJs();
console.log(
  `welcome page JS: ${js.gzipKB} KB gzip in ${(js.files as unknown[]).length} files (target ≤ 180 KB)`,
);
const rps = await throughput();
const h = rps.helloWorld as { rps: number };
const d = rps.dnskeyValidate as { rps: number; p99Ms: number };
console.log(`hello-world: ${h.rps} req/s; POST /v1/dnskey/validate: ${d.rps} req/s (p99 ${d.p99Ms} ms)`);
console.log(`ratio: ${rps.ratio} (target ≥ 0.5)`);
const b = rps.dnskeyValidateBare as { rps: number };
console.log(
  `the validation alone in the bare hello-world server: ${b.rps} req/s, ratio ${rps.bareRatio} (the ceiling with no stack)`,
);
const u = rps.dnskeyValidateUnauthenticated as { rps: number };
console.log(
  `same call without sign-in: ${u.rps} req/s; signed-in / unauthenticated: ${rps.authenticatedRatio} (target ≥ 0.7)`,
);

const dns = await dnsBench();
console.log(describeDnsBench(dns));

const activity = await activityBench();
console.log(describeActivityBench(activity));

const httpHeaders = await httpHeadersBench();
console.log(describeHttpHeadersBench(httpHeaders));

const spf = await spfBench();
console.log(describeSpfBench(spf));

const spfLint = await spfLintBench();
console.log(describeSpfLintBench(spfLint));

const dkim = await dkimBench();
console.log(describeDkimBench(dkim));

const results = {
  date: new Date().toISOString(),
  node: process.version,
  welcomeJs: js,
  throughput: rps,
  dns,
  activity,
  httpHeaders,
  spf,
  spfLint,
  dkim,
};
writeFileSync(path.join(root, 'bench/results/latest.json'), JSON.stringify(results, null, 2) + '\n');
console.log('written to bench/results/latest.json');
