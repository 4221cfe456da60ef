import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ACCESS_TOKEN_TTL_SECONDS, hashToken, REFRESH_TOKEN_TTL_MS, randomToken } from '../../auth/tokens.ts';
import type { UserOrganisation } from '../../db/memberships.ts';
import { createSession, type Session } from '../../db/sessions.ts';
import type { User } from '../../db/users.ts';
import type { ProfileView, UserView } from './schemas.ts';

export const REFRESH_COOKIE = 'rfckit_refresh';
const MAX_USER_AGENT = 500;

/** `/v1/auth` below PUBLIC_URL's path, so the browser sends the cookie to the auth routes only. */
export function refreshCookiePath(appUrl: string): string {
  return `${new URL(appUrl).pathname.replace(/\/+$/, '')}/v1/auth`;
}

function cookieOptions(appUrl: string) {
  return {
    httpOnly: true,
    secure: true,
    sameSite: 'strict' as const,
    path: refreshCookiePath(appUrl),
  };
}

export function setRefreshCookie(reply: FastifyReply, appUrl: string, token: string): void {
  reply.setCookie(REFRESH_COOKIE, token, {
    ...cookieOptions(appUrl),
    maxAge: Math.floor(REFRESH_TOKEN_TTL_MS / 1000),
  });
}

export function clearRefreshCookie(reply: FastifyReply, appUrl: string): void {
  reply.clearCookie(REFRESH_COOKIE, cookieOptions(appUrl));
}

export function readRefreshCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (header === undefined) return undefined;
  const value = request.server.parseCookie(header)[REFRESH_COOKIE];
  return value === undefined || value === '' ? undefined : value;
}

export interface IssuedTokens {
  token: string;
  refreshToken: string;
  session: Session;
}

/** Stores a refresh session (a new family, or the next link of `familyId`'s) and signs its access token. */
export async function issueTokens(
  app: FastifyInstance,
  request: FastifyRequest,
  userId: string,
  membership: UserOrganisation,
  familyId?: string,
): Promise<IssuedTokens> {
  const refreshToken = randomToken();
  const userAgent = request.headers['user-agent'];
  const session = await createSession(app.db, {
    userId,
    ...(familyId === undefined ? {} : { familyId }),
    refreshTokenHash: hashToken(refreshToken),
    expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_MS),
    userAgent: typeof userAgent === 'string' ? userAgent.slice(0, MAX_USER_AGENT) : null,
    ipAddress: request.ip,
  });
  const token = await app.accessTokens.sign({
    userId,
    organisationId: membership.organisationId,
    role: membership.role,
    sessionId: session.id,
  });
  return { token, refreshToken, session };
}

export const ACCESS_TOKEN_EXPIRES_IN = ACCESS_TOKEN_TTL_SECONDS;

export function userView(user: User, membership: UserOrganisation): UserView {
  const name = [user.first_name, user.last_name].filter((part) => part !== null && part !== '').join(' ');
  return {
    id: user.id,
    email: user.email,
    firstName: user.first_name,
    lastName: user.last_name,
    name: name === '' ? null : name,
    role: membership.role,
    organisation: { id: membership.organisationId, name: membership.organisationName },
    emailVerified: user.email_verified_at !== null,
  };
}

export function profileView(
  user: User,
  membership: UserOrganisation,
  pendingEmail: string | null,
): ProfileView {
  return {
    ...userView(user, membership),
    company: user.company,
    phone: user.phone,
    pendingEmail,
    createdAt: user.created_at,
  };
}
