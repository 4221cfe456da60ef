import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listActivities } from '../../db/activities.ts';
import { errorEnvelopeSchema, successEnvelope } from '../../plugins/errors.ts';

export const ACTIVITY_ACTIONS = ['login', 'logout', 'create', 'update', 'delete'] as const;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

const blankToUndefined = (value: unknown) => (value === '' ? undefined : value);

function integer(name: string, min: number, max: number) {
  return z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^\d{1,9}$/, `${name} must be a whole number`)
      .transform(Number)
      .refine((value) => value >= min && value <= max, `${name} must be between ${min} and ${max}`)
      .optional(),
  );
}

/** A calendar day (UTC) or an ISO 8601 date-time; anything else is a 400. */
function dateBound(name: string) {
  return z.preprocess(
    blankToUndefined,
    z
      .string()
      .max(40)
      .refine(
        (value) =>
          (DATE_ONLY.test(value) || z.iso.datetime({ offset: true }).safeParse(value).success) &&
          !Number.isNaN(Date.parse(value)),
        `${name} must be a date (YYYY-MM-DD) or an ISO 8601 date-time`,
      )
      .optional(),
  );
}

const optionalId = z.preprocess(
  blankToUndefined,
  z
    .string()
    .max(100, 'userId is too long')
    .regex(/^[A-Za-z0-9-]+$/, 'userId must be a user id')
    .optional(),
);

export const activityQuery = z.object({
  page: integer('page', 1, 1_000_000),
  limit: integer('limit', 1, 100).describe('Records per page, default 20, at most 100'),
  dateFrom: dateBound('dateFrom').describe('From this day or instant (inclusive)'),
  dateTo: dateBound('dateTo').describe('Up to this day (inclusive, whole day) or instant'),
  userId: optionalId,
  action: z.preprocess(
    blankToUndefined,
    z.enum(ACTIVITY_ACTIONS, { error: `action must be one of ${ACTIVITY_ACTIONS.join(', ')}` }).optional(),
  ),
  start_date: dateBound('start_date').describe('Same as dateFrom'),
  end_date: dateBound('end_date').describe('Same as dateTo'),
  user_id: optionalId.describe('Same as userId'),
});

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

function lowerBound(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  return new Date(DATE_ONLY.test(value) ? `${value}T00:00:00.000Z` : value).toISOString();
}

/** Exclusive upper bound: the day after a date, or just after an instant. */
function upperBound(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const time = DATE_ONLY.test(value) ? Date.parse(`${value}T00:00:00.000Z`) + DAY_MS : Date.parse(value) + 1;
  return new Date(time).toISOString();
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
        description: 'Newest first. Admins see the whole organisation; members only their own records.',
        security: [{ bearerAuth: [] }],
        querystring: activityQuery,
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
      const caller = request.user!;
      const query = request.query;
      const page = query.page ?? 1;
      const limit = query.limit ?? 20;
      const requested = query.userId ?? query.user_id;
      let userId = requested;
      if (caller.role !== 'admin') {
        // a member asking for someone else's records gets none, not an error
        userId = requested === undefined || requested === caller.id ? caller.id : '';
      }
      const from = lowerBound(query.dateFrom ?? query.start_date);
      const before = upperBound(query.dateTo ?? query.end_date);
      const { rows, total } =
        userId === ''
          ? { rows: [], total: 0 }
          : await listActivities(app.db, {
              organisationId: caller.organisationId,
              ...(userId === undefined ? {} : { userId }),
              ...(query.action === undefined ? {} : { action: query.action }),
              ...(from === undefined ? {} : { from }),
              ...(before === undefined ? {} : { before }),
              page,
              limit,
            });
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
};

export default activity;
