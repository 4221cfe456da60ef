import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { recordActivity } from '../../db/activities.ts';
import { listOpenInvitations } from '../../db/invitations.ts';
import {
  addMembership,
  countMembers,
  findMembershipRole,
  findPrimaryMembership,
  listMembers,
  removeMembership,
  setMembershipRole,
} from '../../db/memberships.ts';
import { createOrganisation, findOrganisationById, lockOrganisation } from '../../db/organisations.ts';
import type { Database, Role } from '../../db/schema.ts';
import { revokeUserSessions } from '../../db/sessions.ts';
import { findUserById, type User } from '../../db/users.ts';
import { errorEnvelopeSchema, HttpError, successEnvelope } from '../../plugins/errors.ts';
import { changeMemberRoleBody } from '@rfckit/standards';
import { roleSchema } from '../auth/schemas.ts';
import { ADMIN_REQUIRED_MESSAGE, requireAdmin, requireMember } from './access.ts';
import {
  bearer,
  fullName,
  messageWith,
  roleLabel,
  teamMemberSchema,
  type TeamMemberView,
} from './schemas.ts';

export const LAST_ADMIN_DEMOTE_MESSAGE =
  'The organisation needs at least one admin: make another member an admin before changing this role.';
export const LAST_ADMIN_REMOVE_MESSAGE =
  'The last admin cannot be removed: make another member an admin first.';
const NO_SUCH_MEMBER = 'No such member in this organisation';

const memberParams = z.object({ id: z.string().max(100).describe("The member's user id") });

function noSuchMember(): HttpError {
  return new HttpError(404, 'NOT_FOUND', NO_SUCH_MEMBER);
}

/**
 * Every account belongs to one organisation, so someone removed from theirs gets a new one of
 * their own, as at registration: their account keeps working, without the old organisation's data.
 */
async function giveOwnOrganisation(
  trx: Kysely<Database>,
  user: User,
  leftName: string,
  self: boolean,
  ipAddress: string,
): Promise<void> {
  if ((await findPrimaryMembership(trx, user.id)) !== undefined) return;
  const localPart = user.email.split('@')[0] ?? user.email;
  const organisation = await createOrganisation(trx, {
    name: user.company ?? `${localPart}'s organisation`,
    adminEmail: user.email,
  });
  await addMembership(trx, { userId: user.id, organisationId: organisation.id, role: 'admin' });
  await recordActivity(trx, {
    organisationId: organisation.id,
    userId: user.id,
    username: user.email,
    action: 'create',
    description: self
      ? `Organisation created for the account after it left ${leftName}`
      : `Organisation created for the account after it was removed from ${leftName}`,
    ipAddress,
  });
}

