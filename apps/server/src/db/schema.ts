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

export type SecurityTokenKind = 'unlock' | 'undo-change';

/** Single-use links of account protection (unlock after failed sign-ins, undo a change), stored hashed. */
export interface SecurityTokenTable {
  id: string;
  user_id: string;
  kind: SecurityTokenKind;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** The address an undo link restores; null for a password change. */
  restore_email: string | null;
}

/** Failed sign-ins per address (known or not), keyed by the SHA-256 of the normalised address. */
export interface LoginThrottleTable {
  account_key: string;
  failures: number;
  last_failure_at: string;
  locked_until: string | null;
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

/** A pending, accepted or revoked invitation to join an organisation. */
export interface InvitationTable {
  id: string;
  organisation_id: string;
  /** Trimmed and lower-cased. */
  email: string;
  first_name: string;
  last_name: string;
  role: Role;
  /** SHA-256 (hex) of the link token; a resend replaces it. */
  token_hash: string;
  invited_by: string | null;
  created_at: string;
  sent_at: string;
  expires_at: string;
  accepted_at: string | null;
  revoked_at: string | null;
}

export type BillingInterval = 'month' | 'year';
export type SubscriptionStatus = 'active' | 'trialing' | 'past_due' | 'canceled' | 'incomplete';
export type InvoiceStatus = 'paid' | 'open' | 'void' | 'uncollectible';

export interface PlanTable {
  id: string;
  name: string;
  description: string;
  /** Price per interval in minor units of `currency` (4999 = 49.99 USD). */
  price_minor: number;
  currency: string;
  billing_interval: BillingInterval;
  /** JSON array of feature lines. */
  features: string;
  sort_order: number;
  /** 1 when it can be chosen; 0 keeps it for existing subscriptions only. */
  active: number;
}

/** The organisation's one subscription. */
export interface SubscriptionTable {
  id: string;
  organisation_id: string;
  plan_id: string;
  status: SubscriptionStatus;
  amount_minor: number;
  currency: string;
  current_period_start: string;
  /** The next billing date. */
  current_period_end: string;
  canceled_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A card as the payment provider describes it: never its number or CVV. */
export interface PaymentMethodTable {
  id: string;
  organisation_id: string;
  type: string;
  brand: string;
  last4: string;
  expiry_month: number;
  expiry_year: number;
  cardholder_name: string;
  /** 1 for the organisation's default card, else 0. */
  is_default: number;
  provider_ref: string;
  created_at: string;
}

export interface InvoiceTable {
  id: string;
  organisation_id: string;
  /** Human invoice number, unique across the installation. */
  number: string;
  description: string;
  amount_minor: number;
  currency: string;
  status: InvoiceStatus;
  plan_id: string | null;
  period_start: string;
  period_end: string;
  payment_method_id: string | null;
  /** e.g. "Visa ending 4242", kept after the card is removed. */
  payment_summary: string | null;
  issued_at: string;
  paid_at: string | null;
}

/** An organisation's key for automation: a bearer credential on tool routes only. */
export interface ApiKeyTable {
  id: string;
  organisation_id: string;
  name: string;
  prefix: string;
  /** SHA-256 (hex) of the key; the key is shown once, at creation. */
  key_hash: string;
  created_by: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface Database {
  app_meta: AppMetaTable;
  user: UserTable;
  organisation: OrganisationTable;
  membership: MembershipTable;
  session: SessionTable;
  email_token: EmailTokenTable;
  activity: ActivityTable;
  invitation: InvitationTable;
  plan: PlanTable;
  subscription: SubscriptionTable;
  payment_method: PaymentMethodTable;
  invoice: InvoiceTable;
  api_key: ApiKeyTable;
  security_token: SecurityTokenTable;
  login_throttle: LoginThrottleTable;
}
