import type { Invoice } from '../db/invoices.ts';
import { listOpenInvoices, updateInvoice } from '../db/invoices.ts';
import { findDefaultPaymentMethod } from '../db/payment-methods.ts';
import { findPlanById, type Plan } from '../db/plans.ts';
import { type Subscription, type SubscriptionChanges, updateSubscriptionIf } from '../db/subscriptions.ts';
import { HttpError } from '../plugins/errors.ts';
import { type Actor, audit, type BillingContext, planOf } from './context.ts';
import { charge, openInvoice, settleInvoice } from './invoices.ts';
import { BILLING_MESSAGES, cardLabel, money } from './messages.ts';
import type { ChargeResult } from './payment-provider.ts';
import { addInterval, isoDay, unusedShare } from './periods.ts';
import {
  claim,
  ensureSubscription,
  settle,
  stateOf,
  type SubscriptionState,
  switchTo,
  updateSubscription,
} from './subscriptions.ts';

export interface PlanChangeResult {
  message: string;
  state: SubscriptionState;
  invoice: Invoice | null;
}

/** Changes the plan: at once to a paid plan (charged), at the period's end to Free. */
export async function changePlan(
  context: BillingContext,
  organisationId: string,
  planId: string,
  actor: Actor,
): Promise<PlanChangeResult> {
  const subscription = await settle(context, organisationId);
  if (subscription.status === 'incomplete') throw new HttpError(409, 'BILLING_BUSY', BILLING_MESSAGES.busy);
  const target = await findPlanById(context.db, planId);
  if (target === undefined || target.active !== 1) {
    throw new HttpError(400, 'UNKNOWN_PLAN', BILLING_MESSAGES.unknownPlan);
  }
  const current = await planOf(context, subscription.plan_id);
  const now = context.now();

  if (target.id === current.id) {
    if (subscription.canceled_at === null) {
      return {
        message: `Your organisation is already on the ${current.name} plan.`,
        state: await stateOf(context, subscription),
        invoice: null,
      };
    }
    // choosing the paid plan again calls off the scheduled change to Free
    const resumed = await updateSubscription(
      context,
      subscription,
      { canceled_at: null, updated_at: now.toISOString() },
      (trx) =>
        audit(
          trx,
          organisationId,
          actor,
          'update',
          `Scheduled change to Free cancelled: ${current.name} continues`,
        ),
    );
    return {
      message: `Scheduled change cancelled successfully: the ${current.name} plan continues.`,
      state: await stateOf(context, resumed),
      invoice: null,
    };
  }

  if (target.price_minor === 0) return downgrade(context, subscription, current, target, actor);
  return upgrade(context, subscription, current, target, actor);
}

async function downgrade(
  context: BillingContext,
  subscription: Subscription,
  current: Plan,
  target: Plan,
  actor: Actor,
): Promise<PlanChangeResult> {
  const now = context.now();
  const organisationId = subscription.organisation_id;
  if (current.price_minor === 0 || subscription.status === 'past_due') {
    // nothing paid to use up (or the period was never paid): the change is immediate
    const switched = await switchTo(context, subscription, target, now, actor, null, async (trx) => {
      for (const invoice of await listOpenInvoices(trx, organisationId)) {
        await updateInvoice(trx, invoice.id, { status: 'void' });
        await audit(
          trx,
          organisationId,
          actor,
          'update',
          `Invoice ${invoice.number} voided: the plan changed to ${target.name}`,
        );
      }
    });
    return {
      message: `Plan changed to ${target.name} successfully!`,
      state: await stateOf(context, switched),
      invoice: null,
    };
  }
  const effective = isoDay(subscription.current_period_end);
  const scheduled = await updateSubscription(
    context,
    subscription,
    { canceled_at: now.toISOString(), updated_at: now.toISOString() },
    (trx) =>
      audit(
        trx,
        organisationId,
        actor,
        'update',
        `Plan change from ${current.name} to ${target.name} scheduled for ${effective}, the end of the paid period`,
      ),
  );
  return {
    message: `Change to the ${target.name} plan scheduled successfully: ${current.name} stays until ${effective}.`,
    state: await stateOf(context, scheduled),
    invoice: null,
  };
}