/** The team table (members and open invitations), role changes and removals. */
const members: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/organisation/members',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['Organisation'],
        summary: 'Members and open invitations',
        description:
          'One list for the team table: members (status Active) in the order they joined, then invitations not yet ' +
          'accepted or revoked (status Pending). Any member may read it.',
        security: bearer,
        response: {
          200: successEnvelope(z.object({ members: z.array(teamMemberSchema) })),
          '4xx': errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const caller = await requireMember(app, request, reply);
      const now = new Date().toISOString();
      const [people, invitations] = await Promise.all([
        listMembers(app.db, caller.organisationId),
        listOpenInvitations(app.db, caller.organisationId),
      ]);
      const rows: TeamMemberView[] = [
        ...people.map((member) => ({
          id: member.userId,
          kind: 'member' as const,
          name: fullName(member.firstName, member.lastName),
          firstName: member.firstName,
          lastName: member.lastName,
          email: member.email,
          role: roleLabel(member.role),
          status: 'Active' as const,
          since: member.joinedAt,
          expiresAt: null,
          expired: false,
          you: member.userId === caller.userId,
        })),
        ...invitations.map((invitation) => ({
          id: invitation.id,
          kind: 'invitation' as const,
          name: fullName(invitation.first_name, invitation.last_name),
          firstName: invitation.first_name,
          lastName: invitation.last_name,
          email: invitation.email,
          role: roleLabel(invitation.role),
          status: 'Pending' as const,
          since: invitation.sent_at,
          expiresAt: invitation.expires_at,
          expired: invitation.expires_at <= now,
          you: false,
        })),
      ];
      reply.header('cache-control', 'no-store');
      return { success: true as const, data: { members: rows } };
    },
  );

  app.patch(
    '/organisation/members/:id',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['Organisation'],
        summary: "Change a member's role",
        description:
          'Admins only. The last admin cannot be made a member (409 LAST_ADMIN). A member of another organisation is a 404.',
        security: bearer,
        params: memberParams,
        body: changeMemberRoleBody,
        response: {
          200: successEnvelope(messageWith({ id: z.string(), role: roleSchema })),
          '4xx': errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const caller = await requireAdmin(app, request, reply);
      const targetId = request.params.id;
      const role: Role = request.body.role;
      const result = await app.db.transaction().execute(async (trx) => {
        await lockOrganisation(trx, caller.organisationId);
        // checked again under the lock: a concurrent change may have demoted the caller
        if ((await findMembershipRole(trx, caller.userId, caller.organisationId)) !== 'admin') {
          throw new HttpError(403, 'ADMIN_REQUIRED', ADMIN_REQUIRED_MESSAGE);
        }
        const current = await findMembershipRole(trx, targetId, caller.organisationId);
        const target = current === undefined ? undefined : await findUserById(trx, targetId);
        if (current === undefined || target === undefined) throw noSuchMember();
        if (current === role) return { target, changed: false };
        if (current === 'admin' && (await countMembers(trx, caller.organisationId, 'admin')) <= 1) {
          throw new HttpError(409, 'LAST_ADMIN', LAST_ADMIN_DEMOTE_MESSAGE);
        }
        await setMembershipRole(trx, targetId, caller.organisationId, role);
        const actor = await findUserById(trx, caller.userId);
        await recordActivity(trx, {
          organisationId: caller.organisationId,
          userId: caller.userId,
          username: actor?.email ?? null,
          action: 'update',
          description: `Role of ${target.email} changed from ${roleLabel(current)} to ${roleLabel(role)}`,
          details: { memberId: targetId, from: current, to: role },
          ipAddress: request.ip,
        });
        return { target, changed: true };
      });
      return {
        success: true as const,
        data: {
          message: result.changed
            ? `${result.target.email} is now ${role === 'admin' ? 'an Admin' : 'a Member'}`
            : `${result.target.email} is already ${role === 'admin' ? 'an Admin' : 'a Member'}`,
          id: targetId,
          role,
        },
      };
    },
  );

  app.delete(
    '/organisation/members/:id',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['Organisation'],
        summary: 'Remove a member',
        description:
          'Admins remove anyone; any member may remove themselves (leave). The last admin cannot be removed ' +
          '(409 LAST_ADMIN). The removed account is signed out everywhere and gets an organisation of its own, as at ' +
          'registration; tokens it still holds no longer reach this organisation.',
        security: bearer,
        params: memberParams,
        response: {
          200: successEnvelope(messageWith({ id: z.string(), self: z.boolean() })),
          '4xx': errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const caller = await requireMember(app, request, reply);
      const targetId = request.params.id;
      const self = targetId === caller.userId;
      if (!self && caller.role !== 'admin') {
        throw new HttpError(403, 'ADMIN_REQUIRED', ADMIN_REQUIRED_MESSAGE);
      }
      const target = await app.db.transaction().execute(async (trx) => {
        await lockOrganisation(trx, caller.organisationId);
        if (!self && (await findMembershipRole(trx, caller.userId, caller.organisationId)) !== 'admin') {
          throw new HttpError(403, 'ADMIN_REQUIRED', ADMIN_REQUIRED_MESSAGE);
        }
        const role = await findMembershipRole(trx, targetId, caller.organisationId);
        const user = role === undefined ? undefined : await findUserById(trx, targetId);
        if (role === undefined || user === undefined) throw noSuchMember();
        if (role === 'admin' && (await countMembers(trx, caller.organisationId, 'admin')) <= 1) {
          throw new HttpError(409, 'LAST_ADMIN', LAST_ADMIN_REMOVE_MESSAGE);
        }
        const organisation = await findOrganisationById(trx, caller.organisationId);
        await removeMembership(trx, targetId, caller.organisationId);
        const actor = self ? user : await findUserById(trx, caller.userId);
        await recordActivity(trx, {
          organisationId: caller.organisationId,
          userId: caller.userId,
          username: actor?.email ?? null,
          action: 'delete',
          description: self
            ? `${user.email} (${roleLabel(role)}) left the organisation`
            : `Removed ${user.email} (${roleLabel(role)}) from the organisation`,
          details: { memberId: targetId, role },
          ipAddress: request.ip,
        });
        await revokeUserSessions(trx, targetId);
        await giveOwnOrganisation(trx, user, organisation?.name ?? 'an organisation', self, request.ip);
        return user;
      });
      return {
        success: true as const,
        data: {
          message: self
            ? 'You left the organisation. Sign in again to continue in an organisation of your own.'
            : `${target.email} was removed from the organisation`,
          id: targetId,
          self,
        },
      };
    },
  );
};

export default members;
