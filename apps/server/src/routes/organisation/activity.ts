import { Readable } from 'node:stream';
import {
  ACTIVITY_ACTIONS,
  ACTIVITY_EXPORT_MAX_ROWS,
  ACTIVITY_PAGE_SIZE,
  activityFilterQuery,
  activityFilters,
  activityListQuery,
  type ActivityFilters,
} from '@rfckit/standards';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  activityBatches,
  activityUsers,
  countActivities,
  listActivities,
  summarizeActivities,
  type ActivityRow,
  type ActivityScope,
} from '../../db/activities.ts';
import { findOrganisationById } from '../../db/organisations.ts';
import { csvRow, UTF8_BOM } from '../../export/csv.ts';
import { errorEnvelopeSchema, successEnvelope } from '../../plugins/errors.ts';
import { requireMember, type OrganisationCaller } from './access.ts';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 24 * 60 * 60 * 1000;
const EXPORT_BATCH = 1000;

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

function lowerBound(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  return new Date(DATE_ONLY.test(value) ? `${value}T00:00:00.000Z` : value).toISOString();
}

/** Exclusive upper bound: the day after a date (so the whole day is included), or just after an instant. */
function upperBound(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const time = DATE_ONLY.test(value) ? Date.parse(`${value}T00:00:00.000Z`) + DAY_MS : Date.parse(value) + 1;
  return new Date(time).toISOString();
}

/**
 * The records the caller may see under the filters: admins the whole organisation, members their
 * own, by the role the membership has now (not the one in a token up to 15 minutes old). Null when
 * nothing can match (a member asking for someone else's records gets none, not an error).
 */
function scopeFor(caller: OrganisationCaller, filters: ActivityFilters): ActivityScope | null {
  let userId = filters.userId;
  if (caller.role !== 'admin') {
    if (userId !== undefined && userId !== caller.userId) return null;
    userId = caller.userId;
  }
  const from = lowerBound(filters.dateFrom);
  const before = upperBound(filters.dateTo);
  if (from !== undefined && before !== undefined && from >= before) return null;
  return {
    organisationId: caller.organisationId,
    ...(userId === undefined ? {} : { userId }),
    ...(filters.action === undefined ? {} : { action: filters.action }),
    ...(from === undefined ? {} : { from }),
    ...(before === undefined ? {} : { before }),
  };
}

const CSV_COLUMNS = [
  'id',
  'created_at',
  'action',
  'username',
  'organisation_name',
  'description',
  'details',
  'ip_address',
] as const;

function csvLine(row: ActivityRow): string {
  return csvRow(CSV_COLUMNS.map((column) => row[column]));
}

/** The organisation's name as a file-name part: ASCII letters, digits and dashes. */
function fileNamePart(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase()
    .slice(0, 40)
    .replace(/-+$/, '');
  return slug === '' ? 'organisation' : slug;
}

async function* csvChunks(rows: AsyncGenerator<ActivityRow[]>): AsyncGenerator<string> {
  yield UTF8_BOM + csvRow(CSV_COLUMNS);
  for await (const batch of rows) yield batch.map(csvLine).join('');
}

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
      const scope = scopeFor(await requireMember(app, request, reply), activityFilters(request.query));
      const { rows, total } =
        scope === null ? { rows: [], total: 0 } : await listActivities(app.db, { ...scope, page, limit });
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
      const scope = scopeFor(await requireMember(app, request, reply), activityFilters(request.query));
      const summary =
        scope === null
          ? { totalRecords: 0, last24Hours: 0, logins: 0, users: 0 }
          : await summarizeActivities(app.db, scope);
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
      const users = await activityUsers(
        app.db,
        caller.organisationId,
        caller.role === 'admin' ? undefined : caller.userId,
      );
      reply.header('cache-control', 'no-store');
      return {
        success: true as const,
        data: {
          users: users.map((user) => {
            const name = [user.firstName, user.lastName]
              .filter((part) => part !== null && part.trim() !== '')
              .join(' ');
            return { id: user.id, email: user.email, name: name === '' ? null : name };
          }),
        },
      };
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
      const scope = scopeFor(caller, activityFilters(request.query));
      const organisation = await findOrganisationById(app.db, caller.organisationId);
      const total = scope === null ? 0 : await countActivities(app.db, scope);
      const rows = Math.min(total, ACTIVITY_EXPORT_MAX_ROWS);
      const day = new Date().toISOString().slice(0, 10);
      const fileName = `activity-${fileNamePart(organisation?.name ?? '')}-${day}.csv`;
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .header('x-total-records', String(total))
        .header('x-export-rows', String(rows))
        .header('x-export-truncated', String(total > rows));
      const batches: AsyncGenerator<ActivityRow[]> =
        scope === null
          ? (async function* () {})()
          : activityBatches(app.db, scope, { batchSize: EXPORT_BATCH, maxRows: rows });
      // streamed batch by batch: memory stays at one batch, whatever the export's size. The typed
      // reply only knows the JSON schemas; a stream is sent as it is.
      return (reply as FastifyReply).send(Readable.from(csvChunks(batches)));
    },
  );
};

export default activity;
