import type { Role } from '../db/schema.ts';
import { HttpError } from '../plugins/errors.ts';

/** The caller of an organisation operation, with the role the database holds now. */
export interface OrganisationCaller {
  userId: string;
  organisationId: string;
  role: Role;
  sessionId: string;
}

export const ADMIN_REQUIRED_MESSAGE = 'Only an admin of the organisation can do this';

export function adminRequired(): HttpError {
  return new HttpError(403, 'ADMIN_REQUIRED', ADMIN_REQUIRED_MESSAGE);
}

export function roleLabel(role: Role): 'Admin' | 'Member' {
  return role === 'admin' ? 'Admin' : 'Member';
}

/** "Ada Lovelace", or null when neither part is set. */
export function fullName(first: string | null, last: string | null): string | null {
  const name = [first, last].filter((part) => part !== null && part.trim() !== '').join(' ');
  return name === '' ? null : name;
}
