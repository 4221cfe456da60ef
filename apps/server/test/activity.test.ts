import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/auth/passwords.ts';
import {
  type ActivityFilter,
  activityBatches,
  activityPageIds,
  recordActivity,
  scopedActivities,
} from '../src/db/activities.ts';
import { addMembership } from '../src/db/memberships.ts';
import { createUser } from '../src/db/users.ts';
import { accountClient, PASSWORD } from './helpers/accounts.ts';
import { buildTestApp } from './helpers/app.ts';
import { describeEachDatabase } from './helpers/databases.ts';

interface Activity {
  id: string;
  action: string;
  username: string | null;
  organisation_name: string;
  created_at: string;
  description: string;
  details?: string;
  ip_address: string | null;
}

interface ActivityPage {
  activities: Activity[];
  totalPages: number;
  totalRecords: number;
}

const RFC8080_DNSKEY = 'example.com. 3600 IN DNSKEY 257 3 15 l02Woi0iS8Aa25FQkUd9RMzZHJpBoRQwAQEX1SxZJA4=';
const CSV_HEADER = 'id,created_at,action,username,organisation_name,description,details,ip_address';

/** A plain RFC 4180 reader, independent of the code under test: records of fields. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') {
        quoted = false;
      } else {
        field += char;
      }
    } else if (char === '"') {
      quoted = true;
    } else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else {
      field += char;
    }
  }
  if (field !== '' || record.length > 0) throw new Error('the last record does not end in CRLF');
  return records;
}

/** The list's records as the export's cells. */
function asCells(activity: Activity): string[] {
  return [
    activity.id,
    activity.created_at,
    activity.action,
    activity.username ?? '',
    activity.organisation_name,
    activity.description,
    activity.details ?? '',
    activity.ip_address ?? '',
  ];
}

