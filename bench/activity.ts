// Benchmark (not a test): the activity list's server time with 100,000 records in one
// organisation (and 30,000 in three others) in a real SQLite database, measured through the real
// app (auth, rate limiter, schemas, serialisation) with app.inject. Server time is Fastify's
// reply.elapsedTime, read from the app's own access log line of each request.
// Run alone with `node bench/activity.ts`; `bench/run.ts` runs it with the rest.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CompiledQuery, type Kysely } from 'kysely';
import { buildApp } from '../apps/server/src/app.ts';
import { createAccount } from '../apps/server/src/auth/accounts.ts';
import { activityPageIds, scopedActivities, type ActivityFilter } from '../apps/server/src/db/activities.ts';
import { newSortableId } from '../apps/server/src/db/ids.ts';
import type { ActivityAction, Database } from '../apps/server/src/db/schema.ts';
import { loadConfig } from '../apps/server/src/config.ts';
// brings in the `app.db` declaration
import type {} from '../apps/server/src/plugins/db.ts';

const RECORDS = Number(process.env.BENCH_ACTIVITY_RECORDS ?? 100_000);
const OTHER_RECORDS = 10_000;
const OTHER_ORGANISATIONS = 3;
const MEMBERS = 10;
const RUNS = Number(process.env.BENCH_ACTIVITY_RUNS ?? 100);
const TARGET_MS = 50;
const PASSWORD = 'bench-password-not-secret';
const DAY_MS = 24 * 60 * 60 * 1000;

/** A real log's mix: mostly sign-ins and edits. */
const ACTIONS: ActivityAction[] = [
  'login',
  'login',
  'login',
  'logout',
  'logout',
  'update',
  'update',
  'update',
  'create',
  'delete',
];
const DESCRIPTIONS: Record<ActivityAction, string> = {
  login: 'Signed in',
  logout: 'Signed out',
  create: 'Invitation sent to a colleague',
  update: 'Profile updated: firstName, lastName',
  delete: 'Payment method removed',
};

export interface ActivityScenario {
  name: string;
  url: string;
  records: number;
  medianMs: number;
  p95Ms: number;
  maxMs: number;
  /** Round trip of app.inject, server time included. */
  injectMedianMs: number;
}

export interface ActivityBenchResult {
  name: string;
  records: number;
  otherRecords: number;
  runs: number;
  target: number;
  /** Every list scenario's p95 under the target. */
  met: boolean;
  seedSeconds: number;
  scenarios: ActivityScenario[];
  export: { rows: number; bytes: number; seconds: number };
  /** SQLite's plan of each list query (the page's ids; the count reads the same index range). */
  plans: Record<string, string[]>;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((sorted.length * p) / 100) - 1)] ?? 0;
}

const round = (value: number) => Number(value.toFixed(2));

/** Inserts `count` records spread over the last year, oldest first as a real log grows. */
async function seed(
  db: Kysely<Database>,
  organisationId: string,
  users: Array<{ id: string; email: string }>,
  count: number,
  now: number,
): Promise<void> {
  const span = 365 * DAY_MS;
  const batch = 500;
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < count; start += batch) {
      const rows = [];
      for (let i = start; i < Math.min(count, start + batch); i++) {
        const time = now - span + Math.floor((span * i) / count);
        const user = users[(i * 7) % users.length]!;
        const action = ACTIONS[(i * 3) % ACTIONS.length]!;
        rows.push({
          id: newSortableId(time),
          organisation_id: organisationId,
          user_id: user.id,
          username: user.email,
          action,
          description: DESCRIPTIONS[action],
          details: null,
          ip_address: `198.51.100.${i % 250}`,
          created_at: new Date(time).toISOString(),
        });
      }
      await trx.insertInto('activity').values(rows).execute();
    }
  });
}

async function queryPlan(db: Kysely<Database>, query: { compile(): CompiledQuery }): Promise<string[]> {
  const compiled = query.compile();
  const result = await db.executeQuery<{ detail: string }>(
    CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]),
  );
  return result.rows.map((row) => row.detail);
}

