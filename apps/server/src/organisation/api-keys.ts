import type { Kysely } from 'kysely';
import { API_KEY_MESSAGES, API_KEYS_PER_ORGANISATION } from '@rfckit/standards';
import { type ApiKeyVerifier, generateApiKey } from '../auth/api-keys.ts';
import { recordActivity } from '../db/activities.ts';
import {
  activeApiKeyNamed,
  type ApiKeyListing,
  countActiveApiKeys,
  createApiKey,
  findApiKeyListing,
  listApiKeys,
  revokeApiKey,
} from '../db/api-keys.ts';
import { isUniqueViolation } from '../db/errors.ts';
import type { Database } from '../db/schema.ts';
import type { User } from '../db/users.ts';
import { HttpError } from '../plugins/errors.ts';

/** The admin managing the keys, and their organisation. */
export interface KeyAdmin {
  user: User;
  organisationId: string;
}

function notFound(): HttpError {
  return new HttpError(404, 'NOT_FOUND', 'API key not found');
}

function nameTaken(): HttpError {
  return new HttpError(409, 'API_KEY_NAME_TAKEN', API_KEY_MESSAGES.nameTaken);
}

/** Active keys first, then revoked ones; newest first. */
export function listOrganisationApiKeys(
  db: Kysely<Database>,
  organisationId: string,
): Promise<ApiKeyListing[]> {
  return listApiKeys(db, organisationId);
}

/**
 * Creates a key under a name no active key has, within the per-organisation limit. The key itself
 * is answered this once; the database keeps its SHA-256 and prefix.
 */
export async function createOrganisationApiKey(
  db: Kysely<Database>,
  { user, organisationId }: KeyAdmin,
  rawName: string,
  ipAddress: string,
): Promise<{ listing: ApiKeyListing; key: string }> {
  const name = rawName.trim();
  if (await activeApiKeyNamed(db, organisationId, name)) throw nameTaken();
  if ((await countActiveApiKeys(db, organisationId)) >= API_KEYS_PER_ORGANISATION) {
    throw new HttpError(409, 'TOO_MANY_API_KEYS', API_KEY_MESSAGES.tooMany);
  }
  const generated = generateApiKey();
  let created;
  try {
    created = await createApiKey(db, {
      organisationId,
      name,
      prefix: generated.prefix,
      keyHash: generated.hash,
      createdBy: user.id,
    });
  } catch (error) {
    // a concurrent request took the name between the check and the insert
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
  await recordActivity(db, {
    organisationId,
    userId: user.id,
    username: user.email,
    action: 'create',
    description: `API key "${name}" created (${generated.prefix}…)`,
    details: { apiKeyId: created.id, prefix: generated.prefix },
    ipAddress,
  });
  const listing = await findApiKeyListing(db, organisationId, created.id);
  if (!listing) throw notFound();
  return { listing, key: generated.key };
}

/** Revokes a key of the organisation; revoking a revoked key answers it again. */
export async function revokeOrganisationApiKey(
  db: Kysely<Database>,
  verifier: Pick<ApiKeyVerifier, 'forget'>,
  { user, organisationId }: KeyAdmin,
  id: string,
  ipAddress: string,
): Promise<ApiKeyListing> {
  const existing = await findApiKeyListing(db, organisationId, id);
  // another organisation's key is as absent as one that never was
  if (!existing) throw notFound();
  const revokedNow = await revokeApiKey(db, organisationId, id);
  // also when it was revoked before: this process may still hold it from another's revocation
  verifier.forget(id);
  if (revokedNow) {
    await recordActivity(db, {
      organisationId,
      userId: user.id,
      username: user.email,
      action: 'delete',
      description: `API key "${existing.name}" revoked (${existing.prefix}…)`,
      details: { apiKeyId: id, prefix: existing.prefix },
      ipAddress,
    });
  }
  const revoked = await findApiKeyListing(db, organisationId, id);
  if (!revoked) throw notFound();
  return revoked;
}