describeEachDatabase('organisation activity', (database) => {
  let app: FastifyInstance;
  let client: ReturnType<typeof accountClient>;
  let admin: Awaited<ReturnType<ReturnType<typeof accountClient>['login']>>;
  let member: Awaited<ReturnType<ReturnType<typeof accountClient>['login']>>;
  let outsider: Awaited<ReturnType<ReturnType<typeof accountClient>['login']>>;
  let spreadsheet: Awaited<ReturnType<ReturnType<typeof accountClient>['login']>>;
  const tiedTime = new Date(Date.UTC(2025, 5, 1, 9, 30));

  beforeAll(async () => {
    app = await buildTestApp({ ...database.env(), RATE_LIMIT_SCALE: '10000' });
    client = accountClient(app, () => database.env().DATA_DIR ?? '');
    admin = await client.signUp('boss@example.org', PASSWORD, { company: 'Acme Ltd' });
    // a member of the same organisation, made through the repositories so that only their sign-ins are logged
    const memberUser = await createUser(app.db, {
      email: 'worker@example.org',
      passwordHash: await hashPassword(PASSWORD),
      emailVerifiedAt: new Date().toISOString(),
    });
    await addMembership(app.db, {
      userId: memberUser.id,
      organisationId: admin.user.organisation.id,
      role: 'member',
    });
    member = await client.login('worker@example.org');
    outsider = await client.signUp('other@example.org');
    await client.post('/v1/auth/login', { email: 'worker@example.org', password: 'wrong password!' });

    // thirty dated records spread over January 2025, alternating between the two users
    for (let day = 1; day <= 30; day += 1) {
      await recordActivity(
        app.db,
        {
          organisationId: admin.user.organisation.id,
          userId: day % 2 === 0 ? admin.user.id : memberUser.id,
          username: day % 2 === 0 ? 'boss@example.org' : 'worker@example.org',
          action: day % 3 === 0 ? 'delete' : 'update',
          description: `seeded ${day}`,
          details: day === 1 ? { note: 'first' } : null,
          ipAddress: '192.0.2.1',
        },
        new Date(Date.UTC(2025, 0, day, 12)),
      );
    }
    // the last millisecond of 1 February and the first of 2 February
    for (const at of ['2025-02-01T23:59:59.999Z', '2025-02-02T00:00:00.000Z']) {
      await recordActivity(
        app.db,
        {
          organisationId: admin.user.organisation.id,
          userId: admin.user.id,
          username: 'boss@example.org',
          action: 'update',
          description: `edge ${at}`,
          ipAddress: '192.0.2.2',
        },
        new Date(at),
      );
    }

    // an organisation whose log holds what spreadsheets and CSV readers trip over
    spreadsheet = await client.signUp('sheet@example.org', PASSWORD, { company: '=cmd|Sheet, "Ltd"' });
    const tricky = [
      'Renamed to "Acme, Inc."\nsecond line',
      '=HYPERLINK("http://example.test","click")',
      '+44 20 7946 0000',
      '-1',
      '@SUM(A1:A9)',
      '\tindented',
      '\rreturn',
    ];
    for (const description of tricky) {
      await recordActivity(
        app.db,
        {
          organisationId: spreadsheet.user.organisation.id,
          userId: spreadsheet.user.id,
          username: spreadsheet.user.email,
          action: 'update',
          description,
          details: { changed: ['name', 'domain'] },
          ipAddress: '2001:db8::1',
        },
        // all at one instant: the order among them is the id's
        tiedTime,
      );
    }
  });
  afterAll(async () => {
    await app.close();
  });

  async function list(token: string, query = ''): Promise<ActivityPage> {
    const response = await client.get(`/v1/organisation/activity${query}`, token);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().success).toBe(true);
    return response.json().data;
  }

  async function summary(token: string, query = '') {
    const response = await client.get(`/v1/organisation/activity/summary${query}`, token);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as {
      totalRecords: number;
      last24Hours: number;
      logins: number;
      users: number;
    };
  }

  async function exported(
    token: string,
    query = '',
  ): Promise<{ response: LightMyRequestResponse; rows: string[][] }> {
    const response = await client.get(`/v1/organisation/activity/export${query}`, token);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body.startsWith('\uFEFF')).toBe(true);
    const records = parseCsv(response.body.slice(1));
    expect(records[0]?.join(',')).toBe(CSV_HEADER);
    return { response, rows: records.slice(1) };
  }

  describe('refuses callers without a session', () => {
    const paths = ['', '/summary', '/users', '/export'].map((suffix) => `/v1/organisation/activity${suffix}`);

    it('without a token', async () => {
      for (const path of paths) {
        const response = await client.get(path);
        expect(response.statusCode, path).toBe(401);
        expect(response.json().code).toBe('UNAUTHORIZED');
      }
    });

    it("with the organisation's API key, which works on tool routes only", async () => {
      const created = await app.inject({
        method: 'POST',
        url: '/v1/organisation/api-keys',
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'activity test' }),
      });
      expect(created.statusCode, created.body).toBe(201);
      const key = (created.json() as { data: { key: string } }).data.key;
      const tool = await app.inject({
        method: 'POST',
        url: '/v1/dnskey/validate',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ record: RFC8080_DNSKEY }),
      });
      expect(tool.statusCode, tool.body).toBe(200);
      for (const path of [...paths, ...paths.map((path) => path.replace('/v1/', '/api/v1/'))]) {
        const response = await client.get(path, key);
        expect(response.statusCode, path).toBe(401);
        expect(response.json().code).toBe('API_KEY_NOT_ALLOWED');
        expect(response.body).not.toContain('boss@example.org');
      }
    });
  });

  it("shows an admin the whole organisation's log, newest first, twenty per page", async () => {
    const data = await list(admin.token);
    expect(data.activities).toHaveLength(20);
    // registration, verification, sign-in and the API key of the admin; sign-in and a failed one
    // of the member; 30 seeded and 2 at the edges of a day
    expect(data.totalRecords).toBe(38);
    expect(data.totalPages).toBe(2);
    const times = data.activities.map((activity) => activity.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const newest = data.activities[0];
    expect(newest).toMatchObject({ organisation_name: 'Acme Ltd', ip_address: '127.0.0.1' });
    expect(data.activities.map((activity) => activity.description)).toEqual(
      expect.arrayContaining([
        'Account registered',
        'Email address verified',
        'Signed in',
        'Failed sign-in: wrong password',
      ]),
    );
    expect(data.activities.some((activity) => activity.username === 'other@example.org')).toBe(false);

    const last = await list(admin.token, '?page=2');
    expect(last.activities).toHaveLength(18);
    expect(last.activities.at(-1)).toMatchObject({
      description: 'seeded 1',
      details: '{"note":"first"}',
      username: 'worker@example.org',
    });
    expect((await list(admin.token, '?page=9')).activities).toEqual([]);
    const small = await list(admin.token, '?page=3&limit=7');
    expect(small).toMatchObject({ totalPages: 6, totalRecords: 38 });
    expect(small.activities).toHaveLength(7);
    // pages join up: no record twice, none left out
    const pages = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((page) => list(admin.token, `?page=${page}&limit=7`)),
    );
    const ids = pages.flatMap((page) => page.activities.map((activity) => activity.id));
    expect(new Set(ids).size).toBe(38);
    expect(ids).toEqual((await list(admin.token, '?limit=100')).activities.map((activity) => activity.id));
  });

  it('filters by action, user and dates, in both spellings', async () => {
    const deletes = await list(admin.token, '?action=delete');
    expect(deletes.totalRecords).toBe(10);
    expect(deletes.activities.every((activity) => activity.action === 'delete')).toBe(true);

    const bossOnly = await list(admin.token, `?userId=${admin.user.id}&limit=100`);
    expect(bossOnly.activities.every((activity) => activity.username === 'boss@example.org')).toBe(true);
    expect(bossOnly.totalRecords).toBe(15 + 4 + 2);
    expect((await list(admin.token, `?user_id=${admin.user.id}`)).totalRecords).toBe(bossOnly.totalRecords);

    const week = await list(admin.token, '?dateFrom=2025-01-10&dateTo=2025-01-16');
    expect(week.totalRecords).toBe(7);
    expect(week.activities.map((activity) => activity.description)).toEqual(
      [16, 15, 14, 13, 12, 11, 10].map((day) => `seeded ${day}`),
    );
    expect((await list(admin.token, '?start_date=2025-01-10&end_date=2025-01-16')).totalRecords).toBe(7);
    expect(
      (await list(admin.token, '?dateFrom=2025-01-10T12:00:00Z&dateTo=2025-01-11T12:00:00.000Z'))
        .totalRecords,
    ).toBe(2);
    // empty filters, as a form sends them, are ignored
    expect((await list(admin.token, '?dateFrom=&dateTo=&userId=&action=')).totalRecords).toBe(38);
    expect(
      (await list(admin.token, '?action=update&dateFrom=2025-01-01&dateTo=2025-01-06')).totalRecords,
    ).toBe(4);
    // a camelCase filter wins over its snake_case alias
    expect(
      (await list(admin.token, '?dateFrom=2025-01-30&start_date=2025-01-01&dateTo=2025-01-30')).totalRecords,
    ).toBe(1);
    // a range that ends before it starts matches nothing
    expect((await list(admin.token, '?dateFrom=2025-01-20&dateTo=2025-01-10')).totalRecords).toBe(0);
  });

  it('takes the whole day of a date-only dateTo, and nothing of the next', async () => {
    const first = await list(admin.token, '?dateFrom=2025-02-01&dateTo=2025-02-01');
    expect(first.activities.map((activity) => activity.created_at)).toEqual(['2025-02-01T23:59:59.999Z']);
    const second = await list(admin.token, '?dateFrom=2025-02-02&end_date=2025-02-02');
    expect(second.activities.map((activity) => activity.created_at)).toEqual(['2025-02-02T00:00:00.000Z']);
    // an instant is inclusive to the millisecond
    const instant = await list(admin.token, '?dateFrom=2025-02-01&dateTo=2025-02-01T23:59:59.998Z');
    expect(instant.totalRecords).toBe(0);
  });

  it('rejects bad paging and filters with a 400', async () => {
    for (const [path, query] of [
      ['', '?limit=101'],
      ['', '?limit=0'],
      ['', '?page=0'],
      ['', '?page=x'],
      ['', '?action=hack'],
      ['', '?dateFrom=yesterday'],
      ['', '?dateTo=2025-02-30'],
      ['', '?end_date=2025-13-01'],
      ['', "?userId=1' OR 1=1"],
      ['/summary', '?action=hack'],
      ['/export', '?dateFrom=2025-01-01T00:00:00'],
      ['/export', '?user_id=a%20b'],
    ] as const) {
      const response = await client.get(`/v1/organisation/activity${path}${query}`, admin.token);
      expect(response.statusCode, path + query).toBe(400);
      expect(response.json().code).toBe('VALIDATION_ERROR');
    }
  });

  describe('a member', () => {
    it('sees only their own records', async () => {
      const own = await list(member.token, '?limit=100');
      expect(own.totalRecords).toBe(15 + 2);
      expect(own.activities.every((activity) => activity.username === 'worker@example.org')).toBe(true);
    });

    it("gets nothing when asking for someone else's", async () => {
      const other = await list(member.token, `?userId=${admin.user.id}`);
      expect(other).toEqual({ activities: [], totalPages: 0, totalRecords: 0 });
      expect(await summary(member.token, `?user_id=${admin.user.id}`)).toEqual({
        totalRecords: 0,
        last24Hours: 0,
        logins: 0,
        users: 0,
      });
      const { rows } = await exported(member.token, `?userId=${admin.user.id}`);
      expect(rows).toEqual([]);
    });

    it('counts, exports and lists as users only themselves', async () => {
      expect(await summary(member.token)).toEqual({ totalRecords: 17, last24Hours: 2, logins: 2, users: 1 });
      const { rows } = await exported(member.token);
      expect(rows).toHaveLength(17);
      expect(rows.every((row) => row[3] === 'worker@example.org')).toBe(true);
      const users = await client.get('/v1/organisation/activity/users', member.token);
      expect(users.json().data.users).toEqual([
        { id: member.user.id, email: 'worker@example.org', name: null },
      ]);
    });
  });

  it('keeps organisations apart', async () => {
    const data = await list(outsider.token, '?limit=100');
    expect(data.totalRecords).toBe(3);
    expect(data.activities.every((activity) => activity.username === 'other@example.org')).toBe(true);
    // an admin naming a user of another organisation gets none of their records
    expect((await list(outsider.token, `?userId=${admin.user.id}`)).totalRecords).toBe(0);
    expect((await summary(outsider.token, `?userId=${admin.user.id}`)).totalRecords).toBe(0);
    expect((await exported(outsider.token, `?userId=${admin.user.id}`)).rows).toEqual([]);
    const users = await client.get('/v1/organisation/activity/users', outsider.token);
    expect(users.json().data.users.map((user: { email: string }) => user.email)).toEqual([
      'other@example.org',
    ]);
  });

  it("gives the page's counters under the same filters", async () => {
    // recent: the admin's registration, verification, sign-in and API key; the member's two sign-ins
    expect(await summary(admin.token)).toEqual({ totalRecords: 38, last24Hours: 6, logins: 3, users: 2 });
    expect(await summary(admin.token, '?action=delete')).toEqual({
      totalRecords: 10,
      last24Hours: 0,
      logins: 0,
      users: 2,
    });
    expect(await summary(admin.token, '?action=login')).toEqual({
      totalRecords: 3,
      last24Hours: 3,
      logins: 3,
      users: 2,
    });
    expect(
      await summary(admin.token, `?userId=${admin.user.id}&dateFrom=2025-01-01&dateTo=2025-01-31`),
    ).toEqual({
      totalRecords: 15,
      last24Hours: 0,
      logins: 0,
      users: 1,
    });
    expect(await summary(admin.token, '?start_date=2025-01-02&end_date=2025-01-02')).toEqual({
      totalRecords: 1,
      last24Hours: 0,
      logins: 0,
      users: 1,
    });
  });

  it('lists the users of the log for the filter', async () => {
    const response = await client.get('/api/v1/organisation/activity/users', admin.token);
    expect(response.statusCode).toBe(200);
    expect(response.json().data.users).toEqual([
      { id: admin.user.id, email: 'boss@example.org', name: null },
      { id: member.user.id, email: 'worker@example.org', name: null },
    ]);
  });

  describe('CSV export', () => {
    it('sends the filtered list as an attachment named after the organisation and the day', async () => {
      const query = '?action=update&dateFrom=2025-01-01&dateTo=2025-02-01';
      const { response, rows } = await exported(admin.token, query);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      const day = new Date().toISOString().slice(0, 10);
      expect(response.headers['content-disposition']).toBe(
        `attachment; filename="activity-acme-ltd-${day}.csv"`,
      );
      expect(response.headers['cache-control']).toBe('no-store');
      const expected = (await list(admin.token, `${query}&limit=100`)).activities;
      expect(expected).toHaveLength(20 + 1);
      expect(rows).toEqual(expected.map(asCells));
      expect(response.headers['x-total-records']).toBe('21');
      expect(response.headers['x-export-rows']).toBe('21');
      expect(response.headers['x-export-truncated']).toBe('false');
    });

    it('exports everything the admin may see without filters, through the /api/v1 alias too', async () => {
      const { rows } = await exported(admin.token);
      const all = (await list(admin.token, '?limit=100')).activities;
      expect(rows).toEqual(all.map(asCells));
      const alias = await client.get('/api/v1/organisation/activity/export', admin.token);
      expect(alias.statusCode).toBe(200);
      expect(alias.body.split('\r\n')).toHaveLength(all.length + 2);
    });

    it('quotes what needs quoting and defuses cells a spreadsheet would run as formulas', async () => {
      const { response, rows } = await exported(spreadsheet.token, '?dateFrom=2025-06-01&dateTo=2025-06-01');
      expect(response.headers['content-disposition']).toMatch(
        /^attachment; filename="activity-cmd-sheet-ltd-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      expect(rows.map((row) => row[5]).sort()).toEqual(
        [
          "'\rreturn",
          "'\tindented",
          "'+44 20 7946 0000",
          "'-1",
          '\'=HYPERLINK("http://example.test","click")',
          "'@SUM(A1:A9)",
          'Renamed to "Acme, Inc."\nsecond line',
        ].sort(),
      );
      expect(rows.every((row) => row[4] === '\'=cmd|Sheet, "Ltd"')).toBe(true);
      expect(rows.every((row) => row[6] === '{"changed":["name","domain"]}')).toBe(true);
      expect(rows.every((row) => row[7] === '2001:db8::1')).toBe(true);
      // the raw text, as a spreadsheet receives it
      const text = response.body;
      expect(text).toContain(',"\'=HYPERLINK(""http://example.test"",""click"")",');
      expect(text).toContain(',"Renamed to ""Acme, Inc.""\nsecond line",');
      expect(text).toContain(",'@SUM(A1:A9),");
      expect(text).toContain(',"\'\rreturn",');
      expect(text).toContain(',"{""changed"":[""name"",""domain""]}",');
      // in the list's order: records of one instant by id
      const listed = (await list(spreadsheet.token, '?dateFrom=2025-06-01&dateTo=2025-06-01')).activities;
      expect(rows.map((row) => row[0])).toEqual(listed.map((activity) => activity.id));
    });

    it('reads in keyset batches that join up across records of the same instant, up to the row cap', async () => {
      const scope = { organisationId: spreadsheet.user.organisation.id };
      const listed = (await list(spreadsheet.token, '?limit=100')).activities.map((activity) => activity.id);
      expect(listed).toHaveLength(10);
      const batches: string[][] = [];
      for await (const batch of activityBatches(app.db, scope, { batchSize: 3, maxRows: 100 })) {
        batches.push(batch.map((row) => row.id));
      }
      expect(batches.map((batch) => batch.length)).toEqual([3, 3, 3, 1]);
      expect(batches.flat()).toEqual(listed);
      const capped: string[] = [];
      for await (const batch of activityBatches(app.db, scope, { batchSize: 3, maxRows: 7 })) {
        capped.push(...batch.map((row) => row.id));
      }
      expect(capped).toEqual(listed.slice(0, 7));
    });
  });

  it('reads pages and counts from the activity indexes, in index order', async () => {
    const base = { organisationId: admin.user.organisation.id, page: 3, limit: 20 };
    const cases: Array<{ filter: ActivityFilter; index: string; total?: number }> = [
      { filter: base, index: 'activity_organisation_created_idx' },
      { filter: { ...base, userId: admin.user.id }, index: 'activity_organisation_user_created_idx' },
      { filter: { ...base, action: 'login' }, index: 'activity_organisation_action_created_idx' },
      {
        filter: { ...base, from: '2025-01-01T00:00:00.000Z', before: '2025-02-01T00:00:00.000Z' },
        index: 'activity_organisation_created_idx',
      },
      // a page in the older half, read from the oldest end
      { filter: { ...base, page: 80 }, total: 1600, index: 'activity_organisation_created_idx' },
      {
        filter: { ...base, action: 'update', page: 4 },
        total: 70,
        index: 'activity_organisation_action_created_idx',
      },
    ];
    for (const { filter, index, total } of cases) {
      const page = activityPageIds(app.db, filter, total).compile();
      const count = scopedActivities(app.db, filter)
        .select((eb) => eb.fn.countAll().as('total'))
        .compile();
      if (database.dialect === 'sqlite') {
        const plan = async (query: CompiledQuery) =>
          (
            await app.db.executeQuery<{ detail: string }>(
              CompiledQuery.raw(`EXPLAIN QUERY PLAN ${query.sql}`, [...query.parameters]),
            )
          ).rows
            .map((row) => row.detail)
            .join('\n');
        const pagePlan = await plan(page);
        // the page's ids come from the index alone and already in order: no sorting step
        expect(pagePlan).toContain(`USING COVERING INDEX ${index}`);
        expect(pagePlan).not.toContain('TEMP B-TREE');
        expect(await plan(count)).toMatch(/USING COVERING INDEX activity_organisation_/);
      } else {
        // a test database is tiny, so the planner would rightly scan the table: with sequential
        // and bitmap scans priced out, the plan shows which index serves the query and that nothing is sorted
        const plans = await app.db.connection().execute(async (connection) => {
          // as autovacuum would have done by now: statistics, and a visibility map for index-only scans
          await connection.executeQuery(CompiledQuery.raw('VACUUM ANALYZE activity'));
          await connection.executeQuery(CompiledQuery.raw('SET enable_seqscan = off'));
          await connection.executeQuery(CompiledQuery.raw('SET enable_bitmapscan = off'));
          try {
            const explain = async (query: CompiledQuery) =>
              (
                await connection.executeQuery<{ 'QUERY PLAN': string }>(
                  CompiledQuery.raw(`EXPLAIN ${query.sql}`, [...query.parameters]),
                )
              ).rows
                .map((row) => row['QUERY PLAN'])
                .join('\n');
            return { page: await explain(page), count: await explain(count) };
          } finally {
            await connection.executeQuery(CompiledQuery.raw('RESET enable_seqscan'));
            await connection.executeQuery(CompiledQuery.raw('RESET enable_bitmapscan'));
          }
        });
        expect(plans.page).toContain(
          total === undefined ? `Index Only Scan Backward using ${index}` : `Index Only Scan using ${index}`,
        );
        expect(plans.page).not.toMatch(/\bSort\b/);
        // any index that leads with the organisation and holds the filtered columns will do
        expect(plans.count).toMatch(/Index Only Scan using activity_organisation_\w+_idx/);
      }
    }
  });

  it('records sign-out and profile updates', async () => {
    // a sign-out ends its access token at once: another sign-in reads the log
    const reader = await client.login('other@example.org');
    const session = await client.login('other@example.org');
    await app.inject({
      method: 'PUT',
      url: '/v1/auth/profile',
      headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ firstName: 'Olga' }),
    });
    await client.post('/v1/auth/logout', undefined, { cookie: `rfckit_refresh=${session.refreshToken}` });
    const data = await list(reader.token, '?limit=3');
    expect(data.activities.map((activity) => [activity.action, activity.description])).toEqual([
      ['logout', 'Signed out'],
      ['update', 'Profile updated: firstName'],
      ['login', 'Signed in'],
    ]);
  });

  // last: the role changes are logged in the admin's organisation
  it("goes by the caller's role now, not the one in their access token", async () => {
    async function setRole(role: 'admin' | 'member') {
      const response = await app.inject({
        method: 'PATCH',
        url: `/v1/organisation/members/${member.user.id}`,
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ role }),
      });
      expect(response.statusCode, response.body).toBe(200);
    }
    const before = (await list(admin.token)).totalRecords;
    await setRole('admin');
    // the member's token still says member; the membership says admin
    expect((await list(member.token)).totalRecords).toBe(before + 1);
    const users = await client.get('/v1/organisation/activity/users', member.token);
    expect(users.json().data.users).toHaveLength(2);
    await setRole('member');
    expect((await list(member.token)).totalRecords).toBe(17);
  });
});
