// Fault run (`npm run test:faults`; CI runs it after the conformance suites, not part of
// `npm test`): the real server process on a throwaway PostgreSQL and redis-server, under 20
// clients reading and writing, while the database's backends are terminated, the database is
// stopped (`pg_ctl stop -m fast`, then `-m immediate`) and started again, and Redis is killed and
// restarted. It checks that the process never exits, that every answer is 2xx or a 503 in the
// error envelope (never a 500, never a dropped connection), that health is 200 within 2 s of the
// database's return, and that every write answered 2xx is in the database afterwards.
// Everything runs on 127.0.0.1, is bounded in time, and is removed at the end.
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { Load, type Tally } from './faults/load.ts';
import {
  cleanup,
  node,
  Postgres,
  RedisServer,
  type ServerProcess,
  sleep,
  startServer,
  tempDir,
} from './faults/services.ts';

const CLIENTS = 20;
const HEALTHY_WITHIN_MS = 2000;
const DOWN_MS = 4000;
const SETTLE_MS = 3000;
const TERMINATE_ROUNDS = 3;
const RUN_LIMIT_MS = 240_000;
const EMAIL = 'faults@example.test';
const PASSWORD = 'fault run password';

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

const checks: Check[] = [];
// what the clean-up needs when the run stops half way
const running: { load?: Load; serverLog?: string } = {};
function check(name: string, ok: boolean, detail = ''): void {
  checks.push({ name, ok, detail });
}

