import type { Kysely } from 'kysely';
import { recordActivity } from '../db/activities.ts';
import { createEmailToken } from '../db/email-tokens.ts';
import { createSecurityToken } from '../db/security-tokens.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { addMembership, findPrimaryMembership, type UserOrganisation } from '../db/memberships.ts';
import { createOrganisation, findOrganisationById, type Organisation } from '../db/organisations.ts';
import type { Database, EmailTokenKind, Role, SecurityTokenKind } from '../db/schema.ts';
import { createUser, findUserByEmail, type User } from '../db/users.ts';
import type { MailMessage } from '../mail/mailer.ts';
import {
  accountLockedMessage,
  emailChangedMessage,
  emailChangeMessage,
  passwordChangedMessage,
  resetPasswordMessage,
  verifyEmailMessage,
} from '../mail/templates.ts';
import { UNLOCK_TOKEN_TTL_MS } from './login-throttle.ts';
import { HttpError } from '../plugins/errors.ts';
import { hashPassword } from './passwords.ts';
import { hashToken, RESET_TOKEN_TTL_MS, randomToken, VERIFY_TOKEN_TTL_MS } from './tokens.ts';

// Account operations shared by the HTTP routes and the admin command.

export const EMAIL_TAKEN_MESSAGE = 'An account with this email already exists';

export function emailTaken(): HttpError {
  return new HttpError(409, 'EMAIL_TAKEN', EMAIL_TAKEN_MESSAGE);
}

export interface NewAccount {
  /** Normalised already. */
  email: string;
  password: string;
  /** Hashed already (registration hashes before it answers, whether or not the address is taken). */
  passwordHash?: string;
  firstName?: string | null;
  lastName?: string | null;
  company?: string | null;
  /** Default: the company, else "<local part>'s organisation". */
  organisationName?: string;
  /** Join this existing organisation instead of creating one. */
  organisationId?: string;
  role?: Role;
  verified?: boolean;
  ipAddress?: string | null;
  /** Who created it, for the audit description. */
  via?: 'registration' | 'admin command';
}

/**
 * Creates a user, their organisation and their membership (admin unless told otherwise), and
 * records it in the organisation's log, in one transaction. Throws EMAIL_TAKEN (409).
 */
export async function createAccount(
  db: Kysely<Database>,
  input: NewAccount,
): Promise<{ user: User; organisation: Organisation }> {
  if (await findUserByEmail(db, input.email)) throw emailTaken();
  const passwordHash = input.passwordHash ?? (await hashPassword(input.password));
  const now = new Date();
  const localPart = input.email.split('@')[0] ?? input.email;
  const organisationName = input.organisationName ?? input.company ?? `${localPart}'s organisation`;
  try {
    return await db.transaction().execute(async (trx) => {
      const user = await createUser(
        trx,
        {
          email: input.email,
          passwordHash,
          firstName: input.firstName ?? null,
          lastName: input.lastName ?? null,
          company: input.company ?? null,
          emailVerifiedAt: input.verified ? now.toISOString() : null,
        },
        now,
      );
      const existing =
        input.organisationId === undefined
          ? undefined
          : await findOrganisationById(trx, input.organisationId);
      if (input.organisationId !== undefined && existing === undefined) {
        throw new HttpError(404, 'NOT_FOUND', 'No such organisation');
      }
      const organisation =
        existing ?? (await createOrganisation(trx, { name: organisationName, adminEmail: input.email }, now));
      await addMembership(
        trx,
        { userId: user.id, organisationId: organisation.id, role: input.role ?? 'admin' },
        now,
      );
      await recordActivity(
        trx,
        {
          organisationId: organisation.id,
          userId: user.id,
          username: user.email,
          action: 'create',
          description:
            input.via === 'admin command' ? 'Account created by an administrator' : 'Account registered',
          ipAddress: input.ipAddress ?? null,
        },
        now,
      );
      return { user, organisation };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
}

/** The organisation a user acts for, or a 403 when they have none (never the case after registration). */
export async function requireMembership(db: Kysely<Database>, userId: string): Promise<UserOrganisation> {
  const membership = await findPrimaryMembership(db, userId);
  if (!membership) throw new HttpError(403, 'NO_ORGANISATION', 'This account belongs to no organisation');
  return membership;
}

const ttlByKind: Record<EmailTokenKind, number> = {
  verify: VERIFY_TOKEN_TTL_MS,
  'email-change': VERIFY_TOKEN_TTL_MS,
  reset: RESET_TOKEN_TTL_MS,
};

/** Links in mail point here: the API for confirmations, the web page for a new password. */
export function linkFor(appUrl: string, kind: EmailTokenKind, token: string): string {
  const encoded = encodeURIComponent(token);
  return kind === 'reset'
    ? `${appUrl}/reset-password?token=${encoded}`
    : `${appUrl}/v1/auth/verify-email?token=${encoded}`;
}

/** Stores a new single-use token (retiring older ones of the kind) and builds the message carrying its link. */
export async function prepareLinkMail(
  db: Kysely<Database>,
  appUrl: string,
  user: Pick<User, 'id' | 'email'>,
  kind: EmailTokenKind,
  newEmail?: string,
): Promise<MailMessage> {
  const token = randomToken();
  await createEmailToken(db, {
    userId: user.id,
    kind,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + ttlByKind[kind]),
    newEmail: newEmail ?? null,
  });
  const link = linkFor(appUrl, kind, token);
  if (kind === 'reset') return resetPasswordMessage(user.email, link);
  if (kind === 'email-change') return emailChangeMessage(newEmail ?? user.email, link);
  return verifyEmailMessage(user.email, link);
}

/** An undo link is valid this long: a week, for someone who reads their mail late. */
export const UNDO_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const securityPaths: Record<SecurityTokenKind, string> = {
  unlock: '/v1/auth/unlock',
  'undo-change': '/v1/auth/undo-change',
};

/** Stores a single-use account-protection token and returns the link carrying it. */
async function securityLink(
  db: Kysely<Database>,
  appUrl: string,
  userId: string,
  kind: SecurityTokenKind,
  restoreEmail: string | null,
): Promise<string> {
  const token = randomToken();
  await createSecurityToken(db, {
    userId,
    kind,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + (kind === 'unlock' ? UNLOCK_TOKEN_TTL_MS : UNDO_TOKEN_TTL_MS)),
    restoreEmail,
  });
  return `${appUrl}${securityPaths[kind]}?token=${encodeURIComponent(token)}`;
}

/** The lock notice, with a link that lifts the wait. */
export async function prepareUnlockMail(
  db: Kysely<Database>,
  appUrl: string,
  user: Pick<User, 'id' | 'email'>,
): Promise<MailMessage> {
  return accountLockedMessage(user.email, await securityLink(db, appUrl, user.id, 'unlock', null));
}

/** To the old address after an email change: its undo link restores it and signs out everywhere. */
export async function prepareEmailChangedMail(
  db: Kysely<Database>,
  appUrl: string,
  userId: string,
  oldEmail: string,
  newEmail: string,
): Promise<MailMessage> {
  const link = await securityLink(db, appUrl, userId, 'undo-change', oldEmail);
  return emailChangedMessage(oldEmail, newEmail, link);
}

/** After a password change: its undo link signs out everywhere and leads to a new password. */
export async function preparePasswordChangedMail(
  db: Kysely<Database>,
  appUrl: string,
  user: Pick<User, 'id' | 'email'>,
): Promise<MailMessage> {
  return passwordChangedMessage(user.email, await securityLink(db, appUrl, user.id, 'undo-change', null));
}
