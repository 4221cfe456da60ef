import { Readable } from 'node:stream';
import {
  ACTIVITY_ACTIONS,
  ACTIVITY_EXPORT_MAX_ROWS,
  ACTIVITY_PAGE_SIZE,
  activityFilterQuery,
  activityFilters,
  activityListQuery,
} from '@rfckit/standards';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  activityExport,
  activityFilterUsers,
  activityPage,
  activitySummary,
} from '../../organisation/activity.ts';
import { errorEnvelopeSchema, successEnvelope } from '../../plugins/errors.ts';
import { requireMember } from './access.ts';

const activitySchema = z.object({
  id: z.string(),
  action: z.enum(ACTIVITY_ACTIONS),
  username: z.string().nullable(),
  organisation_name: z.string(),
  created_at: z.string(),
  description: z.string(),
  details: z.string().optional().describe('JSON text with structured detail, when there is any'),
  ip_address: z.string().nullable(),
});

const summarySchema = z.object({
  totalRecords: z.number().int().describe('Records matching the filters'),
  last24Hours: z.number().int().describe('Of those, the ones of the last 24 hours'),
  logins: z.number().int().describe('Of those, sign-ins'),
  users: z.number().int().describe('Distinct users among them'),
});

const activityUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable().describe('First and last name, when the user gave them'),
});

/** The organisation's audit log: admins see everyone's records, members their own. */
const activity: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/organisation/activity',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['Organisation'],
        summary: "The organisation's activity log",
        description:
          'Newest first. Admins see the whole organisation; members only their own records. ' +
          'A date-only dateFrom/dateTo is a UTC day, and dateTo includes all of it.',
        security: [{ bearerAuth: [] }],
        querystring: activityListQuery,
        response: {
          200: successEnvelope(
            z.object({
              activities: z.array(activitySchema),
              totalPages: z.number().int(),
              totalRecords: z.number().int(),
            }),
          ),
          '4xx': errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const page = request.query.page ?? 1;
      const limit = request.query.limit ?? ACTIVITY_PAGE_SIZE;
      const caller = await requireMember(app, request, reply);
      const { rows, total } = await activityPage(app.db, caller, activityFilters(request.query), page, limit);
      reply.header('cache-control', 'no-store');
      return {
        success: true as const,
        data: {
          activities: rows.map((row) => ({
            id: row.id,
            action: row.action,
            username: row.username,
            organisation_name: row.organisation_name,
            created_at: row.created_at,
            description: row.description,
            ...(row.details === null ? {} : { details: row.details }),
            ip_address: row.ip_address,
          })),
          totalPages: Math.ceil(total / limit),
          totalRecords: total,
        },
      };
    },
  );

  app.get(
    '/organisation/activity/summary',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['Organisation'],
        summary: "Counters of the activity page, under the list's filters",
        security: [{ bearerAuth: [] }],
        querystring: activityFilterQuery,
        response: { 200: successEnvelope(summarySchema), '4xx': errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const caller = await requireMember(app, request, reply);
      const summary = await activitySummary(app.db, caller, activityFilters(request.query));
      reply.header('cache-control', 'no-store');
      return { success: true as const, data: summary };
    },
  );

  app.get(
    '/organisation/activity/users',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['Organisation'],
        summary: 'The users who appear in the activity log, for its user filter',
        description: "Admins get everyone in their organisation's log; members only themselves.",
        security: [{ bearerAuth: [] }],
        response: {
          200: successEnvelope(z.object({ users: z.array(activityUserSchema) })),
          '4xx': errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const caller = await requireMember(app, request, reply);
      const users = await activityFilterUsers(app.db, caller);
      reply.header('cache-control', 'no-store');
      return { success: true as const, data: { users } };
    },
  );

  app.get(
    '/organisation/activity/export',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['Organisation'],
        summary: 'The filtered activity log as CSV',
        description:
          'Same filters and visibility as the list, newest first, RFC 4180 with a UTF-8 byte order mark. ' +
          `At most ${ACTIVITY_EXPORT_MAX_ROWS} rows: X-Total-Records gives the matching records, ` +
          'X-Export-Rows the rows in the file and X-Export-Truncated says whether the file stops short. ' +
          'Cells starting with =, +, -, @, tab or CR are prefixed with a single quote.',
        security: [{ bearerAuth: [] }],
        querystring: activityFilterQuery,
        produces: ['text/csv'],
        response: {
          200: {
            description: 'text/csv; charset=utf-8, as an attachment',
            content: { 'text/csv': { schema: z.string() } },
          },
          '4xx': errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const caller = await requireMember(app, request, reply);
      const { fileName, total, rows, chunks } = await activityExport(
        app.db,
        caller,
        activityFilters(request.query),
      );
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .header('x-total-records', String(total))
        .header('x-export-rows', String(rows))
        .header('x-export-truncated', String(total > rows));
      // streamed batch by batch: memory stays at one batch, whatever the export's size. The typed
      // reply only knows the JSON schemas; a stream is sent as it is.
      return (reply as FastifyReply).send(Readable.from(chunks));
    },
  );
};

export default activity;
