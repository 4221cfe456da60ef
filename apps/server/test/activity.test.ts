import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/auth/passwords.ts';
import { recordActivity } from '../src/db/activities.ts';
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

describeEachDatabase('organisation activity', (database) => {
  let app: FastifyInstance;
  let client: ReturnType<typeof accountClient>;
  let admin: Awaited<ReturnType<ReturnType<typeof accountClient>['login']>>;
  let member: Awaited<ReturnType<ReturnType<typeof accountClient>['login']>>;
  let outsider: Awaited<ReturnType<ReturnType<typeof accountClient>['login']>>;

  beforeAll(async () => {
    app = await buildTestApp({ ...database.env(), RATE_LIMIT_SCALE: '10000' });
    client = accountClient(app, () => database.env().DATA_DIR ?? '');
    admin = await client.signUp('boss@example.org', PASSWORD, { company: 'Acme Ltd' });
    // a member of the same organisation (invitations come later: set up through the repositories)
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
  });
  afterAll(async () => {
    await app.close();
  });

  async function list(
    token: string,
    query = '',
  ): Promise<{ activities: Activity[]; totalPages: number; totalRecords: number }> {
    const response = await client.get(`/v1/organisation/activity${query}`, token);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().success).toBe(true);
    return response.json().data;
  }

  it('requires the access token', async () => {
    const response = await client.get('/v1/organisation/activity');
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('UNAUTHORIZED');
  });

  it("shows an admin the whole organisation's log, newest first, twenty per page", async () => {
    const data = await list(admin.token);
    expect(data.activities).toHaveLength(20);
    // registration, verification, sign-in of the admin; sign-in and a failed one of the member; 30 seeded
    expect(data.totalRecords).toBe(35);
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
    expect(last.activities).toHaveLength(15);
    expect(last.activities.at(-1)).toMatchObject({
      description: 'seeded 1',
      details: '{"note":"first"}',
      username: 'worker@example.org',
    });
    expect((await list(admin.token, '?page=9')).activities).toEqual([]);
    const small = await list(admin.token, '?page=3&limit=7');
    expect(small).toMatchObject({ totalPages: 5, totalRecords: 35 });
    expect(small.activities).toHaveLength(7);
  });

  it('filters by action, user and dates, in both spellings', async () => {
    const deletes = await list(admin.token, '?action=delete');
    expect(deletes.totalRecords).toBe(10);
    expect(deletes.activities.every((activity) => activity.action === 'delete')).toBe(true);

    const bossOnly = await list(admin.token, `?userId=${admin.user.id}&limit=100`);
    expect(bossOnly.activities.every((activity) => activity.username === 'boss@example.org')).toBe(true);
    expect(bossOnly.totalRecords).toBe(15 + 3);
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
    expect((await list(admin.token, '?dateFrom=&dateTo=&userId=&action=')).totalRecords).toBe(35);
    expect(
      (await list(admin.token, '?action=update&dateFrom=2025-01-01&dateTo=2025-01-06')).totalRecords,
    ).toBe(4);
  });

  it('rejects bad paging and filters with a 400', async () => {
    for (const query of [
      '?limit=101',
      '?limit=0',
      '?page=0',
      '?page=x',
      '?action=hack',
      '?dateFrom=yesterday',
      "?userId=1' OR 1=1",
    ]) {
      const response = await client.get(`/v1/organisation/activity${query}`, admin.token);
      expect(response.statusCode, query).toBe(400);
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
    });
  });

  it('keeps organisations apart', async () => {
    const data = await list(outsider.token, '?limit=100');
    expect(data.totalRecords).toBe(3);
    expect(data.activities.every((activity) => activity.username === 'other@example.org')).toBe(true);
  });

  it('records sign-out and profile updates', async () => {
    const session = await client.login('other@example.org');
    await app.inject({
      method: 'PUT',
      url: '/v1/auth/profile',
      headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ firstName: 'Olga' }),
    });
    await client.post('/v1/auth/logout', undefined, { cookie: `rfckit_refresh=${session.refreshToken}` });
    const data = await list(session.token, '?limit=3');
    expect(data.activities.map((activity) => [activity.action, activity.description])).toEqual([
      ['logout', 'Signed out'],
      ['update', 'Profile updated: firstName'],
      ['login', 'Signed in'],
    ]);
  });
});
