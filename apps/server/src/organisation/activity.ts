import type { Kysely } from 'kysely';
import { ACTIVITY_EXPORT_MAX_ROWS, type ActivityFilters } from '@rfckit/standards';
import {
  activityBatches,
  activityUsers,
  type ActivityRow,
  type ActivityScope,
  type ActivitySummary,
  countActivities,
  listActivities,
  summarizeActivities,
} from '../db/activities.ts';
import { findOrganisationById } from '../db/organisations.ts';
import type { Database } from '../db/schema.ts';
import { csvRow, UTF8_BOM } from '../export/csv.ts';
import { fullName, type OrganisationCaller } from './caller.ts';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 24 * 60 * 60 * 1000;
const EXPORT_BATCH = 1000;

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
export function activityScope(caller: OrganisationCaller, filters: ActivityFilters): ActivityScope | null {
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

/** One page of the records the caller may see, newest first, and how many match. */
export async function activityPage(
  db: Kysely<Database>,
  caller: OrganisationCaller,
  filters: ActivityFilters,
  page: number,
  limit: number,
): Promise<{ rows: ActivityRow[]; total: number }> {
  const scope = activityScope(caller, filters);
  return scope === null ? { rows: [], total: 0 } : listActivities(db, { ...scope, page, limit });
}

/** The activity page's counters under the filters. */
export async function activitySummary(
  db: Kysely<Database>,
  caller: OrganisationCaller,
  filters: ActivityFilters,
): Promise<ActivitySummary> {
  const scope = activityScope(caller, filters);
  return scope === null
    ? { totalRecords: 0, last24Hours: 0, logins: 0, users: 0 }
    : summarizeActivities(db, scope);
}

/** The users of the log for its user filter: everyone for admins, members only themselves. */
export async function activityFilterUsers(
  db: Kysely<Database>,
  caller: OrganisationCaller,
): Promise<{ id: string; email: string; name: string | null }[]> {
  const users = await activityUsers(
    db,
    caller.organisationId,
    caller.role === 'admin' ? undefined : caller.userId,
  );
  return users.map((user) => ({
    id: user.id,
    email: user.email,
    name: fullName(user.firstName, user.lastName),
  }));
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

export interface ActivityExport {
  fileName: string;
  /** Records matching the filters. */
  total: number;
  /** Rows in the file: at most ACTIVITY_EXPORT_MAX_ROWS. */
  rows: number;
  /** The CSV text, read batch by batch as it is consumed. */
  chunks: AsyncGenerator<string>;
}

/** The filtered log as RFC 4180 CSV with a byte order mark, newest first, cut at the export limit. */
export async function activityExport(
  db: Kysely<Database>,
  caller: OrganisationCaller,
  filters: ActivityFilters,
): Promise<ActivityExport> {
  const scope = activityScope(caller, filters);
  const organisation = await findOrganisationById(db, caller.organisationId);
  const total = scope === null ? 0 : await countActivities(db, scope);
  const rows = Math.min(total, ACTIVITY_EXPORT_MAX_ROWS);
  const day = new Date().toISOString().slice(0, 10);
  const fileName = `activity-${fileNamePart(organisation?.name ?? '')}-${day}.csv`;
  const batches: AsyncGenerator<ActivityRow[]> =
    scope === null
      ? (async function* () {})()
      : activityBatches(db, scope, { batchSize: EXPORT_BATCH, maxRows: rows });
  return { fileName, total, rows, chunks: csvChunks(batches) };
}
