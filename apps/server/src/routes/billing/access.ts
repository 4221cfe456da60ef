import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../../billing/service.ts';
import { findUserById } from '../../db/users.ts';
import type { OrganisationCaller } from '../organisation/access.ts';

/** The admin making a billing change, as the audit log names them. */
export async function actorOf(
  app: FastifyInstance,
  request: FastifyRequest,
  caller: OrganisationCaller,
): Promise<Actor> {
  const user = await findUserById(app.db, caller.userId);
  return { userId: caller.userId, username: user?.email ?? null, ipAddress: request.ip };
}
