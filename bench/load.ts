// Load test (not a test: nothing asserts on time): the real server as a process, 200 connections
// for 60 s on a signed-in tool route and on the health route; every answer must be a 2xx. Reports
// p99 latency and the server's RSS before and after, merged into results/latest.json.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { accessTokens, cannonOptions, dnskeyBodies, root, start, stop, waitForHealth } from './throughput.ts';

const seconds = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const connections = Number(process.env.BENCH_LOAD_CONNECTIONS ?? 200);
const port = 4394;
const baseUrl = `http://127.0.0.1:${port}`;

interface LoadResult {
  url: string;
  method: 'GET' | 'POST';
  seconds: number;
  connections: number;
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  rssBeforeMB: number;
  rssAfterMB: number;
  /** The most the server's RSS reached since it started (VmHWM). */
  rssPeakMB: number;
}

/** A process's resident set and its high-water mark, in MB, from /proc (Linux). */
function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: Number((kb('VmRSS') / 1024).toFixed(1)), peak: Number((kb('VmHWM') / 1024).toFixed(1)) };
}

async function run(
  pid: number,
  url: string,
  method: 'GET' | 'POST',
  bodies: string[] = [],
  tokens: string[] = [],
): Promise<LoadResult> {
  const before = memory(pid);
  // a different record and one of several users' tokens per request, as in run.ts
  const result = await autocannon(
    cannonOptions(`${baseUrl}${url}`, method, bodies, tokens, { connections, duration: seconds }),
  );
  const after = memory(pid);
  return {
    url,
    method,
    seconds,
    connections,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    rssBeforeMB: before.rss,
    rssAfterMB: after.rss,
    rssPeakMB: after.peak,
  };
}

function describe(r: LoadResult): string {
  return (
    `${r.method} ${r.url}: ${r.rps} req/s over ${r.connections} connections for ${r.seconds} s, ` +
    `p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, max ${r.maxMs} ms; ${r.errors} errors, ${r.timeouts} timeouts, ` +
    `${r.non2xx} non-2xx; RSS ${r.rssBeforeMB} → ${r.rssAfterMB} MB (peak ${r.rssPeakMB} MB)`
  );
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'rfckit-load-'));
// production settings; the limiter runs on every request, its ceiling out of reach of one client
const server = start(['apps/server/src/server.ts'], {
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  NODE_ENV: 'production',
  LOG_LEVEL: 'info',
  RATE_LIMIT_SCALE: '1000000',
});
let results: { dnskeyValidate: LoadResult; health: LoadResult };
try {
  await waitForHealth(`${baseUrl}/v1/health`, server);
  const tokens = await accessTokens(baseUrl, dataDir, 20);
  const bodies = dnskeyBodies(300);
  const pid = server.pid!;
  const dnskeyValidate = await run(pid, '/v1/dnskey/validate', 'POST', bodies, tokens);
  console.log(describe(dnskeyValidate));
  const health = await run(pid, '/v1/health', 'GET');
  console.log(describe(health));
  results = { dnskeyValidate, health };
} finally {
  await stop(server);
  rmSync(dataDir, { recursive: true, force: true });
}

const file = path.join(root, 'bench/results/latest.json');
const existing = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
const load = { date: new Date().toISOString(), node: process.version, ...results };
writeFileSync(file, JSON.stringify({ ...existing, load }, null, 2) + '\n');
console.log('merged into bench/results/latest.json (load)');
const failed = Object.values(results).filter((r) => r.errors + r.timeouts + r.non2xx > 0);
if (failed.length > 0) {
  console.error(`failed requests on ${failed.map((r) => r.url).join(', ')}`);
  process.exitCode = 1;
}
