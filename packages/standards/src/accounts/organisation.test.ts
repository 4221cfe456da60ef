import { beforeAll, describe, expect, it } from 'vitest';
import {
  acceptInvitationBody,
  changeMemberRoleBody,
  inviteMemberBody,
  isDomainName,
  normaliseDomain,
  ORGANISATION_MESSAGES,
  updateOrganisationBody,
} from './organisation.ts';
import { loadPasswordPolicy } from './password-policy.ts';

/** The first issue's message of a failed parse, else null. */
function firstMessage(result: { success: boolean; error?: { issues: Array<{ message: string }> } }) {
  return result.success ? null : (result.error?.issues[0]?.message ?? null);
}

describe('isDomainName', () => {
  it.each([
    'example.com',
    'Example.COM',
    'example.com.',
    'mail.example.co.uk',
    'xn--bcher-kva.de',
    'a-b.example',
    '1.example.org',
    `${'a'.repeat(63)}.example`,
  ])('accepts %s', (name) => {
    expect(isDomainName(name)).toBe(true);
  });

  it.each([
    '',
    '.',
    'localhost',
    'example',
    '192.0.2.1',
    '-example.com',
    'example-.com',
    'exa mple.com',
    'example..com',
    '.example.com',
    'example.com..',
    '_dmarc.example.com',
    'bücher.de',
    'https://example.com',
    'example.com/path',
    `${'a'.repeat(64)}.example`,
    // 4 × 63 + 3 dots = 255 characters: over the 253 a name can have in text
    Array.from({ length: 4 }, () => 'a'.repeat(63)).join('.'),
  ])('refuses %j', (name) => {
    expect(isDomainName(name)).toBe(false);
  });

  it('normalises to lower case without the root dot', () => {
    expect(normaliseDomain('  Example.COM. ')).toBe('example.com');
  });
});

describe('updateOrganisationBody', () => {
  it('needs a name and accepts the spec fields', () => {
    expect(firstMessage(updateOrganisationBody.safeParse({}))).toBe(ORGANISATION_MESSAGES.nameRequired);
    expect(firstMessage(updateOrganisationBody.safeParse({ name: '   ' }))).toBe(
      ORGANISATION_MESSAGES.nameRequired,
    );
    const full = {
      name: 'Acme Ltd',
      domain: 'acme.example',
      address: '1 High Street\nSpringfield',
      phone: '+44 20 7946 0000',
      adminEmail: 'it@acme.example',
      description: 'We make everything.\r\nReally.',
    };
    expect(updateOrganisationBody.safeParse(full).success).toBe(true);
    expect(updateOrganisationBody.safeParse({ name: 'Acme', domain: '', adminEmail: null }).success).toBe(
      true,
    );
  });

  it('checks domain, admin email, lengths, control characters and unknown fields', () => {
    expect(firstMessage(updateOrganisationBody.safeParse({ name: 'A', domain: 'not a domain' }))).toBe(
      ORGANISATION_MESSAGES.invalidDomain,
    );
    expect(firstMessage(updateOrganisationBody.safeParse({ name: 'A', adminEmail: 'nobody' }))).toBe(
      ORGANISATION_MESSAGES.invalidAdminEmail,
    );
    expect(firstMessage(updateOrganisationBody.safeParse({ name: 'x'.repeat(201) }))).toBe(
      'Organisation name must be at most 200 characters',
    );
    expect(firstMessage(updateOrganisationBody.safeParse({ name: 'A', description: 'x'.repeat(2001) }))).toBe(
      'Description must be at most 2000 characters',
    );
    expect(firstMessage(updateOrganisationBody.safeParse({ name: 'A\nB' }))).toBe(
      'Organisation name must not contain control characters',
    );
    expect(firstMessage(updateOrganisationBody.safeParse({ name: 'A', address: 'a\u0000b' }))).toBe(
      'Address must not contain control characters',
    );
    expect(updateOrganisationBody.safeParse({ name: 'A', plan: 'free' }).success).toBe(false);
  });
});

describe('inviteMemberBody', () => {
  it('needs first name, last name and email, and defaults the role to member', () => {
    for (const body of [
      {},
      { firstName: 'Ada', lastName: 'Lovelace' },
      { firstName: ' ', lastName: 'Lovelace', email: 'ada@example.org' },
    ]) {
      expect(firstMessage(inviteMemberBody.safeParse(body))).toBe(ORGANISATION_MESSAGES.invitationRequired);
    }
    const parsed = inviteMemberBody.parse({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.org',
    });
    expect(parsed.role).toBe('member');
    expect(
      inviteMemberBody.parse({ firstName: 'Ada', lastName: 'L', email: 'ada@example.org', role: 'admin' })
        .role,
    ).toBe('admin');
  });

  it('refuses a bad email, an unknown role and unknown fields', () => {
    expect(firstMessage(inviteMemberBody.safeParse({ firstName: 'Ada', lastName: 'L', email: 'ada@' }))).toBe(
      'Please enter a valid email address',
    );
    expect(
      firstMessage(
        inviteMemberBody.safeParse({
          firstName: 'Ada',
          lastName: 'L',
          email: 'a@example.org',
          role: 'owner',
        }),
      ),
    ).toBe(ORGANISATION_MESSAGES.invalidRole);
    expect(
      inviteMemberBody.safeParse({ firstName: 'Ada', lastName: 'L', email: 'a@example.org', admin: true })
        .success,
    ).toBe(false);
  });
});

describe('changeMemberRoleBody and acceptInvitationBody', () => {
  beforeAll(() => loadPasswordPolicy(), 30_000);

  it('takes admin or member', () => {
    expect(changeMemberRoleBody.safeParse({ role: 'admin' }).success).toBe(true);
    expect(firstMessage(changeMemberRoleBody.safeParse({ role: 'Admin' }))).toBe(
      ORGANISATION_MESSAGES.invalidRole,
    );
  });

  it('takes a token alone, or a token with a new password checked like registration', () => {
    expect(acceptInvitationBody.safeParse({ token: 'abc' }).success).toBe(true);
    expect(firstMessage(acceptInvitationBody.safeParse({}))).toBe('Invitation token is required');
    expect(firstMessage(acceptInvitationBody.safeParse({ token: 'abc', password: 'long enough' }))).toBe(
      'All fields are required',
    );
    expect(
      firstMessage(
        acceptInvitationBody.safeParse({ token: 'abc', password: 'short', confirmPassword: 'short' }),
      ),
    ).toBe('Password must be at least 8 characters long');
    expect(
      firstMessage(
        acceptInvitationBody.safeParse({
          token: 'abc',
          password: 'long enough',
          confirmPassword: 'different',
        }),
      ),
    ).toBe('Passwords do not match');
    expect(
      acceptInvitationBody.safeParse({
        token: 'abc',
        password: 'long enough',
        confirmPassword: 'long enough',
      }).success,
    ).toBe(true);
  });
});
