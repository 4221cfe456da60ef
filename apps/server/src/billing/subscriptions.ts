import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../db/errors.ts';
import { newId } from '../db/ids.ts';
import { listOpenInvoices, updateInvoice } from '../db/invoices.ts';
import { findDefaultPaymentMethod } from '../db/payment-methods.ts';
import type { Plan } from '../db/plans.ts';
import type { Database } from '../db/schema.ts';
import {
  findSubscription,
  insertSubscription,
  listDueSubscriptions,
  type Subscription,
  type SubscriptionChanges,
  updateSubscriptionIf,
} from '../db/subscriptions.ts';
import { HttpError } from '../plugins/errors.ts';
import {
  type Actor,
  audit,
  type BillingContext,
  type Expected,
  expected,
  freePlan,
  planOf,
  SYSTEM,
} from './context.ts';
import { charge, openInvoice, paymentSummary, settleInvoice } from './invoices.ts';
import { BILLING_MESSAGES, cardLabel, money } from './messages.ts';
import type { ChargeResult } from './payment-provider.ts';
import { addInterval, isoDay } from './periods.ts';

/** A claim older than this belongs to a change that died half-way. */
export const STALE_CLAIM_MS = 2 * 60 * 1000;
/** Most periods caught up in one settlement (a server that was down for years). */
const MAX_CATCH_UP = 36;

export interface SubscriptionState {
  subscription: Subscription;
  plan: Plan;
  /** The plan a scheduled change moves to at the period's end. */
  scheduledPlan: Plan | null;
}

/** The organisation's subscription, created as Free on first read and brought up to date. */
export async function subscriptionOf(
  context: BillingContext,
  organisationId: string,
): Promise<SubscriptionState> {
  const subscription = await settle(context, organisationId);
  return stateOf(context, subscription);
}

/** Settles every subscription whose period has ended (the periodic sweep). Returns how many. */
export async function settleDue(context: BillingContext, limit = 100): Promise<number> {
  const due = await listDueSubscriptions(context.db, context.now().toISOString(), limit);
  for (const subscription of due) await settle(context, subscription.organisation_id);
  return due.length;
}

/** The subscription with its plan and, when a change to Free is scheduled, that plan. */
export async function stateOf(
  context: BillingContext,
  subscription: Subscription,
): Promise<SubscriptionState> {
  return {
    subscription,
    plan: await planOf(context, subscription.plan_id),
    scheduledPlan: subscription.canceled_at === null ? null : await freePlan(context),
  };
}