async function query<Row extends object>(url: string, text: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Milliseconds until GET /v1/health answers 200, polling from a client of its own (Infinity after 10 s). */
async function timeToHealthy(baseUrl: string): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < 10_000) {
    const ok = await fetch(`${baseUrl}/v1/health`, { signal: AbortSignal.timeout(2000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return Math.round(performance.now() - started);
    await sleep(25);
  }
  return Number.POSITIVE_INFINITY;
}

async function signIn(baseUrl: string): Promise<{ token: string; organisationId: string }> {
  const login = await fetch(`${baseUrl}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  if (!login.ok) throw new Error(`sign-in answered ${login.status}: ${await login.text()}`);
  const { token } = (await login.json()) as { token: string };
  const organisation = await fetch(`${baseUrl}/v1/organisation`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (!organisation.ok) throw new Error(`GET /v1/organisation answered ${organisation.status}`);
  const { data } = (await organisation.json()) as { data: { organisation: { id: string } } };
  return { token, organisationId: data.organisation.id };
}

function describeTally(tally: Tally): string {
  const unavailable = Object.entries(tally.unavailable)
    .map(([code, count]) => `${count} ${code}`)
    .join(', ');
  return `${tally.requests} requests, ${tally.ok} 2xx, ${unavailable || 'no 503'}, ${tally.failures} failures`;
}

async function faultRun(): Promise<void> {
  const postgres = await Postgres.create();
  await postgres.start();
  await query(postgres.url('postgres'), 'create database rfckit');
  const redis = await RedisServer.create();
  await redis.start();
  console.log(`PostgreSQL on 127.0.0.1:${postgres.port}, Redis on 127.0.0.1:${redis.port}`);

  const dataDir = tempDir('rfckit-faults-data-');
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: postgres.url('rfckit'),
    REDIS_URL: redis.url,
    // the clients share one address and one user: the limits are not what this run is about
    RATE_LIMIT_SCALE: '100000',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
  };
  await node(
    'apps/server/src/admin.ts',
    ['create-user', '--email', EMAIL, '--password', PASSWORD, '--verified'],
    env,
  );
  const server: ServerProcess = await startServer(env, dataDir);
  running.serverLog = server.logFile;
  console.log(`rfckit server pid ${server.child.pid} on ${server.url}; ${CLIENTS} clients`);
  const { token, organisationId } = await signIn(server.url);

  const adminUrl = postgres.url('rfckit');
  const load = new Load(server.url, token);
  running.load = load;
  const recoveries: { fault: string; ms: number }[] = [];
  load.setPhase('steady');
  load.start(CLIENTS);
  await sleep(SETTLE_MS);

  load.setPhase('backends terminated');
  let terminated = 0;
  for (let round = 0; round < TERMINATE_ROUNDS; round += 1) {
    const rows = await query(
      adminUrl,
      // every other session of the app's database is the server's
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = 'rfckit' and pid <> pg_backend_pid()`,
    );
    terminated += rows.length;
    await sleep(1000);
  }
  recoveries.push({ fault: 'pg_terminate_backend', ms: await timeToHealthy(server.url) });
  await sleep(SETTLE_MS);

  for (const mode of ['fast', 'immediate'] as const) {
    load.setPhase(`database away (stop -m ${mode})`);
    await postgres.stop(mode);
    await sleep(DOWN_MS);
    await postgres.start();
    load.setPhase(`database back (after -m ${mode})`);
    recoveries.push({ fault: `pg_ctl stop -m ${mode}`, ms: await timeToHealthy(server.url) });
    await sleep(SETTLE_MS);
  }

  load.setPhase('redis killed');
  await redis.kill();
  await sleep(DOWN_MS);
  await redis.start();
  load.setPhase('redis back');
  await sleep(SETTLE_MS);
  await load.stop();

  // the report
  console.log('\nanswers by phase:');
  for (const [phase, tally] of load.tallies) console.log(`  ${phase.padEnd(34)} ${describeTally(tally)}`);
  const total = load.total();
  console.log(`  ${'total'.padEnd(34)} ${describeTally(total)}`);
  console.log(`backends terminated: ${terminated}`);
  for (const { fault, ms } of recoveries) console.log(`healthy after ${fault}: ${ms} ms`);
  if (load.failureSamples.length > 0) {
    console.log('first failures:');
    for (const sample of load.failureSamples) console.log(`  ${sample}`);
  }

  const exited = server.exited();
  check('the server process never exited', exited === undefined, exited ?? '');
  check(
    'every answer was 2xx or a 503 in the envelope with Retry-After and security headers',
    total.failures === 0,
    `${total.failures} of ${total.requests} were not`,
  );
  const awayUnavailable = [...load.tallies]
    .filter(([phase]) => phase.startsWith('database away'))
    .reduce((sum, [, tally]) => sum + (tally.unavailable.DATABASE_UNAVAILABLE ?? 0), 0);
  check(
    'requests while the database was away answered 503 DATABASE_UNAVAILABLE',
    awayUnavailable > 0,
    `${awayUnavailable}`,
  );
  check('backends were terminated', terminated > 0, `${terminated}`);
  const slowest = Math.max(...recoveries.map((recovery) => recovery.ms));
  check(
    `health was 200 within ${HEALTHY_WITHIN_MS} ms of each return`,
    slowest <= HEALTHY_WITHIN_MS,
    `slowest ${slowest} ms`,
  );
  const servedAfter = [...load.tallies]
    .filter(([phase]) => phase.startsWith('database back') || phase === 'redis back')
    .every(([, tally]) => tally.ok > 0);
  check('requests were answered 2xx again after every fault', servedAfter);

  const rows = await query<{ details: string | null }>(
    adminUrl,
    `select details from activity where organisation_id = $1 and action = 'update'`,
    [organisationId],
  );
  const stored = new Set(
    rows.map((row) => (JSON.parse(row.details ?? '{}') as { name?: { to?: string } }).name?.to),
  );
  const missing = load.confirmedWrites.filter((name) => !stored.has(name));
  console.log(
    `writes answered 2xx: ${load.confirmedWrites.length}, found in the database: ${load.confirmedWrites.length - missing.length}`,
  );
  check(
    'every write answered 2xx is in the database',
    missing.length === 0 && load.confirmedWrites.length > 0,
    missing.length > 0
      ? `missing: ${missing.slice(0, 10).join(', ')}`
      : `${load.confirmedWrites.length} writes`,
  );

  const stopped = await server.stop(10_000);
  check('the server shut down cleanly on SIGTERM', stopped.code === 0, JSON.stringify(stopped));
}

/** The end of the server's log, for a failed run (the file goes with the temp dirs). */
function printServerLog(): void {
  if (running.serverLog === undefined) return;
  try {
    const lines = readFileSync(running.serverLog, 'utf8').trimEnd().split('\n');
    console.log(`\nlast lines of the server's log:\n${lines.slice(-40).join('\n')}`);
  } catch {
    // nothing logged
  }
}

async function main(): Promise<number> {
  const limit = setTimeout(() => {
    console.error(`fault run: over ${RUN_LIMIT_MS / 1000} s, giving up`);
    void cleanup().finally(() => process.exit(1));
  }, RUN_LIMIT_MS);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      void cleanup().finally(() => process.exit(130));
    });
  }
  try {
    await faultRun();
  } catch (error) {
    check('the run completed', false, error instanceof Error ? error.message : String(error));
  } finally {
    clearTimeout(limit);
    await running.load?.stop();
    if (checks.some((item) => !item.ok)) printServerLog();
    await cleanup();
  }
  console.log('\nchecks:');
  for (const item of checks)
    console.log(`  ${item.ok ? 'ok  ' : 'FAIL'} ${item.name}${item.detail ? ` (${item.detail})` : ''}`);
  const failed = checks.filter((item) => !item.ok).length;
  // not the "N passed, N failed" closing line of a test runner: CI reads that from the test suites
  console.log(
    `fault run: ${checks.length - failed} of ${checks.length} checks held${failed === 0 ? '' : `, ${failed} did not`}`,
  );
  return failed === 0 ? 0 : 1;
}

process.exitCode = await main();
