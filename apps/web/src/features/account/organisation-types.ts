/** Shapes of the organisation API's answers (`/v1/organisation…`), as the pages read them. */
import { ApiError, NETWORK_ERROR_MESSAGE, UNEXPECTED_ERROR_MESSAGE } from '../../lib/api.ts';
import type { Role } from '../../lib/session.ts';

export interface Organisation {
  id: string;
  name: string;
  domain: string | null;
  address: string | null;
  phone: string | null;
  adminEmail: string | null;
  description: string | null;
  createdAt: string;
  updatedAt: string;
}

/** `GET /v1/organisation`: the organisation and the caller's role in it now. */
export interface OrganisationAnswer {
  organisation: Organisation;
  role: Role;
}

/** A row of the team table: a member (Active) or an open invitation (Pending). */
export interface TeamRow {
  id: string;
  kind: 'member' | 'invitation';
  name: string | null;
  firstName: string | null;
  lastName: string | null;
  email: string;
  role: 'Admin' | 'Member';
  status: 'Active' | 'Pending';
  since: string;
  expiresAt: string | null;
  expired: boolean;
  you: boolean;
}

export const organisationKey = (userId: string | null) => ['organisation', userId] as const;
export const teamKey = (organisationId: string | null) => ['organisation-members', organisationId] as const;

/** The server's own explanation of a failure, unless the call never got one (then the form's text). */
export function failureText(error: unknown, fallback: string): string {
  if (!(error instanceof ApiError)) return fallback;
  return error.message === NETWORK_ERROR_MESSAGE || error.message === UNEXPECTED_ERROR_MESSAGE
    ? fallback
    : error.message;
}
