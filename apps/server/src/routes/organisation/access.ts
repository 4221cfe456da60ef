import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findMembershipRole } from '../../db/memberships.ts';
import { adminRequired, type OrganisationCaller } from '../../organisation/caller.ts';
import { HttpError } from '../../plugins/errors.ts';

export type { OrganisationCaller } from '../../organisation/caller.ts';

export const MEMBERSHIP_ENDED_MESSAGE =
  'You are no longer a member of this organisation. Please sign in again.';

/**
 * The signed-in caller's live membership of the organisation their access token names. The token
 * (up to 15 minutes old) only says which organisation they acted for when it was signed: someone
 * removed since then gets 401 MEMBERSHIP_ENDED (a browser then refreshes, which fails because
 * removal signs them out), and a role change applies at once. Call it after `app.authenticate`.
 */
export async function requireMember(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<OrganisationCaller> {
  const user = request.user;
  if (user === null) throw new HttpError(401, 'UNAUTHORIZED', 'Authentication required');
  const role = await findMembershipRole(app.db, user.id, user.organisationId);
  if (role === undefined) {
    reply.header('www-authenticate', 'Bearer realm="rfckit", error="invalid_token"');
    throw new HttpError(401, 'MEMBERSHIP_ENDED', MEMBERSHIP_ENDED_MESSAGE);
  }
  return { userId: user.id, organisationId: user.organisationId, role, sessionId: user.sessionId };
}

/** As `requireMember`, and 403 ADMIN_REQUIRED unless the caller is an admin now. */
export async function requireAdmin(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<OrganisationCaller> {
  const caller = await requireMember(app, request, reply);
  if (caller.role !== 'admin') throw adminRequired();
  return caller;
}