export async function activityBench(): Promise<ActivityBenchResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rfckit-bench-activity-'));
  const times: number[] = [];
  const config = loadConfig({
    DATA_DIR: dataDir,
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    WEB_DIST: path.join(dataDir, 'no-web-build'),
    // one client sends every request: the limiter still runs and counts, its ceiling is out of reach
    RATE_LIMIT_SCALE: '1000000',
  });
  const app = await buildApp(config, {
    logStream: {
      write(line: string) {
        const entry = JSON.parse(line) as { msg?: string; responseTime?: number };
        if (entry.msg === 'request completed' && entry.responseTime !== undefined)
          times.push(entry.responseTime);
      },
    },
  });
  try {
    await app.ready();
    const now = Date.now();
    const seedStart = performance.now();
    const admin = await createAccount(app.db, {
      email: 'bench-admin@example.test',
      password: PASSWORD,
      verified: true,
      organisationName: 'Bench Ltd',
      via: 'admin command',
    });
    const people = [{ id: admin.user.id, email: admin.user.email }];
    for (let i = 1; i < MEMBERS; i++) {
      const member = await createAccount(app.db, {
        email: `bench-member-${i}@example.test`,
        password: PASSWORD,
        verified: true,
        organisationId: admin.organisation.id,
        role: 'member',
        via: 'admin command',
      });
      people.push({ id: member.user.id, email: member.user.email });
    }
    await seed(app.db, admin.organisation.id, people, RECORDS, now);
    for (let i = 0; i < OTHER_ORGANISATIONS; i++) {
      const other = await createAccount(app.db, {
        email: `bench-other-${i}@example.test`,
        password: PASSWORD,
        verified: true,
        via: 'admin command',
      });
      await seed(
        app.db,
        other.organisation.id,
        [{ id: other.user.id, email: other.user.email }],
        OTHER_RECORDS,
        now,
      );
    }
    const seedSeconds = round((performance.now() - seedStart) / 1000);

    async function signIn(email: string): Promise<string> {
      const response = await app.inject({
        method: 'POST',
        url: '/v1/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email, password: PASSWORD }),
      });
      if (response.statusCode !== 200) throw new Error(`login failed: ${response.body}`);
      return (response.json() as { token: string }).token;
    }
    const adminToken = await signIn(admin.user.email);
    const member = people[3]!;
    const memberToken = await signIn(member.email);

    // the seeded records plus the accounts' creation and the two sign-ins
    const first = await app.inject({
      method: 'GET',
      url: '/v1/organisation/activity',
      headers: { authorization: `Bearer ${adminToken}` },
    });
    const total = (first.json() as { data: { totalRecords: number } }).data.totalRecords;
    const lastPage = Math.ceil(total / 20);
    const month = new Date(now - 40 * DAY_MS).toISOString().slice(0, 10);
    const monthEnd = new Date(now - 10 * DAY_MS).toISOString().slice(0, 10);
    const scenarios: Array<{ name: string; url: string; token: string }> = [
      { name: 'page 1', url: '/v1/organisation/activity?page=1&limit=20', token: adminToken },
      {
        name: 'middle page',
        url: `/v1/organisation/activity?page=${Math.floor(lastPage / 2)}&limit=20`,
        token: adminToken,
      },
      { name: 'last page', url: `/v1/organisation/activity?page=${lastPage}&limit=20`, token: adminToken },
      { name: 'action=login, page 1', url: '/v1/organisation/activity?action=login', token: adminToken },
      {
        name: 'action=login, last page',
        url: `/v1/organisation/activity?action=login&page=${Math.ceil((RECORDS * 0.3) / 20)}`,
        token: adminToken,
      },
      {
        name: 'one user (admin filter), page 1',
        url: `/v1/organisation/activity?userId=${member.id}`,
        token: adminToken,
      },
      {
        name: 'a month (dateFrom/dateTo), page 1',
        url: `/v1/organisation/activity?dateFrom=${month}&dateTo=${monthEnd}`,
        token: adminToken,
      },
      {
        name: 'a month and action=update, page 3',
        url: `/v1/organisation/activity?dateFrom=${month}&dateTo=${monthEnd}&action=update&page=3`,
        token: adminToken,
      },
      { name: 'member (own records), page 1', url: '/v1/organisation/activity', token: memberToken },
      { name: 'counters (summary)', url: '/v1/organisation/activity/summary', token: adminToken },
      {
        name: 'counters, a month',
        url: `/v1/organisation/activity/summary?dateFrom=${month}&dateTo=${monthEnd}`,
        token: adminToken,
      },
      { name: 'users for the filter', url: '/v1/organisation/activity/users', token: adminToken },
    ];

    const results: ActivityScenario[] = [];
    for (const scenario of scenarios) {
      const server: number[] = [];
      const roundTrip: number[] = [];
      let records = 0;
      for (let run = 0; run < RUNS + 10; run++) {
        const logged = times.length;
        const began = performance.now();
        const response = await app.inject({
          method: 'GET',
          url: scenario.url,
          headers: { authorization: `Bearer ${scenario.token}` },
        });
        const elapsed = performance.now() - began;
        if (response.statusCode !== 200)
          throw new Error(`${scenario.url}: ${response.statusCode} ${response.body}`);
        const data = (response.json() as { data: { totalRecords?: number; users?: unknown[] } }).data;
        records = data.totalRecords ?? data.users?.length ?? 0;
        // the access line is written when the response has finished, which may follow the inject's answer
        for (let wait = 0; times.length === logged && wait < 100; wait++) {
          await new Promise((resolve) => setImmediate(resolve));
        }
        const serverTime = times[logged];
        if (serverTime === undefined) throw new Error('no access log line');
        // the first ten are warm-up: JIT, SQLite's page cache, prepared statements
        if (run >= 10) {
          server.push(serverTime);
          roundTrip.push(elapsed);
        }
      }
      server.sort((a, b) => a - b);
      roundTrip.sort((a, b) => a - b);
      results.push({
        name: scenario.name,
        url: scenario.url,
        records,
        medianMs: round(percentile(server, 50)),
        p95Ms: round(percentile(server, 95)),
        maxMs: round(server.at(-1) ?? 0),
        injectMedianMs: round(percentile(roundTrip, 50)),
      });
    }

    const exportStart = performance.now();
    const exported = await app.inject({
      method: 'GET',
      url: '/v1/organisation/activity/export',
      headers: { authorization: `Bearer ${adminToken}` },
    });
    if (exported.statusCode !== 200) throw new Error(`export: ${exported.statusCode} ${exported.body}`);
    const exportSeconds = round((performance.now() - exportStart) / 1000);
    const exportRows = exported.body.split('\r\n').filter((line) => line !== '').length - 1;

    const base: ActivityFilter = { organisationId: admin.organisation.id, page: 1, limit: 20 };
    const plans: Record<string, string[]> = {
      'page 1': await queryPlan(app.db, activityPageIds(app.db, base)),
      // read from the oldest end, as the route does for the older half
      'last page': await queryPlan(app.db, activityPageIds(app.db, { ...base, page: lastPage }, total)),
      'action=login': await queryPlan(app.db, activityPageIds(app.db, { ...base, action: 'login' })),
      'one user': await queryPlan(app.db, activityPageIds(app.db, { ...base, userId: member.id })),
      'a month': await queryPlan(
        app.db,
        activityPageIds(app.db, {
          ...base,
          from: `${month}T00:00:00.000Z`,
          before: `${monthEnd}T00:00:00.000Z`,
        }),
      ),
      count: await queryPlan(
        app.db,
        scopedActivities(app.db, base).select((eb) => eb.fn.countAll().as('total')),
      ),
    };

    const lists = results.filter((result) => /^\/v1\/organisation\/activity(\?|$)/.test(result.url));
    return {
      name: `activity list, ${RECORDS} records in one organisation, SQLite`,
      records: RECORDS,
      otherRecords: OTHER_RECORDS * OTHER_ORGANISATIONS,
      runs: RUNS,
      target: TARGET_MS,
      met: lists.every((result) => result.p95Ms < TARGET_MS),
      seedSeconds,
      scenarios: results,
      export: { rows: exportRows, bytes: exported.rawPayload.length, seconds: exportSeconds },
      plans,
    };
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function describeActivityBench(result: ActivityBenchResult): string {
  const lines = [
    `activity: ${result.records} records (+${result.otherRecords} in other organisations), server time over ${result.runs} runs (target p95 < ${result.target} ms for the list):`,
    ...result.scenarios.map(
      (s) =>
        `  ${s.name.padEnd(36)} median ${String(s.medianMs).padStart(6)} ms  p95 ${String(s.p95Ms).padStart(6)} ms  (${s.records} records)`,
    ),
    `  CSV export: ${result.export.rows} rows, ${(result.export.bytes / 1_048_576).toFixed(1)} MiB in ${result.export.seconds} s`,
    `  ${result.met ? 'met' : 'NOT met'}`,
  ];
  return lines.join('\n');
}

if (import.meta.main) {
  const result = await activityBench();
  console.log(describeActivityBench(result));
  for (const [name, plan] of Object.entries(result.plans))
    console.log(`  plan, ${name}: ${plan.join(' / ')}`);
  if (!result.met) process.exitCode = 1;
}
