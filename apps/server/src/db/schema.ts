/** Row types of every table, as Kysely sees them. Timestamps are ISO 8601 text on both dialects. */

export interface AppMetaTable {
  key: string;
  value: string;
  updated_at: string;
}

export type Role = 'admin' | 'member';
export type EmailTokenKind = 'verify' | 'reset' | 'email-change';
export type ActivityAction = 'login' | 'logout' | 'create' | 'update' | 'delete';

export interface UserTable {
  id: string;
  /** Trimmed and lower-cased. */
  email: string;
  /** argon2id PHC string. */
  password_hash: string;
  first_name: string | null;
  last_name: string | null;
  company: string | null;
  phone: string | null;
  email_verified_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface OrganisationTable {
  id: string;
  name: string;
  domain: string | null;
  address: string | null;
  phone: string | null;
  admin_email: string | null;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export interface MembershipTable {
  user_id: string;
  organisation_id: string;
  role: Role;
  created_at: string;
}

/** One refresh token; rotation adds a row to the same family (all descended from one sign-in). */
export interface SessionTable {
  id: string;
  family_id: string;
  user_id: string;
  /** SHA-256 (hex) of the refresh token; the token itself is never stored. */
  refresh_token_hash: string;
  created_at: string;
  expires_at: string;
  rotated_at: string | null;
  revoked_at: string | null;
  user_agent: string | null;
  ip_address: string | null;
}

/** Single-use link tokens (email verification, password reset, email change), stored hashed. */
export interface EmailTokenTable {
  id: string;
  user_id: string;
  kind: EmailTokenKind;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** The address an email-change token confirms. */
  new_email: string | null;
}

/** The organisation's audit log. */
export interface ActivityTable {
  id: string;
  organisation_id: string;
  user_id: string | null;
  /** The actor's email at the time, kept if the user changes or disappears. */
  username: string | null;
  action: ActivityAction;
  description: string;
  /** Optional JSON text with structured detail. */
  details: string | null;
  ip_address: string | null;
  created_at: string;
}

export interface Database {
  app_meta: AppMetaTable;
  user: UserTable;
  organisation: OrganisationTable;
  membership: MembershipTable;
  session: SessionTable;
  email_token: EmailTokenTable;
  activity: ActivityTable;
}
