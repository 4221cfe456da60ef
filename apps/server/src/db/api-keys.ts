import type { Kysely, Selectable } from 'kysely';
import { newId } from './ids.ts';
import type { ApiKeyTable, Database } from './schema.ts';

export type ApiKey = Selectable<ApiKeyTable>;

/** A key as the organisation's list shows it: never the hash. */
export interface ApiKeyListing {
  id: string;
  name: string;
  prefix: string;
  created_by: string | null;
  creator_email: string | null;
  creator_first_name: string | null;
  creator_last_name: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface NewApiKey {
  organisationId: string;
  name: string;
  prefix: string;
  keyHash: string;
  createdBy: string;
}

/** Inserts a key. Throws a UNIQUE violation (see isUniqueViolation) when an active key has the name. */
export async function createApiKey(
  db: Kysely<Database>,
  input: NewApiKey,
  now = new Date(),
): Promise<ApiKey> {
  const row: ApiKey = {
    id: newId(),
    organisation_id: input.organisationId,
    name: input.name,
    prefix: input.prefix,
    key_hash: input.keyHash,
    created_by: input.createdBy,
    created_at: now.toISOString(),
    last_used_at: null,
    revoked_at: null,
  };
  await db.insertInto('api_key').values(row).execute();
  return row;
}

function listingQuery(db: Kysely<Database>) {
  return db
    .selectFrom('api_key')
    .leftJoin('user', 'user.id', 'api_key.created_by')
    .select([
      'api_key.id',
      'api_key.name',
      'api_key.prefix',
      'api_key.created_by',
      'user.email as creator_email',
      'user.first_name as creator_first_name',
      'user.last_name as creator_last_name',
      'api_key.created_at',
      'api_key.last_used_at',
      'api_key.revoked_at',
    ]);
}

/** The organisation's keys, active ones first, newest first within each group. */
export function listApiKeys(db: Kysely<Database>, organisationId: string): Promise<ApiKeyListing[]> {
  return listingQuery(db)
    .where('api_key.organisation_id', '=', organisationId)
    .orderBy((eb) => eb.case().when('api_key.revoked_at', 'is', null).then(0).else(1).end())
    .orderBy('api_key.created_at', 'desc')
    .orderBy('api_key.id')
    .execute();
}

/** One key of the organisation; undefined when it belongs to another one or does not exist. */
export function findApiKeyListing(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
): Promise<ApiKeyListing | undefined> {
  return listingQuery(db)
    .where('api_key.organisation_id', '=', organisationId)
    .where('api_key.id', '=', id)
    .executeTakeFirst();
}

export async function countActiveApiKeys(db: Kysely<Database>, organisationId: string): Promise<number> {
  const row = await db
    .selectFrom('api_key')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('total'))
    .where('organisation_id', '=', organisationId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

export async function activeApiKeyNamed(
  db: Kysely<Database>,
  organisationId: string,
  name: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('api_key')
    .select('id')
    .where('organisation_id', '=', organisationId)
    .where('name', '=', name)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/** The active key with this hash (a lookup through the unique index on key_hash). */
export function findActiveApiKeyByHash(
  db: Kysely<Database>,
  keyHash: string,
): Promise<Pick<ApiKey, 'id' | 'organisation_id' | 'name' | 'last_used_at'> | undefined> {
  return db
    .selectFrom('api_key')
    .select(['id', 'organisation_id', 'name', 'last_used_at'])
    .where('key_hash', '=', keyHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

/** Marks the key revoked; false when it already was (or is not the organisation's). */
export async function revokeApiKey(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
  now = new Date(),
): Promise<boolean> {
  const result = await db
    .updateTable('api_key')
    .set({ revoked_at: now.toISOString() })
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Records a use of the key. */
export async function touchApiKey(db: Kysely<Database>, id: string, now = new Date()): Promise<void> {
  await db.updateTable('api_key').set({ last_used_at: now.toISOString() }).where('id', '=', id).execute();
}