async function upgrade(
  context: BillingContext,
  subscription: Subscription,
  current: Plan,
  target: Plan,
  actor: Actor,
): Promise<PlanChangeResult> {
  const organisationId = subscription.organisation_id;
  if (subscription.status === 'past_due')
    throw new HttpError(409, 'SUBSCRIPTION_OVERDUE', BILLING_MESSAGES.overdue);
  const card = await findDefaultPaymentMethod(context.db, organisationId);
  if (card === undefined) {
    throw new HttpError(409, 'PAYMENT_METHOD_REQUIRED', BILLING_MESSAGES.paymentMethodRequired(target.name));
  }
  const now = context.now();
  const credit =
    current.price_minor > 0 && subscription.canceled_at === null && subscription.currency === target.currency
      ? unusedShare(
          subscription.amount_minor,
          subscription.current_period_start,
          subscription.current_period_end,
          now,
        )
      : 0;
  const amount = Math.max(0, target.price_minor - credit);
  const periodEnd = addInterval(now, target.billing_interval);
  const claimed = await claim(context, subscription, now);

  const description =
    `${target.name} plan, ${isoDay(now)} to ${isoDay(periodEnd)}` +
    (credit > 0 ? `, less ${money(credit, target.currency)} for unused ${current.name} time` : '');
  let invoice: Invoice | undefined;
  let result: ChargeResult;
  try {
    invoice = await openInvoice(context, organisationId, {
      description,
      amountMinor: amount,
      currency: target.currency,
      planId: target.id,
      periodStart: now,
      periodEnd,
      card,
    });
    result = await charge(context, invoice, card);
  } catch (error) {
    // nothing was charged as far as we know: release the claim and void the invoice
    const opened = invoice;
    await context.db.transaction().execute(async (trx) => {
      if (opened !== undefined) await updateInvoice(trx, opened.id, { status: 'void' });
      await updateSubscriptionIf(trx, claimed, {
        status: subscription.status,
        updated_at: context.now().toISOString(),
      });
    });
    throw error;
  }

  if (result.outcome === 'declined') {
    await context.db.transaction().execute(async (trx) => {
      await updateInvoice(trx, invoice.id, { status: 'void' });
      await updateSubscriptionIf(trx, claimed, {
        status: subscription.status,
        updated_at: context.now().toISOString(),
      });
      await audit(
        trx,
        organisationId,
        actor,
        'update',
        `Plan change from ${current.name} to ${target.name} failed: ${cardLabel(card)} was declined (${result.reason}); invoice ${invoice.number} voided`,
      );
    });
    throw new HttpError(
      402,
      'PAYMENT_DECLINED',
      `The payment was declined: ${result.reason}. Update the card's expiry date or add another card.`,
    );
  }

  const changes: SubscriptionChanges = {
    plan_id: target.id,
    status: 'active',
    amount_minor: target.price_minor,
    currency: target.currency,
    current_period_start: now.toISOString(),
    current_period_end: periodEnd.toISOString(),
    canceled_at: null,
    updated_at: context.now().toISOString(),
  };
  const paidInvoice = await settleInvoice(
    context,
    invoice,
    card,
    result,
    claimed,
    changes,
    async (trx) => {
      await audit(
        trx,
        organisationId,
        actor,
        'update',
        `Plan changed from ${current.name} to ${target.name}; next billing date ${isoDay(periodEnd)}`,
        { from: current.id, to: target.id },
      );
    },
    actor,
  );
  const updated = await ensureSubscription(context, organisationId);
  return {
    message: `Plan changed to ${target.name} successfully! Invoice ${invoice.number} for ${money(amount, target.currency)} was ${
      context.provider.takesPayments ? 'paid' : result.settlement
    }.`,
    state: await stateOf(context, updated),
    invoice: paidInvoice,
  };
}
