import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../src/auth/api-keys.ts';
import { createAccount } from '../src/auth/accounts.ts';
import { hashPassword } from '../src/auth/passwords.ts';
import { createApiKey } from '../src/db/api-keys.ts';
import { addMembership } from '../src/db/memberships.ts';
import { createUser } from '../src/db/users.ts';
import { accountClient, PASSWORD } from './helpers/accounts.ts';
import { buildTestApp } from './helpers/app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { closedPort } from './helpers/lab-fixtures.ts';
import {
  decodeQuotedPrintable,
  type ReceivedMail,
  type SmtpCapture,
  smtpEnv,
  startSmtpCapture,
  tokenFromMail,
} from './helpers/mail.ts';

// the PUBLIC_URL smtpEnv gives the app, without its trailing slash
const PUBLIC_URL = 'https://rfckit.example.org';
const NEW_PASSWORD = 'another good passphrase';

type Session = Awaited<ReturnType<ReturnType<typeof accountClient>['login']>>;

interface TeamRow {
  id: string;
  kind: 'member' | 'invitation';
  name: string | null;
  email: string;
  role: 'Admin' | 'Member';
  status: 'Active' | 'Pending';
  expired: boolean;
  you: boolean;
}

describeEachDatabase('organisation settings, team and invitations', (database) => {
  let app: FastifyInstance;
  let smtp: SmtpCapture;
  let client: ReturnType<typeof accountClient>;
  let admin: Session;
  let member: Session;
  let outsider: Session;
  let apiKey: string;
  let accounts = 0;

  /** A verified account with an organisation of its own (or joining `organisationId`), signed in. */
  async function account(
    label: string,
    options: { organisationId?: string; role?: 'admin' | 'member'; company?: string } = {},
  ): Promise<Session> {
    accounts += 1;
    const email = `${label}-${accounts}@example.org`;
    if (options.organisationId === undefined) {
      await createAccount(app.db, {
        email,
        password: PASSWORD,
        verified: true,
        ...(options.company === undefined ? {} : { company: options.company }),
      });
    } else {
      // straight into the given organisation, as a finished invitation leaves it
      const user = await createUser(app.db, {
        email,
        passwordHash: await hashPassword(PASSWORD),
        emailVerifiedAt: new Date().toISOString(),
      });
      await addMembership(app.db, {
        userId: user.id,
        organisationId: options.organisationId,
        role: options.role ?? 'member',
      });
    }
    return client.login(email);
  }

  function call(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    token?: string,
    body?: unknown,
  ): Promise<LightMyRequestResponse> {
    return app.inject({
      method,
      url,
      headers: {
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  }

  async function team(token: string): Promise<TeamRow[]> {
    const response = await call('GET', '/v1/organisation/members', token);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.members;
  }

  async function activities(organisationId: string): Promise<string[]> {
    const rows = await app.db
      .selectFrom('activity')
      .select('description')
      .where('organisation_id', '=', organisationId)
      .orderBy('id')
      .execute();
    return rows.map((row) => row.description);
  }

  /** The first invitation mail to `to` received after `after` messages. */
  function invitationMail(to: string, after: number): Promise<ReceivedMail> {
    return smtp.waitFor(
      (mail) =>
        smtp.messages.indexOf(mail) >= after &&
        mail.to.includes(to) &&
        /^Subject: Invitation to join/m.test(mail.raw),
    );
  }

  /** Sends an invitation as `by` and answers its id and the mailed token. */
  async function invite(
    by: Session,
    email: string,
    extra: Record<string, unknown> = {},
  ): Promise<{ id: string; token: string; mail: ReceivedMail }> {
    const before = smtp.messages.length;
    const response = await call('POST', '/v1/organisation/invitations', by.token, {
      firstName: 'Grace',
      lastName: 'Hopper',
      email,
      ...extra,
    });
    expect(response.statusCode, response.body).toBe(201);
    const mail = await invitationMail(email.toLowerCase(), before);
    return { id: response.json().data.invitation.id, token: tokenFromMail(mail.raw), mail };
  }

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    app = await buildTestApp({ ...database.env(), RATE_LIMIT_SCALE: '10000', ...smtpEnv(smtp) });
    client = accountClient(app, () => database.env().DATA_DIR ?? '');
    admin = await account('boss', { company: 'Acme Ltd' });
    member = await account('worker', { organisationId: admin.user.organisation.id });
    outsider = await account('other', { company: 'Other Org' });
    const generated = generateApiKey();
    await createApiKey(app.db, {
      organisationId: admin.user.organisation.id,
      name: 'automation',
      prefix: generated.prefix,
      keyHash: generated.hash,
      createdBy: admin.user.id,
    });
    apiKey = generated.key;
  });
  afterAll(async () => {
    await app.close();
    await smtp.close();
  });

  describe('organisation information', () => {
    it('lets any member read it, with their current role', async () => {
      for (const [session, role] of [
        [admin, 'admin'],
        [member, 'member'],
      ] as const) {
        const response = await call('GET', '/v1/organisation', session.token);
        expect(response.statusCode, response.body).toBe(200);
        expect(response.json().data).toMatchObject({
          organisation: { id: admin.user.organisation.id, name: 'Acme Ltd', domain: null },
          role,
        });
      }
      const other = await call('GET', '/api/v1/organisation', outsider.token);
      expect(other.json().data.organisation).toMatchObject({
        id: outsider.user.organisation.id,
        name: 'Other Org',
      });
    });

    it('refuses the anonymous, API keys and members where an admin is needed', async () => {
      expect((await call('GET', '/v1/organisation')).statusCode).toBe(401);
      const keyed = await call('GET', '/v1/organisation', apiKey);
      expect(keyed.statusCode).toBe(401);
      expect(keyed.json().data).toBeUndefined();
      const byMember = await call('PUT', '/v1/organisation', member.token, { name: 'Hijacked' });
      expect(byMember.statusCode).toBe(403);
      expect(byMember.json()).toMatchObject({ success: false, code: 'ADMIN_REQUIRED' });
      const unchanged = await call('GET', '/v1/organisation', admin.token);
      expect(unchanged.json().data.organisation.name).toBe('Acme Ltd');
    });

    it('validates the body with the shared messages', async () => {
      const cases: Array<[unknown, string]> = [
        [{}, 'Organisation name is required'],
        [{ name: '  ' }, 'Organisation name is required'],
        [{ name: 'Acme', domain: 'not a domain' }, 'Domain must be a valid domain name, e.g. example.com'],
        [{ name: 'Acme', domain: '192.0.2.1' }, 'Domain must be a valid domain name, e.g. example.com'],
        [{ name: 'Acme', adminEmail: 'it-at-acme' }, 'Admin email must be a valid email address'],
        [{ name: 'x'.repeat(201) }, 'Organisation name must be at most 200 characters'],
        [{ name: 'Acme', phone: '1'.repeat(51) }, 'Phone must be at most 50 characters'],
        [{ name: 'Acme', description: 'x'.repeat(2001) }, 'Description must be at most 2000 characters'],
      ];
      for (const [body, message] of cases) {
        const response = await call('PUT', '/v1/organisation', admin.token, body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(response.json().error).toContain(message);
      }
      const unknown = await call('PUT', '/v1/organisation', admin.token, { name: 'Acme', plan: 'free' });
      expect(unknown.statusCode).toBe(400);
    });

    it('saves an admin’s changes, normalised, and records what changed', async () => {
      const response = await call('PUT', '/v1/organisation', admin.token, {
        name: ' Acme Limited ',
        domain: 'Acme.Example.',
        address: '1 High Street\nSpringfield',
        phone: '+44 20 7946 0000',
        adminEmail: 'IT@Acme.Example',
        description: '',
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data).toMatchObject({
        message: 'organisation updated successfully!',
        organisation: {
          name: 'Acme Limited',
          domain: 'acme.example',
          address: '1 High Street\nSpringfield',
          phone: '+44 20 7946 0000',
          adminEmail: 'it@acme.example',
          description: null,
        },
      });
      const read = await call('GET', '/v1/organisation', member.token);
      expect(read.json().data.organisation).toMatchObject({ name: 'Acme Limited', domain: 'acme.example' });

      const log = await app.db
        .selectFrom('activity')
        .selectAll()
        .where('organisation_id', '=', admin.user.organisation.id)
        .where('action', '=', 'update')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      // the admin email was set at registration; everything else is new
      expect(log).toMatchObject({
        user_id: admin.user.id,
        username: admin.user.email,
        description: 'Organisation information updated: name, domain, address, phone and admin email',
        ip_address: '127.0.0.1',
      });
      expect(JSON.parse(log.details ?? '{}')).toMatchObject({
        name: { from: 'Acme Ltd', to: 'Acme Limited' },
      });

      // a save that changes nothing is fine and leaves no record
      const count = (await activities(admin.user.organisation.id)).length;
      const again = await call('PUT', '/v1/organisation', admin.token, { name: 'Acme Limited' });
      expect(again.statusCode).toBe(200);
      expect((await activities(admin.user.organisation.id)).length).toBe(count);
    });
  });

  describe('invitations', () => {
    it('mails a single-use link from PUBLIC_URL and lists the invitation as Pending', async () => {
      const before = smtp.messages.length;
      const response = await call('POST', '/v1/organisation/invitations', admin.token, {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: ' Ada@Example.org ',
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().data).toMatchObject({
        message: 'Invitation sent successfully!',
        invitation: {
          email: 'ada@example.org',
          role: 'member',
          status: 'pending',
          invitedBy: admin.user.email,
        },
      });
      const mail = await invitationMail('ada@example.org', before);
      expect(mail.from).toBe('robot@rfckit.example.org');
      expect(mail.raw).toMatch(/^Subject: Invitation to join Acme Limited on rfckit\r?$/m);
      expect(mail.raw).toMatch(/^Content-Type: multipart\/alternative/m);
      const token = tokenFromMail(mail.raw);
      const decoded = decodeQuotedPrintable(mail.raw);
      expect(decoded).toContain(`${PUBLIC_URL}/invitation?token=${token}`);
      expect(decoded).toContain(`<a href="${PUBLIC_URL}/invitation?token=${token}"`);
      expect(decoded).toContain('valid for 7 days');
      // only the hash is stored
      const stored = await app.db
        .selectFrom('invitation')
        .selectAll()
        .where('email', '=', 'ada@example.org')
        .execute();
      expect(stored).toHaveLength(1);
      expect(stored[0]?.token_hash).not.toContain(token);
      const days = (Date.parse(stored[0]!.expires_at) - Date.parse(stored[0]!.created_at)) / 86_400_000;
      expect(days).toBe(7);

      const rows = await team(member.token);
      expect(rows.find((row) => row.email === 'ada@example.org')).toMatchObject({
        kind: 'invitation',
        name: 'Ada Lovelace',
        role: 'Member',
        status: 'Pending',
        expired: false,
      });
      const listed = await call('GET', '/v1/organisation/invitations', admin.token);
      expect(listed.json().data.invitations.map((row: { email: string }) => row.email)).toContain(
        'ada@example.org',
      );
      expect((await activities(admin.user.organisation.id)).at(-1)).toBe(
        'Invited ada@example.org to join as Member',
      );

      const preview = await call('POST', '/v1/organisation/invitations/preview', undefined, { token });
      expect(preview.statusCode, preview.body).toBe(200);
      expect(preview.json().data).toMatchObject({
        email: 'ada@example.org',
        firstName: 'Ada',
        role: 'member',
        organisation: { name: 'Acme Limited' },
        invitedBy: { email: admin.user.email },
        accountExists: false,
      });
    });

    it('checks the form and refuses current members and duplicates', async () => {
      for (const body of [
        {},
        { firstName: 'Ada', lastName: 'Lovelace' },
        { firstName: '', lastName: 'Lovelace', email: 'x@example.org' },
      ]) {
        const response = await call('POST', '/v1/organisation/invitations', admin.token, body);
        expect(response.statusCode).toBe(400);
        expect(response.json().error).toContain('First name, last name and email are required');
      }
      const badRole = await call('POST', '/v1/organisation/invitations', admin.token, {
        firstName: 'A',
        lastName: 'B',
        email: 'ab@example.org',
        role: 'owner',
      });
      expect(badRole.statusCode).toBe(400);
      const existing = await call('POST', '/v1/organisation/invitations', admin.token, {
        firstName: 'Worker',
        lastName: 'Bee',
        email: member.user.email.toUpperCase(),
      });
      expect(existing.statusCode).toBe(409);
      expect(existing.json()).toMatchObject({ code: 'ALREADY_MEMBER' });
      const duplicate = await call('POST', '/v1/organisation/invitations', admin.token, {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.org',
      });
      expect(duplicate.statusCode).toBe(409);
      expect(duplicate.json()).toMatchObject({ code: 'INVITATION_PENDING' });
    });

    it('lets a new person set a password, join as verified and sign in; the link then stops working', async () => {
      const { token } = await invite(admin, 'newcomer@example.org', { role: 'admin' });
      const noPassword = await call('POST', '/v1/organisation/invitations/accept', undefined, { token });
      expect(noPassword.statusCode).toBe(400);
      expect(noPassword.json().code).toBe('PASSWORD_REQUIRED');
      const mismatch = await call('POST', '/v1/organisation/invitations/accept', undefined, {
        token,
        password: NEW_PASSWORD,
        confirmPassword: 'something else',
      });
      expect(mismatch.statusCode).toBe(400);
      expect(mismatch.json().error).toContain('Passwords do not match');

      // two tabs racing with the same link: exactly one account, one acceptance
      const both = await Promise.all(
        [1, 2].map(() =>
          call('POST', '/v1/organisation/invitations/accept', undefined, {
            token,
            password: NEW_PASSWORD,
            confirmPassword: NEW_PASSWORD,
          }),
        ),
      );
      expect(both.map((response) => response.statusCode).sort()).toEqual([201, 410]);
      const accepted = both.find((response) => response.statusCode === 201)!;
      expect(accepted.json().data).toMatchObject({
        email: 'newcomer@example.org',
        organisation: { name: 'Acme Limited' },
      });

      const session = await client.login('newcomer@example.org', NEW_PASSWORD);
      expect(session.user).toMatchObject({
        organisation: { id: admin.user.organisation.id },
        role: 'admin',
        firstName: 'Grace',
        lastName: 'Hopper',
      });
      expect((await team(admin.token)).find((row) => row.email === 'newcomer@example.org')).toMatchObject({
        kind: 'member',
        role: 'Admin',
        status: 'Active',
      });
      const again = await call('POST', '/v1/organisation/invitations/accept', undefined, {
        token,
        password: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
      expect(again.statusCode).toBe(410);
      expect(again.json().code).toBe('INVITATION_USED');
      expect(
        (await call('POST', '/v1/organisation/invitations/preview', undefined, { token })).statusCode,
      ).toBe(410);
      expect(await activities(admin.user.organisation.id)).toContain(
        `newcomer@example.org joined as Admin (created an account by accepting the invitation from ${admin.user.email})`,
      );
    });

    it('resend replaces the token: the old link is dead, the new one works', async () => {
      const first = await invite(admin, 'resent@example.org');
      const before = smtp.messages.length;
      // with an empty JSON body, as the web app sends it
      const resent = await call('POST', `/v1/organisation/invitations/${first.id}/resend`, admin.token, {});
      expect(resent.statusCode, resent.body).toBe(200);
      const second = tokenFromMail((await invitationMail('resent@example.org', before)).raw);
      expect(second).not.toBe(first.token);

      const old = await call('POST', '/v1/organisation/invitations/accept', undefined, {
        token: first.token,
        password: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
      expect(old.statusCode).toBe(404);
      expect(old.json().code).toBe('INVITATION_NOT_FOUND');
      const fresh = await call('POST', '/v1/organisation/invitations/accept', undefined, {
        token: second,
        password: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
      expect(fresh.statusCode, fresh.body).toBe(201);
      expect(await activities(admin.user.organisation.id)).toContain(
        'Invitation to resent@example.org resent; the earlier link no longer works',
      );
      const closed = await call('POST', `/v1/organisation/invitations/${first.id}/resend`, admin.token);
      expect(closed.statusCode).toBe(409);
    });

    it('revoking kills the link; revoking twice is a conflict', async () => {
      const { id, token } = await invite(admin, 'revoked@example.org');
      const revoked = await call('DELETE', `/v1/organisation/invitations/${id}`, admin.token);
      expect(revoked.statusCode, revoked.body).toBe(200);
      const accept = await call('POST', '/v1/organisation/invitations/accept', undefined, {
        token,
        password: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
      expect(accept.statusCode).toBe(410);
      expect(accept.json().code).toBe('INVITATION_REVOKED');
      expect((await call('DELETE', `/v1/organisation/invitations/${id}`, admin.token)).statusCode).toBe(409);
      expect((await team(admin.token)).some((row) => row.email === 'revoked@example.org')).toBe(false);
      expect(await activities(admin.user.organisation.id)).toContain(
        'Invitation to revoked@example.org revoked',
      );
    });

    it('an expired link is refused until the invitation is resent', async () => {
      const { id, token } = await invite(admin, 'late@example.org');
      await app.db
        .updateTable('invitation')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', id)
        .execute();
      const accept = await call('POST', '/v1/organisation/invitations/accept', undefined, {
        token,
        password: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
      expect(accept.statusCode).toBe(410);
      expect(accept.json().code).toBe('INVITATION_EXPIRED');
      expect((await team(admin.token)).find((row) => row.email === 'late@example.org')?.expired).toBe(true);
      const listed = await call('GET', '/v1/organisation/invitations', admin.token);
      expect(listed.json().data.invitations.find((row: { id: string }) => row.id === id)?.status).toBe(
        'expired',
      );

      const before = smtp.messages.length;
      expect((await call('POST', `/v1/organisation/invitations/${id}/resend`, admin.token)).statusCode).toBe(
        200,
      );
      const renewed = tokenFromMail((await invitationMail('late@example.org', before)).raw);
      const preview = await call('POST', '/v1/organisation/invitations/preview', undefined, {
        token: renewed,
      });
      expect(preview.statusCode).toBe(200);
      expect(Date.parse(preview.json().data.expiresAt)).toBeGreaterThan(Date.now());
    });

    it('moves an existing account that is alone in its organisation, which is then closed', async () => {
      const solo = await account('solo', { company: 'Solo Shop' });
      const oldOrganisation = solo.user.organisation.id;
      const { token } = await invite(admin, solo.user.email);
      const preview = await call('POST', '/v1/organisation/invitations/preview', undefined, { token });
      expect(preview.json().data.accountExists).toBe(true);

      const anonymous = await call('POST', '/v1/organisation/invitations/accept', undefined, {
        token,
        password: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
      expect(anonymous.statusCode).toBe(409);
      expect(anonymous.json().code).toBe('ACCOUNT_EXISTS');
      const wrongUser = await call('POST', '/v1/organisation/invitations/accept', outsider.token, { token });
      expect(wrongUser.statusCode).toBe(403);
      expect(wrongUser.json().code).toBe('INVITATION_EMAIL_MISMATCH');

      const accepted = await call('POST', '/v1/organisation/invitations/accept', solo.token, { token });
      expect(accepted.statusCode, accepted.body).toBe(200);
      const data = accepted.json().data;
      expect(data.user).toMatchObject({ organisation: { id: admin.user.organisation.id }, role: 'member' });

      const now = await call('GET', '/v1/organisation', data.token);
      expect(now.json().data.organisation.id).toBe(admin.user.organisation.id);
      // the old organisation is gone, and the old token no longer reaches any organisation data
      expect(
        await app.db.selectFrom('organisation').select('id').where('id', '=', oldOrganisation).execute(),
      ).toEqual([]);
      const stale = await call('GET', '/v1/organisation', solo.token);
      expect(stale.statusCode).toBe(401);
      expect(stale.json().code).toBe('MEMBERSHIP_ENDED');
      // the same sign-in continues in the new organisation
      const refreshed = await client.refresh(solo.refreshToken);
      expect(refreshed.statusCode).toBe(200);
      const profile = await client.get('/v1/auth/profile', refreshed.json().data.token);
      expect(profile.json().data.user.organisation.id).toBe(admin.user.organisation.id);
      expect(await activities(admin.user.organisation.id)).toContain(
        `${solo.user.email} joined as Member (accepted the invitation from ${admin.user.email})`,
      );
    });

    it('refuses to move an account that shares its organisation, and keeps the invitation', async () => {
      const other = await account('shared', { organisationId: outsider.user.organisation.id });
      const { id, token } = await invite(admin, other.user.email);
      const refused = await call('POST', '/v1/organisation/invitations/accept', other.token, { token });
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'MEMBER_ELSEWHERE' });
      expect(refused.json().error).toContain('Other Org');
      const listed = await call('GET', '/v1/organisation/invitations', admin.token);
      expect(listed.json().data.invitations.find((row: { id: string }) => row.id === id)?.status).toBe(
        'pending',
      );
      expect((await call('GET', '/v1/organisation', other.token)).json().data.organisation.id).toBe(
        outsider.user.organisation.id,
      );
    });

    it('keeps nothing and says so when the invitation mail cannot be sent', async () => {
      const broken = await buildTestApp({
        ...database.env(),
        RATE_LIMIT_SCALE: '10000',
        SMTP_URL: `smtp://127.0.0.1:${await closedPort()}`,
        PUBLIC_URL,
      });
      try {
        const response = await broken.inject({
          method: 'POST',
          url: '/v1/organisation/invitations',
          headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
          payload: JSON.stringify({ firstName: 'Lost', lastName: 'Mail', email: 'lost@example.org' }),
        });
        expect(response.statusCode).toBe(502);
        expect(response.json()).toMatchObject({
          error: 'Failed to send invitation. Please try again.',
          code: 'MAIL_FAILED',
        });
        const kept = await app.db
          .selectFrom('invitation')
          .select('id')
          .where('email', '=', 'lost@example.org')
          .execute();
        expect(kept).toEqual([]);
      } finally {
        await broken.close();
      }
    });
  });

  describe('roles and removal', () => {
    it('changes roles, applies them at once and protects the last admin', async () => {
      const organisationId = outsider.user.organisation.id;
      const helper = await account('helper', { organisationId });
      const sole = await call('PATCH', `/v1/organisation/members/${outsider.user.id}`, outsider.token, {
        role: 'member',
      });
      expect(sole.statusCode).toBe(409);
      expect(sole.json()).toMatchObject({ code: 'LAST_ADMIN' });
      expect(sole.json().error).toMatch(/at least one admin/);

      const promoted = await call('PATCH', `/v1/organisation/members/${helper.user.id}`, outsider.token, {
        role: 'admin',
      });
      expect(promoted.statusCode, promoted.body).toBe(200);
      expect(promoted.json().data).toMatchObject({ role: 'admin' });
      // the helper's token still says member; the database says admin, and that counts
      expect((await call('PUT', '/v1/organisation', helper.token, { name: 'Other Org' })).statusCode).toBe(
        200,
      );

      const demoted = await call('PATCH', `/v1/organisation/members/${outsider.user.id}`, helper.token, {
        role: 'member',
      });
      expect(demoted.statusCode, demoted.body).toBe(200);
      // the old admin's token claims admin, but the role changed: refused now
      const refused = await call('PUT', '/v1/organisation', outsider.token, { name: 'Mine again' });
      expect(refused.statusCode).toBe(403);
      const rows = await team(helper.token);
      expect(rows.find((row) => row.id === outsider.user.id)).toMatchObject({ role: 'Member', you: false });
      expect(rows.find((row) => row.id === helper.user.id)).toMatchObject({ role: 'Admin', you: true });
      expect(await activities(organisationId)).toContain(
        `Role of ${outsider.user.email} changed from Admin to Member`,
      );
      const invalid = await call('PATCH', `/v1/organisation/members/${outsider.user.id}`, helper.token, {
        role: 'owner',
      });
      expect(invalid.statusCode).toBe(400);

      // put it back for the other tests
      const restored = await call('PATCH', `/v1/organisation/members/${outsider.user.id}`, helper.token, {
        role: 'admin',
      });
      expect(restored.statusCode).toBe(200);
    });

    it('removes a member, who loses the organisation at once and is signed out', async () => {
      const leaving = await account('leaving', { organisationId: admin.user.organisation.id });
      expect((await call('GET', '/v1/organisation', leaving.token)).statusCode).toBe(200);
      const removed = await call('DELETE', `/v1/organisation/members/${leaving.user.id}`, admin.token);
      expect(removed.statusCode, removed.body).toBe(200);
      expect(removed.json().data).toMatchObject({ self: false });

      for (const url of ['/v1/organisation', '/v1/organisation/members']) {
        const response = await call('GET', url, leaving.token);
        expect(response.statusCode).toBe(401);
        // removal signed them out, and a revoked sign-in's access token ends with it
        expect(response.json().code).toBe('UNAUTHORIZED');
        expect(response.json().data).toBeUndefined();
      }
      expect((await client.refresh(leaving.refreshToken)).statusCode).toBe(401);
      expect((await team(admin.token)).some((row) => row.id === leaving.user.id)).toBe(false);
      expect(await activities(admin.user.organisation.id)).toContain(
        `Removed ${leaving.user.email} (Member) from the organisation`,
      );

      // the account lives on, in an organisation of its own
      const again = await client.login(leaving.user.email);
      expect(again.user.organisation.id).not.toBe(admin.user.organisation.id);
      expect(again.user.role).toBe('admin');
      expect((await call('GET', '/v1/organisation', again.token)).json().data.organisation.id).toBe(
        again.user.organisation.id,
      );
    });

    it('lets a member leave, but never the last admin', async () => {
      const quitter = await account('quitter', { organisationId: admin.user.organisation.id });
      const left = await call('DELETE', `/v1/organisation/members/${quitter.user.id}`, quitter.token);
      expect(left.statusCode, left.body).toBe(200);
      expect(left.json().data).toMatchObject({ self: true });
      expect(await activities(admin.user.organisation.id)).toContain(
        `${quitter.user.email} (Member) left the organisation`,
      );

      const lonely = await account('lonely');
      const last = await call('DELETE', `/v1/organisation/members/${lonely.user.id}`, lonely.token);
      expect(last.statusCode).toBe(409);
      expect(last.json()).toMatchObject({ code: 'LAST_ADMIN' });
      expect(last.json().error).toBe('The last admin cannot be removed: make another member an admin first.');
    });
  });

  describe('authorisation on every route', () => {
    it('other organisation → 404, member where admin is needed → 403, API key → 401, nobody → 401', async () => {
      const { id: invitationId } = await invite(admin, 'matrix@example.org');
      // someone other than the member who calls: a member may remove only themselves
      const memberId = (await account('peer', { organisationId: admin.user.organisation.id })).user.id;
      const routes: Array<{
        method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
        url: string;
        body?: unknown;
        admin: boolean;
        scoped: boolean;
      }> = [
        { method: 'GET', url: '/v1/organisation', admin: false, scoped: false },
        { method: 'PUT', url: '/v1/organisation', body: { name: 'X' }, admin: true, scoped: false },
        { method: 'GET', url: '/v1/organisation/members', admin: false, scoped: false },
        {
          method: 'PATCH',
          url: `/v1/organisation/members/${memberId}`,
          body: { role: 'admin' },
          admin: true,
          scoped: true,
        },
        { method: 'DELETE', url: `/v1/organisation/members/${memberId}`, admin: true, scoped: true },
        { method: 'GET', url: '/v1/organisation/invitations', admin: true, scoped: false },
        {
          method: 'POST',
          url: '/v1/organisation/invitations',
          body: { firstName: 'A', lastName: 'B', email: 'ab-matrix@example.org' },
          admin: true,
          scoped: false,
        },
        {
          method: 'POST',
          url: `/v1/organisation/invitations/${invitationId}/resend`,
          admin: true,
          scoped: true,
        },
        { method: 'DELETE', url: `/v1/organisation/invitations/${invitationId}`, admin: true, scoped: true },
      ];
      const { token } = await invite(admin, 'matrix-token@example.org');
      for (const path of ['preview', 'accept']) {
        const keyed = await call('POST', `/v1/organisation/invitations/${path}`, apiKey, { token });
        expect(keyed.statusCode, path).toBe(401);
      }
      for (const route of routes) {
        const label = `${route.method} ${route.url}`;
        const nobody = await call(route.method, route.url, undefined, route.body);
        expect(nobody.statusCode, label).toBe(401);
        const keyed = await call(route.method, route.url, apiKey, route.body);
        expect(keyed.statusCode, label).toBe(401);
        expect(keyed.json().success, label).toBe(false);
        if (route.admin) {
          const byMember = await call(route.method, route.url, member.token, route.body);
          expect(byMember.statusCode, label).toBe(403);
        }
        if (route.scoped) {
          // outsider is an admin, of another organisation: the id is not found there
          const foreign = await call(route.method, route.url, outsider.token, route.body);
          expect(foreign.statusCode, label).toBe(404);
          expect(foreign.json().data, label).toBeUndefined();
        }
      }
      // nothing above changed the member or the invitation
      const rows = await team(admin.token);
      expect(rows.find((row) => row.id === memberId)).toMatchObject({ role: 'Member', status: 'Active' });
      expect(rows.find((row) => row.id === invitationId)).toMatchObject({ status: 'Pending' });
    });
  });
});
