import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordActivity } from '../../db/activities.ts';
import {
  findOrganisationById,
  type Organisation,
  type OrganisationChanges,
  updateOrganisation,
} from '../../db/organisations.ts';
import { findUserById } from '../../db/users.ts';
import { errorEnvelopeSchema, HttpError, successEnvelope } from '../../plugins/errors.ts';
import {
  normaliseDomain,
  normaliseEmail,
  ORGANISATION_MESSAGES,
  updateOrganisationBody,
} from '@rfckit/standards';
import { roleSchema } from '../auth/schemas.ts';
import { requireAdmin, requireMember } from './access.ts';
import { bearer, messageWith, organisationSchema, organisationView } from './schemas.ts';

const fieldLabels = {
  name: 'name',
  domain: 'domain',
  address: 'address',
  phone: 'phone',
  adminEmail: 'admin email',
  description: 'description',
} as const;
type Field = keyof typeof fieldLabels;

const columnOf: Record<Field, keyof Organisation> = {
  name: 'name',
  domain: 'domain',
  address: 'address',
  phone: 'phone',
  adminEmail: 'admin_email',
  description: 'description',
};

/** "a", "a and b", "a, b and c". */
function listed(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** Organisation information (spec part 1 §2 Organisation Settings): any member reads it, admins change it. */
const settings: FastifyPluginAsyncZod = async (app) => {
  async function load(id: string): Promise<Organisation> {
    const organisation = await findOrganisationById(app.db, id);
    if (!organisation) throw new HttpError(404, 'NOT_FOUND', 'No such organisation');
    return organisation;
  }

  app.get(
    '/organisation',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['Organisation'],
        summary: "The caller's organisation",
        description: "Any member may read it. `role` is the caller's role in it now.",
        security: bearer,
        response: {
          200: successEnvelope(z.object({ organisation: organisationSchema, role: roleSchema })),
          '4xx': errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const caller = await requireMember(app, request, reply);
      const organisation = await load(caller.organisationId);
      reply.header('cache-control', 'no-store');
      return {
        success: true as const,
        data: { organisation: organisationView(organisation), role: caller.role },
      };
    },
  );

  app.put(
    '/organisation',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['Organisation'],
        summary: 'Change the organisation information',
        description:
          'Admins only. `name` is required; the other fields left out stay as they are, null or "" clears one. ' +
          'The domain is stored in lower case without a trailing dot.',
        security: bearer,
        body: updateOrganisationBody,
        response: {
          200: successEnvelope(messageWith({ organisation: organisationSchema })),
          '4xx': errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const caller = await requireAdmin(app, request, reply);
      const before = await load(caller.organisationId);
      const body = request.body;
      const clean = (
        value: string | null | undefined,
        normalise: (text: string) => string = (text) => text,
      ) =>
        value === undefined
          ? undefined
          : value === null || value.trim() === ''
            ? null
            : normalise(value.trim());
      const changes: OrganisationChanges = {
        name: body.name.trim(),
        domain: clean(body.domain, normaliseDomain),
        address: clean(body.address),
        phone: clean(body.phone),
        adminEmail: clean(body.adminEmail, normaliseEmail),
        description: clean(body.description),
      };
      const changed = (Object.keys(fieldLabels) as Field[]).filter(
        (field) => changes[field] !== undefined && changes[field] !== before[columnOf[field]],
      );
      if (changed.length > 0) {
        await app.db.transaction().execute(async (trx) => {
          await updateOrganisation(trx, caller.organisationId, changes);
          const actor = await findUserById(trx, caller.userId);
          await recordActivity(trx, {
            organisationId: caller.organisationId,
            userId: caller.userId,
            username: actor?.email ?? null,
            action: 'update',
            description: `Organisation information updated: ${listed(changed.map((field) => fieldLabels[field]))}`,
            details: Object.fromEntries(
              changed.map((field) => [field, { from: before[columnOf[field]], to: changes[field] }]),
            ),
            ipAddress: request.ip,
          });
        });
      }
      const after = changed.length > 0 ? await load(caller.organisationId) : before;
      reply.header('cache-control', 'no-store');
      return {
        success: true as const,
        data: { message: ORGANISATION_MESSAGES.updated, organisation: organisationView(after) },
      };
    },
  );
};

export default settings;