/** The organisation's subscription row; one without a row starts on the Free plan. */
export async function ensureSubscription(
  context: BillingContext,
  organisationId: string,
): Promise<Subscription> {
  const found = await findSubscription(context.db, organisationId);
  if (found !== undefined) return found;
  const free = await freePlan(context);
  const now = context.now();
  const row: Subscription = {
    id: newId(),
    organisation_id: organisationId,
    plan_id: free.id,
    status: 'active',
    amount_minor: 0,
    currency: free.currency,
    current_period_start: now.toISOString(),
    current_period_end: addInterval(now, free.billing_interval).toISOString(),
    canceled_at: null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  try {
    await insertSubscription(context.db, row);
    return row;
  } catch (error) {
    // another request created it first
    if (!isUniqueViolation(error)) throw error;
    const raced = await findSubscription(context.db, organisationId);
    if (raced === undefined) throw error;
    return raced;
  }
}

/** Brings the subscription up to date: ended periods renew, scheduled changes and overdue endings apply. */
export async function settle(context: BillingContext, organisationId: string): Promise<Subscription> {
  let subscription = await ensureSubscription(context, organisationId);
  for (let step = 0; step < MAX_CATCH_UP; step += 1) {
    const now = context.now();
    if (subscription.status === 'incomplete') {
      if (now.getTime() - Date.parse(subscription.updated_at) < STALE_CLAIM_MS) return subscription;
      await abandon(context, subscription, now);
    } else if (subscription.current_period_end > now.toISOString()) {
      return subscription;
    } else {
      const plan = await planOf(context, subscription.plan_id);
      if (subscription.canceled_at !== null) {
        await switchTo(
          context,
          subscription,
          await freePlan(context),
          new Date(subscription.current_period_end),
          SYSTEM,
          'the scheduled change took effect at the end of the paid period',
        );
      } else if (plan.price_minor === 0) {
        await roll(context, subscription, plan, now);
      } else if (subscription.status === 'past_due') {
        await endOverdue(context, subscription, now);
      } else {
        await renew(context, subscription, plan);
      }
    }
    subscription = await ensureSubscription(context, organisationId);
  }
  return subscription;
}

/** A free period that ended starts the next one; nothing is billed. */
async function roll(
  context: BillingContext,
  subscription: Subscription,
  plan: Plan,
  now: Date,
): Promise<void> {
  let start = new Date(subscription.current_period_end);
  let end = addInterval(start, plan.billing_interval);
  while (end <= now) {
    start = end;
    end = addInterval(start, plan.billing_interval);
  }
  await updateSubscriptionIf(context.db, expected(subscription), {
    current_period_start: start.toISOString(),
    current_period_end: end.toISOString(),
    updated_at: now.toISOString(),
  });
}

/**
 * Moves to another plan without a charge (a free one), the new period starting at `start` (or
 * the latest period boundary after it that has passed).
 */
export async function switchTo(
  context: BillingContext,
  subscription: Subscription,
  target: Plan,
  start: Date,
  actor: Actor,
  reason: string | null,
  extra?: (trx: Kysely<Database>) => Promise<void>,
): Promise<Subscription> {
  const current = await planOf(context, subscription.plan_id);
  const now = context.now();
  let periodStart = start;
  let end = addInterval(periodStart, target.billing_interval);
  while (end <= now) {
    periodStart = end;
    end = addInterval(periodStart, target.billing_interval);
  }
  return updateSubscription(
    context,
    subscription,
    {
      plan_id: target.id,
      status: 'active',
      amount_minor: target.price_minor,
      currency: target.currency,
      current_period_start: periodStart.toISOString(),
      current_period_end: end.toISOString(),
      canceled_at: null,
      updated_at: now.toISOString(),
    },
    async (trx) => {
      await extra?.(trx);
      await audit(
        trx,
        subscription.organisation_id,
        actor,
        'update',
        `Plan changed from ${current.name} to ${target.name}${reason === null ? '' : `: ${reason}`}`,
        { from: current.id, to: target.id },
      );
    },
  );
}

/** An overdue subscription whose next period also ended unpaid returns to Free. */
async function endOverdue(context: BillingContext, subscription: Subscription, now: Date): Promise<void> {
  const free = await freePlan(context);
  const organisationId = subscription.organisation_id;
  const reason = 'the overdue invoice was not paid by the end of the following period';
  await switchTo(
    context,
    subscription,
    free,
    new Date(subscription.current_period_end),
    SYSTEM,
    reason,
    async (trx) => {
      for (const invoice of await listOpenInvoices(trx, organisationId)) {
        await updateInvoice(trx, invoice.id, { status: 'uncollectible' });
        await audit(
          trx,
          organisationId,
          SYSTEM,
          'update',
          `Invoice ${invoice.number} marked uncollectible: still unpaid on ${isoDay(now)}`,
        );
      }
    },
  );
}

/** Charges the default card for the next period; on failure the subscription is overdue. */
async function renew(context: BillingContext, subscription: Subscription, plan: Plan): Promise<void> {
  const organisationId = subscription.organisation_id;
  const now = context.now();
  let claimed: Expected;
  try {
    claimed = await claim(context, subscription, now);
  } catch (error) {
    // someone else is renewing it: the caller re-reads
    if (error instanceof HttpError && error.code === 'BILLING_BUSY') return;
    throw error;
  }
  const periodStart = new Date(subscription.current_period_end);
  const periodEnd = addInterval(periodStart, plan.billing_interval);
  const card = await findDefaultPaymentMethod(context.db, organisationId);
  const invoice = await openInvoice(context, organisationId, {
    description: `${plan.name} plan renewal, ${isoDay(periodStart)} to ${isoDay(periodEnd)}`,
    amountMinor: subscription.amount_minor,
    currency: subscription.currency,
    planId: plan.id,
    periodStart,
    periodEnd,
    card: card ?? null,
  });
  const result: ChargeResult =
    card === undefined
      ? { outcome: 'declined', reason: 'no payment method on file' }
      : await charge(context, invoice, card);
  const period: SubscriptionChanges = {
    current_period_start: periodStart.toISOString(),
    current_period_end: periodEnd.toISOString(),
    updated_at: context.now().toISOString(),
  };
  if (result.outcome === 'paid' && card !== undefined) {
    await settleInvoice(
      context,
      invoice,
      card,
      result,
      claimed,
      { ...period, status: 'active' },
      undefined,
      SYSTEM,
    );
    return;
  }
  const reason = result.outcome === 'declined' ? result.reason : 'not paid';
  await context.db.transaction().execute(async (trx) => {
    await updateSubscriptionIf(trx, claimed, { ...period, status: 'past_due' });
    await audit(
      trx,
      organisationId,
      SYSTEM,
      'create',
      `Invoice ${invoice.number} issued for ${money(invoice.amount_minor, invoice.currency)}: ${invoice.description}; unpaid (${reason}), the subscription is overdue`,
    );
  });
}

/** After a card change: pays the open invoices of an overdue subscription with the default card. */
export async function retryOverdue(
  context: BillingContext,
  organisationId: string,
  actor: Actor,
): Promise<void> {
  const subscription = await settle(context, organisationId);
  if (subscription.status !== 'past_due') return;
  const card = await findDefaultPaymentMethod(context.db, organisationId);
  if (card === undefined) return;
  let claimed: Expected;
  try {
    claimed = await claim(context, subscription, context.now());
  } catch (error) {
    // a renewal or another retry holds it: that one settles the invoices
    if (error instanceof HttpError && error.code === 'BILLING_BUSY') return;
    throw error;
  }
  let unpaid = 0;
  for (const invoice of await listOpenInvoices(context.db, organisationId)) {
    const result = await charge(context, invoice, card);
    if (result.outcome === 'declined') {
      unpaid += 1;
      continue;
    }
    await context.db.transaction().execute(async (trx) => {
      await updateInvoice(trx, invoice.id, {
        status: 'paid',
        paid_at: context.now().toISOString(),
        payment_method_id: card.id,
        payment_summary: paymentSummary(card, result),
      });
      await audit(
        trx,
        organisationId,
        actor,
        'update',
        `Overdue invoice ${invoice.number} paid with ${cardLabel(card)}`,
      );
    });
  }
  await updateSubscriptionIf(context.db, claimed, {
    status: unpaid === 0 ? 'active' : 'past_due',
    updated_at: context.now().toISOString(),
  });
}

/** Undoes a change that died after its claim: its open invoice is void, the status as before. */
async function abandon(context: BillingContext, subscription: Subscription, now: Date): Promise<void> {
  const organisationId = subscription.organisation_id;
  await context.db.transaction().execute(async (trx) => {
    const open = await listOpenInvoices(trx, organisationId);
    const orphaned = open.filter((invoice) => invoice.issued_at >= subscription.updated_at);
    for (const invoice of orphaned) await updateInvoice(trx, invoice.id, { status: 'void' });
    const stillOpen = open.length - orphaned.length;
    const restored = await updateSubscriptionIf(trx, expected(subscription), {
      status: stillOpen > 0 ? 'past_due' : 'active',
      updated_at: now.toISOString(),
    });
    if (restored && orphaned.length > 0) {
      await audit(
        trx,
        organisationId,
        SYSTEM,
        'update',
        `Interrupted billing change undone: invoice ${orphaned.map((invoice) => invoice.number).join(', ')} voided`,
      );
    }
  });
}

/** Marks the subscription as being changed, or 409 BILLING_BUSY if someone else got there first. */
export async function claim(
  context: BillingContext,
  subscription: Subscription,
  now: Date,
): Promise<Expected> {
  const claimedAt = now.toISOString() === subscription.updated_at ? new Date(now.getTime() + 1) : now;
  const ok = await updateSubscriptionIf(context.db, expected(subscription), {
    status: 'incomplete',
    updated_at: claimedAt.toISOString(),
  });
  if (!ok) throw new HttpError(409, 'BILLING_BUSY', BILLING_MESSAGES.busy);
  return { id: subscription.id, status: 'incomplete', updatedAt: claimedAt.toISOString() };
}

/** Applies a change with compare-and-set plus its audit lines in one transaction; 409 if it lost a race. */
export async function updateSubscription(
  context: BillingContext,
  subscription: Subscription,
  changes: SubscriptionChanges,
  auditChange: (trx: Kysely<Database>) => Promise<void>,
): Promise<Subscription> {
  await context.db.transaction().execute(async (trx) => {
    if (!(await updateSubscriptionIf(trx, expected(subscription), changes))) {
      throw new HttpError(409, 'BILLING_BUSY', BILLING_MESSAGES.busy);
    }
    await auditChange(trx);
  });
  return ensureSubscription(context, subscription.organisation_id);
}
