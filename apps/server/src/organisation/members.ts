import type { Kysely } from 'kysely';
import { recordActivity } from '../db/activities.ts';
import { type Invitation, listOpenInvitations } from '../db/invitations.ts';
import {
  addMembership,
  countMembers,
  findMembershipRole,
  findPrimaryMembership,
  listMembers,
  type MemberRow,
  removeMembership,
  setMembershipRole,
} from '../db/memberships.ts';
import { createOrganisation, findOrganisationById, lockOrganisation } from '../db/organisations.ts';
import type { Database, Role } from '../db/schema.ts';
import { revokeUserSessions } from '../db/sessions.ts';
import { findUserById, type User } from '../db/users.ts';
import { HttpError } from '../plugins/errors.ts';
import { adminRequired, type OrganisationCaller, roleLabel } from './caller.ts';

export const LAST_ADMIN_DEMOTE_MESSAGE =
  'The organisation needs at least one admin: make another member an admin before changing this role.';
export const LAST_ADMIN_REMOVE_MESSAGE =
  'The last admin cannot be removed: make another member an admin first.';
const NO_SUCH_MEMBER = 'No such member in this organisation';

function noSuchMember(): HttpError {
  return new HttpError(404, 'NOT_FOUND', NO_SUCH_MEMBER);
}

/** The team table's rows: members in the order they joined, then open invitations. */
export async function listTeam(
  db: Kysely<Database>,
  organisationId: string,
): Promise<{ members: MemberRow[]; invitations: Invitation[] }> {
  const [members, invitations] = await Promise.all([
    listMembers(db, organisationId),
    listOpenInvitations(db, organisationId),
  ]);
  return { members, invitations };
}

/**
 * Every account belongs to one organisation, so someone removed from theirs gets a new one of
 * their own, as at registration: their account keeps working, without the old organisation's data.
 */
async function giveOwnOrganisation(
  trx: Kysely<Database>,
  user: User,
  leftName: string,
  self: boolean,
  ipAddress: string,
): Promise<void> {
  if ((await findPrimaryMembership(trx, user.id)) !== undefined) return;
  const localPart = user.email.split('@')[0] ?? user.email;
  const organisation = await createOrganisation(trx, {
    name: user.company ?? `${localPart}'s organisation`,
    adminEmail: user.email,
  });
  await addMembership(trx, { userId: user.id, organisationId: organisation.id, role: 'admin' });
  await recordActivity(trx, {
    organisationId: organisation.id,
    userId: user.id,
    username: user.email,
    action: 'create',
    description: self
      ? `Organisation created for the account after it left ${leftName}`
      : `Organisation created for the account after it was removed from ${leftName}`,
    ipAddress,
  });
}

/** An admin changes a member's role; the last admin stays an admin (409 LAST_ADMIN). */
export async function changeMemberRole(
  db: Kysely<Database>,
  caller: OrganisationCaller,
  targetId: string,
  role: Role,
  ipAddress: string,
): Promise<{ target: User; changed: boolean }> {
  return db.transaction().execute(async (trx) => {
    await lockOrganisation(trx, caller.organisationId);
    // checked again under the lock: a concurrent change may have demoted the caller
    if ((await findMembershipRole(trx, caller.userId, caller.organisationId)) !== 'admin') {
      throw adminRequired();
    }
    const current = await findMembershipRole(trx, targetId, caller.organisationId);
    const target = current === undefined ? undefined : await findUserById(trx, targetId);
    if (current === undefined || target === undefined) throw noSuchMember();
    if (current === role) return { target, changed: false };
    if (current === 'admin' && (await countMembers(trx, caller.organisationId, 'admin')) <= 1) {
      throw new HttpError(409, 'LAST_ADMIN', LAST_ADMIN_DEMOTE_MESSAGE);
    }
    await setMembershipRole(trx, targetId, caller.organisationId, role);
    const actor = await findUserById(trx, caller.userId);
    await recordActivity(trx, {
      organisationId: caller.organisationId,
      userId: caller.userId,
      username: actor?.email ?? null,
      action: 'update',
      description: `Role of ${target.email} changed from ${roleLabel(current)} to ${roleLabel(role)}`,
      details: { memberId: targetId, from: current, to: role },
      ipAddress,
    });
    return { target, changed: true };
  });
}

/**
 * Removes a member (an admin removing anyone, or a member leaving): the last admin stays (409
 * LAST_ADMIN), and the removed account is signed out and given an organisation of its own.
 */
export async function removeMember(
  db: Kysely<Database>,
  caller: OrganisationCaller,
  targetId: string,
  ipAddress: string,
): Promise<{ target: User; self: boolean }> {
  const self = targetId === caller.userId;
  if (!self && caller.role !== 'admin') throw adminRequired();
  const target = await db.transaction().execute(async (trx) => {
    await lockOrganisation(trx, caller.organisationId);
    if (!self && (await findMembershipRole(trx, caller.userId, caller.organisationId)) !== 'admin') {
      throw adminRequired();
    }
    const role = await findMembershipRole(trx, targetId, caller.organisationId);
    const user = role === undefined ? undefined : await findUserById(trx, targetId);
    if (role === undefined || user === undefined) throw noSuchMember();
    if (role === 'admin' && (await countMembers(trx, caller.organisationId, 'admin')) <= 1) {
      throw new HttpError(409, 'LAST_ADMIN', LAST_ADMIN_REMOVE_MESSAGE);
    }
    const organisation = await findOrganisationById(trx, caller.organisationId);
    await removeMembership(trx, targetId, caller.organisationId);
    const actor = self ? user : await findUserById(trx, caller.userId);
    await recordActivity(trx, {
      organisationId: caller.organisationId,
      userId: caller.userId,
      username: actor?.email ?? null,
      action: 'delete',
      description: self
        ? `${user.email} (${roleLabel(role)}) left the organisation`
        : `Removed ${user.email} (${roleLabel(role)}) from the organisation`,
      details: { memberId: targetId, role },
      ipAddress,
    });
    await revokeUserSessions(trx, targetId);
    await giveOwnOrganisation(trx, user, organisation?.name ?? 'an organisation', self, ipAddress);
    return user;
  });
  return { target, self };
}
