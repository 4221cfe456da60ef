import type { Profile } from '../lib/session.ts';

/** A signed-in admin as `GET /v1/auth/profile` answers it; override what a test needs. */
export function testProfile(overrides: Partial<Profile> = {}): Profile {
  return {
    id: 'u-1',
    email: 'ada@example.org',
    firstName: 'Ada',
    lastName: 'Lovelace',
    name: null,
    role: 'admin',
    organisation: { id: 'o-1', name: 'Acme Ltd' },
    emailVerified: true,
    company: null,
    phone: null,
    pendingEmail: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}
