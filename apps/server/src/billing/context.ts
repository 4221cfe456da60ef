import type { Kysely } from 'kysely';
import { recordActivity } from '../db/activities.ts';
import { findFreePlan, findPlanById, type Plan } from '../db/plans.ts';
import type { ActivityAction, Database, SubscriptionStatus } from '../db/schema.ts';
import type { Subscription } from '../db/subscriptions.ts';
import type { PaymentProvider } from './payment-provider.ts';

/** What every billing operation works with: the database, the payment provider and the clock. */
export interface BillingContext {
  db: Kysely<Database>;
  provider: PaymentProvider;
  now: () => Date;
}

/** Who acts: a signed-in admin, or the system (renewals) with nulls. */
export interface Actor {
  userId: string | null;
  username: string | null;
  ipAddress: string | null;
}

export const SYSTEM: Actor = { userId: null, username: null, ipAddress: null };

/** A subscription as last seen: what a compare-and-set expects it still to be. */
export type Expected = { id: string; status: SubscriptionStatus; updatedAt: string };

/** One line of the organisation's activity log, in the caller's transaction. */
export async function audit(
  db: Kysely<Database>,
  organisationId: string,
  actor: Actor,
  action: ActivityAction,
  description: string,
  details?: Record<string, unknown>,
): Promise<void> {
  await recordActivity(db, {
    organisationId,
    userId: actor.userId,
    username: actor.username,
    action,
    description,
    details: details ?? null,
    ipAddress: actor.ipAddress,
  });
}

/** The plan a subscription refers to; a missing one is a broken database. */
export async function planOf(context: BillingContext, id: string): Promise<Plan> {
  const plan = await findPlanById(context.db, id);
  if (plan === undefined) throw new Error(`subscription refers to a missing plan ${id}`);
  return plan;
}

/** The plan that costs nothing, which every subscription falls back to. */
export async function freePlan(context: BillingContext): Promise<Plan> {
  const plan = await findFreePlan(context.db);
  if (plan === undefined) throw new Error('no active plan costs nothing: billing needs a free plan');
  return plan;
}

/** What a compare-and-set on this subscription expects. */
export function expected(subscription: Subscription): Expected {
  return { id: subscription.id, status: subscription.status, updatedAt: subscription.updated_at };
}
