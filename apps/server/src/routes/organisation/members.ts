import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fullName, roleLabel } from '../../organisation/caller.ts';
import { changeMemberRole, listTeam, removeMember } from '../../organisation/members.ts';
import type { Role } from '../../db/schema.ts';
import { errorEnvelopeSchema, successEnvelope } from '../../plugins/errors.ts';
import { changeMemberRoleBody } from '@rfckit/standards';
import { roleSchema } from '../auth/schemas.ts';
import { requireAdmin, requireMember } from './access.ts';
import { bearer, messageWith, teamMemberSchema, type TeamMemberView } from './schemas.ts';

const memberParams = z.object({ id: z.string().max(100).describe("The member's user id") });

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
      const { members: people, invitations } = await listTeam(app.db, caller.organisationId);
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
      const result = await changeMemberRole(app.db, caller, targetId, role, request.ip);
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
      const { target, self } = await removeMember(app.db, caller, targetId, request.ip);
      // removal signed the member out: their access tokens stop working now, not in 15 minutes
      app.endSessions({ users: [targetId] });
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
