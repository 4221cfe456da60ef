import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loadOrganisation, updateOrganisationSettings } from '../../organisation/settings.ts';
import { errorEnvelopeSchema, successEnvelope } from '../../plugins/errors.ts';
import { ORGANISATION_MESSAGES, updateOrganisationBody } from '@rfckit/standards';
import { roleSchema } from '../auth/schemas.ts';
import { requireAdmin, requireMember } from './access.ts';
import { bearer, messageWith, organisationSchema, organisationView } from './schemas.ts';

/** Organisation information (spec part 1 §2 Organisation Settings): any member reads it, admins change it. */
const settings: FastifyPluginAsyncZod = async (app) => {
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
      const organisation = await loadOrganisation(app.db, caller.organisationId);
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
      const after = await updateOrganisationSettings(app.db, caller, request.body, request.ip);
      reply.header('cache-control', 'no-store');
      return {
        success: true as const,
        data: { message: ORGANISATION_MESSAGES.updated, organisation: organisationView(after) },
      };
    },
  );
};

export default settings;
