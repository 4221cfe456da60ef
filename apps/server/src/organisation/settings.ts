import type { Kysely } from 'kysely';
import { normaliseDomain, normaliseEmail, type UpdateOrganisationBody } from '@rfckit/standards';
import { recordActivity } from '../db/activities.ts';
import {
  findOrganisationById,
  type Organisation,
  type OrganisationChanges,
  updateOrganisation,
} from '../db/organisations.ts';
import type { Database } from '../db/schema.ts';
import { findUserById } from '../db/users.ts';
import { HttpError } from '../plugins/errors.ts';
import type { OrganisationCaller } from './caller.ts';

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

/** The organisation, or 404 NOT_FOUND. */
export async function loadOrganisation(db: Kysely<Database>, id: string): Promise<Organisation> {
  const organisation = await findOrganisationById(db, id);
  if (!organisation) throw new HttpError(404, 'NOT_FOUND', 'No such organisation');
  return organisation;
}

/**
 * Applies an admin's change to the organisation information (spec part 1 §2 Organisation
 * Settings): left-out fields stay, null or "" clears one, and only real changes are recorded.
 */
export async function updateOrganisationSettings(
  db: Kysely<Database>,
  caller: OrganisationCaller,
  body: UpdateOrganisationBody,
  ipAddress: string,
): Promise<Organisation> {
  const before = await loadOrganisation(db, caller.organisationId);
  const clean = (value: string | null | undefined, normalise: (text: string) => string = (text) => text) =>
    value === undefined ? undefined : value === null || value.trim() === '' ? null : normalise(value.trim());
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
  if (changed.length === 0) return before;
  await db.transaction().execute(async (trx) => {
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
      ipAddress,
    });
  });
  return loadOrganisation(db, caller.organisationId);
}
