import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_KEY_MESSAGES, API_KEYS_PER_ORGANISATION, createApiKeyBody } from '@rfckit/standards';
import type { ApiKeyListing } from '../../db/api-keys.ts';
import { findUserById } from '../../db/users.ts';
import {
  createOrganisationApiKey,
  type KeyAdmin,
  listOrganisationApiKeys,
  revokeOrganisationApiKey,
} from '../../organisation/api-keys.ts';
import { errorEnvelopeSchema, HttpError, successEnvelope } from '../../plugins/errors.ts';
import { requireMember } from './access.ts';

const bearer = [{ bearerAuth: [] }];

const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z
    .string()
    .describe('The first characters of the key, to tell keys apart; the rest is never stored'),
  createdBy: z
    .object({ id: z.string(), email: z.string(), name: z.string().nullable() })
    .nullable()
    .describe('The admin who created the key; null once that account is deleted'),
  createdAt: z.string(),
  lastUsedAt: z
    .string()
    .nullable()
    .describe('Last call with the key, recorded at most once a minute; null if never used'),
  revokedAt: z.string().nullable(),
  revoked: z.boolean(),
});

const keyParams = z.object({
  id: z
    .string()
    .max(100, 'id is too long')
    .regex(/^[A-Za-z0-9-]+$/, 'id must be an API key id'),
});

function apiKeyView(row: ApiKeyListing): z.infer<typeof apiKeySchema> {
  const name = [row.creator_first_name, row.creator_last_name].filter(Boolean).join(' ');
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdBy:
      row.created_by === null || row.creator_email === null
        ? null
        : { id: row.created_by, email: row.creator_email, name: name === '' ? null : name },
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
    revoked: row.revoked_at !== null,
  };
}

/**
 * The organisation's API keys (beyond the spec, for automation): admins list, create and revoke
 * them. A key is shown once, in the creation answer; the database keeps its SHA-256 and prefix.
 * A key itself is refused here (401) like on every route but the tools.
 */
const apiKeys: FastifyPluginAsyncZod = async (app) => {
  /** The caller, when they are an admin of their organisation now (not as of their token). */
  async function requireKeyAdmin(request: FastifyRequest, reply: FastifyReply): Promise<KeyAdmin> {
    const caller = await requireMember(app, request, reply);
    if (caller.role !== 'admin') throw new HttpError(403, 'ADMIN_REQUIRED', API_KEY_MESSAGES.adminOnly);
    const user = await findUserById(app.db, caller.userId);
    if (!user) throw new HttpError(401, 'UNAUTHORIZED', 'Authentication required');
    return { user, organisationId: caller.organisationId };
  }

  app.get(
    '/organisation/api-keys',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Organisation'],
        summary: "The organisation's API keys",
        description:
          'Admins only. Active keys first, then revoked ones; newest first. Never the keys themselves.',
        security: bearer,
        response: {
          200: successEnvelope(z.object({ apiKeys: z.array(apiKeySchema) })),
          '4xx': errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const { organisationId } = await requireKeyAdmin(request, reply);
      const rows = await listOrganisationApiKeys(app.db, organisationId);
      reply.header('cache-control', 'no-store');
      return { success: true as const, data: { apiKeys: rows.map(apiKeyView) } };
    },
  );

  app.post(
    '/organisation/api-keys',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Organisation'],
        summary: 'Create an API key',
        description:
          'Admins only. Answers the key (`rfk_` and 43 characters) once: store it, it cannot be shown again. ' +
          'Send it as `Authorization: Bearer <key>` to the tool routes; every other route refuses it with 401. ' +
          `At most ${API_KEYS_PER_ORGANISATION} active keys per organisation.`,
        security: bearer,
        body: createApiKeyBody,
        response: {
          201: successEnvelope(
            z.object({
              message: z.string(),
              apiKey: apiKeySchema,
              key: z.string().describe('The key itself, shown this once'),
            }),
          ),
          '4xx': errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const admin = await requireKeyAdmin(request, reply);
      const { listing, key } = await createOrganisationApiKey(app.db, admin, request.body.name, request.ip);
      reply.code(201).header('cache-control', 'no-store');
      return {
        success: true as const,
        data: { message: API_KEY_MESSAGES.created, apiKey: apiKeyView(listing), key },
      };
    },
  );

  app.delete(
    '/organisation/api-keys/:id',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Organisation'],
        summary: 'Revoke an API key',
        description:
          'Admins only. The key stops working at once on this server and within 5 seconds (at once with Redis) on every other one. ' +
          'Revoking a revoked key answers the same again.',
        security: bearer,
        params: keyParams,
        response: {
          200: successEnvelope(z.object({ message: z.string(), apiKey: apiKeySchema })),
          '4xx': errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const admin = await requireKeyAdmin(request, reply);
      const revoked = await revokeOrganisationApiKey(
        app.db,
        app.apiKeys,
        admin,
        request.params.id,
        request.ip,
      );
      reply.header('cache-control', 'no-store');
      return {
        success: true as const,
        data: { message: API_KEY_MESSAGES.revoked, apiKey: apiKeyView(revoked) },
      };
    },
  );
};

export default apiKeys;
