import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  type AddPaymentMethodBody,
  CARD_BRAND_NAMES,
  type CardBrand,
  cardDigits,
  formatCardExpiry,
  formatMinorUnits,
  parseExpiryDate,
  type UpdatePaymentMethodBody,
} from '@rfckit/standards';
import { recordActivity } from '../db/activities.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { newId, newSortableId } from '../db/ids.ts';
import { type Invoice, insertInvoice, listOpenInvoices, updateInvoice } from '../db/invoices.ts';
import {
  countPaymentMethods,
  deletePaymentMethod,
  findDefaultPaymentMethod,
  findPaymentMethod,
  insertPaymentMethod,
  listPaymentMethods,
  type PaymentMethod,
  setDefaultPaymentMethod,
  updatePaymentMethodExpiry,
} from '../db/payment-methods.ts';
import { findFreePlan, findPlanById, type Plan } from '../db/plans.ts';
import type { ActivityAction, Database, SubscriptionStatus } from '../db/schema.ts';
import {
  findSubscription,
  insertSubscription,
  listDueSubscriptions,
  type Subscription,
  type SubscriptionChanges,
  updateSubscriptionIf,
} from '../db/subscriptions.ts';
import { HttpError } from '../plugins/errors.ts';
import type { ChargeResult, PaymentProvider } from './payment-provider.ts';
import { addInterval, isoDay, unusedShare } from './periods.ts';

/*
 * Billing rules (DESIGN §9: persisted data behind a payment-provider seam).
 *
 * - Every organisation has one subscription. One without a row gets the Free plan, active, the
 *   first time anything reads its billing (organisations registered before billing existed too).
 * - Changing to a paid plan takes effect at once and starts a new billing period that day. The
 *   charge is the new plan's full price, less a pro-rata credit for the unused part of a paid
 *   period being replaced (from Free there is nothing to credit, so Free → Professional charges
 *   the full 49.99 USD). The charge goes through the provider to the default card and issues an
 *   invoice; a declined charge changes nothing and leaves a void invoice.
 * - Changing to Free takes effect at the end of the paid period: the organisation keeps what it
 *   paid for, and no refund is due. Until then it can change its mind (choose the paid plan again,
 *   at no charge). An overdue subscription changes to Free at once instead.
 * - At the end of a paid period the subscription renews: the default card is charged for the next
 *   period and a new invoice issued. If that fails the subscription is overdue (past_due) with an
 *   open invoice; adding a card, or choosing a default card, retries it. An overdue subscription
 *   still unpaid at the end of the next period returns to Free and the invoice is uncollectible.
 * - Renewals happen when billing is read and in a periodic sweep (plugins/billing.ts). A change
 *   first claims the subscription (status `incomplete`, compare-and-set), so two processes or two
 *   clicks cannot charge twice; a claim older than STALE_CLAIM_MS is a crashed change and undone.
 */

/** How many cards an organisation may keep. */
export const MAX_PAYMENT_METHODS = 10;
/** A claim older than this belongs to a change that died half-way. */
export const STALE_CLAIM_MS = 2 * 60 * 1000;
/** Most periods caught up in one settlement (a server that was down for years). */
const MAX_CATCH_UP = 36;

export const BILLING_MESSAGES = {
  busy: 'Another billing change is in progress. Please try again in a moment.',
  unknownPlan: 'There is no such plan',
  paymentMethodRequired: (plan: string) => `Add a payment method before changing to the ${plan} plan.`,
  overdue:
    'Your subscription is overdue: add a card or choose another default card to pay the open invoice first.',
  lastCard: (plan: string) =>
    `You cannot remove the only payment method while the ${plan} plan is active. Add another card first, or change to the Free plan.`,
  tooManyCards: `An organisation can keep up to ${MAX_PAYMENT_METHODS} cards. Remove one first.`,
  paymentMethodNotFound: 'Payment method not found',
  invoiceNotFound: 'Invoice not found',
  cardAdded: 'Payment method added successfully!',
  cardRemoved: 'Payment method removed successfully!',
  defaultChanged: 'Default payment method updated successfully!',
  expiryChanged: 'Expiry date updated successfully!',
  cardUnchanged: 'Nothing to change: the card is already like that.',
} as const;

/** Who acts: a signed-in admin, or the system (renewals) with nulls. */
export interface Actor {
  userId: string | null;
  username: string | null;
  ipAddress: string | null;
}

const SYSTEM: Actor = { userId: null, username: null, ipAddress: null };

/** A subscription as last seen: what a compare-and-set expects it still to be. */
type Expected = { id: string; status: SubscriptionStatus; updatedAt: string };

export interface SubscriptionState {
  subscription: Subscription;
  plan: Plan;
  /** The plan a scheduled change moves to at the period's end. */
  scheduledPlan: Plan | null;
}

export interface PlanChangeResult {
  message: string;
  state: SubscriptionState;
  invoice: Invoice | null;
}

/** "Visa ending 4242". */
export function cardLabel(card: Pick<PaymentMethod, 'brand' | 'last4'>): string {
  const name = CARD_BRAND_NAMES[card.brand as CardBrand] ?? card.brand;
  return `${name} ending ${card.last4}`;
}

export function money(amountMinor: number, currency: string): string {
  return `${formatMinorUnits(amountMinor, currency)} ${currency}`;
}

// Crockford base32 without I, L, O, U: readable over the phone
const NUMBER_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function invoiceNumber(now: Date): string {
  let suffix = '';
  for (let index = 0; index < 6; index += 1) suffix += NUMBER_ALPHABET[randomInt(NUMBER_ALPHABET.length)];
  return `INV-${isoDay(now).replaceAll('-', '')}-${suffix}`;
}

export class Billing {
  readonly provider: PaymentProvider;
  readonly #db: Kysely<Database>;
  readonly #now: () => Date;

  constructor(db: Kysely<Database>, provider: PaymentProvider, options: { now?: () => Date } = {}) {
    this.#db = db;
    this.provider = provider;
    this.#now = options.now ?? (() => new Date());
  }

  // ---------------------------------------------------------------- subscription

  /** The organisation's subscription, created as Free on first read and brought up to date. */
  async subscription(organisationId: string): Promise<SubscriptionState> {
    const subscription = await this.#settle(organisationId);
    return this.#state(subscription);
  }

  /** Settles every subscription whose period has ended (the periodic sweep). Returns how many. */
  async settleDue(limit = 100): Promise<number> {
    const due = await listDueSubscriptions(this.#db, this.#now().toISOString(), limit);
    for (const subscription of due) await this.#settle(subscription.organisation_id);
    return due.length;
  }

  async changePlan(organisationId: string, planId: string, actor: Actor): Promise<PlanChangeResult> {
    const subscription = await this.#settle(organisationId);
    if (subscription.status === 'incomplete') throw new HttpError(409, 'BILLING_BUSY', BILLING_MESSAGES.busy);
    const target = await findPlanById(this.#db, planId);
    if (target === undefined || target.active !== 1) {
      throw new HttpError(400, 'UNKNOWN_PLAN', BILLING_MESSAGES.unknownPlan);
    }
    const current = await this.#plan(subscription.plan_id);
    const now = this.#now();

    if (target.id === current.id) {
      if (subscription.canceled_at === null) {
        return {
          message: `Your organisation is already on the ${current.name} plan.`,
          state: await this.#state(subscription),
          invoice: null,
        };
      }
      // choosing the paid plan again calls off the scheduled change to Free
      const resumed = await this.#update(
        subscription,
        { canceled_at: null, updated_at: now.toISOString() },
        (trx) =>
          this.#audit(
            trx,
            organisationId,
            actor,
            'update',
            `Scheduled change to Free cancelled: ${current.name} continues`,
          ),
      );
      return {
        message: `Scheduled change cancelled successfully: the ${current.name} plan continues.`,
        state: await this.#state(resumed),
        invoice: null,
      };
    }

    if (target.price_minor === 0) return this.#downgrade(subscription, current, target, actor);
    return this.#upgrade(subscription, current, target, actor);
  }

  async #downgrade(
    subscription: Subscription,
    current: Plan,
    target: Plan,
    actor: Actor,
  ): Promise<PlanChangeResult> {
    const now = this.#now();
    const organisationId = subscription.organisation_id;
    if (current.price_minor === 0 || subscription.status === 'past_due') {
      // nothing paid to use up (or the period was never paid): the change is immediate
      const switched = await this.#switchTo(subscription, target, now, actor, null, async (trx) => {
        for (const invoice of await listOpenInvoices(trx, organisationId)) {
          await updateInvoice(trx, invoice.id, { status: 'void' });
          await this.#audit(
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
        state: await this.#state(switched),
        invoice: null,
      };
    }
    const effective = isoDay(subscription.current_period_end);
    const scheduled = await this.#update(
      subscription,
      { canceled_at: now.toISOString(), updated_at: now.toISOString() },
      (trx) =>
        this.#audit(
          trx,
          organisationId,
          actor,
          'update',
          `Plan change from ${current.name} to ${target.name} scheduled for ${effective}, the end of the paid period`,
        ),
    );
    return {
      message: `Change to the ${target.name} plan scheduled successfully: ${current.name} stays until ${effective}.`,
      state: await this.#state(scheduled),
      invoice: null,
    };
  }

  async #upgrade(
    subscription: Subscription,
    current: Plan,
    target: Plan,
    actor: Actor,
  ): Promise<PlanChangeResult> {
    const organisationId = subscription.organisation_id;
    if (subscription.status === 'past_due')
      throw new HttpError(409, 'SUBSCRIPTION_OVERDUE', BILLING_MESSAGES.overdue);
    const card = await findDefaultPaymentMethod(this.#db, organisationId);
    if (card === undefined) {
      throw new HttpError(
        409,
        'PAYMENT_METHOD_REQUIRED',
        BILLING_MESSAGES.paymentMethodRequired(target.name),
      );
    }
    const now = this.#now();
    const credit =
      current.price_minor > 0 &&
      subscription.canceled_at === null &&
      subscription.currency === target.currency
        ? unusedShare(
            subscription.amount_minor,
            subscription.current_period_start,
            subscription.current_period_end,
            now,
          )
        : 0;
    const amount = Math.max(0, target.price_minor - credit);
    const periodEnd = addInterval(now, target.billing_interval);
    const claimed = await this.#claim(subscription, now);

    const description =
      `${target.name} plan, ${isoDay(now)} to ${isoDay(periodEnd)}` +
      (credit > 0 ? `, less ${money(credit, target.currency)} for unused ${current.name} time` : '');
    let invoice: Invoice | undefined;
    let result: ChargeResult;
    try {
      invoice = await this.#openInvoice(organisationId, {
        description,
        amountMinor: amount,
        currency: target.currency,
        planId: target.id,
        periodStart: now,
        periodEnd,
        card,
      });
      result = await this.#charge(invoice, card);
    } catch (error) {
      // nothing was charged as far as we know: release the claim and void the invoice
      const opened = invoice;
      await this.#db.transaction().execute(async (trx) => {
        if (opened !== undefined) await updateInvoice(trx, opened.id, { status: 'void' });
        await updateSubscriptionIf(trx, claimed, {
          status: subscription.status,
          updated_at: this.#now().toISOString(),
        });
      });
      throw error;
    }

    if (result.outcome === 'declined') {
      await this.#db.transaction().execute(async (trx) => {
        await updateInvoice(trx, invoice.id, { status: 'void' });
        await updateSubscriptionIf(trx, claimed, {
          status: subscription.status,
          updated_at: this.#now().toISOString(),
        });
        await this.#audit(
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
      updated_at: this.#now().toISOString(),
    };
    const paid = await this.#settleInvoice(
      invoice,
      card,
      result,
      claimed,
      changes,
      async (trx) => {
        await this.#audit(
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
    return {
      message: `Plan changed to ${target.name} successfully! Invoice ${invoice.number} for ${money(amount, target.currency)} was ${
        this.provider.takesPayments ? 'paid' : result.settlement
      }.`,
      state: await this.#state(paid.subscription),
      invoice: paid.invoice,
    };
  }

  // ---------------------------------------------------------------- payment methods

  async addPaymentMethod(
    organisationId: string,
    body: AddPaymentMethodBody,
    actor: Actor,
  ): Promise<PaymentMethod> {
    if ((await countPaymentMethods(this.#db, organisationId)) >= MAX_PAYMENT_METHODS) {
      throw new HttpError(409, 'TOO_MANY_PAYMENT_METHODS', BILLING_MESSAGES.tooManyCards);
    }
    const expiry = parseExpiryDate(body.expiryDate);
    // the schema checked it already: this only narrows the type
    if (typeof expiry === 'string')
      throw new HttpError(400, 'VALIDATION_ERROR', 'Expiry date must be in MM/YY format');
    const subscription = await this.#settle(organisationId);
    const providerCard = await this.provider.addCard({
      cardholderName: body.cardholderName.trim(),
      number: cardDigits(body.cardNumber),
      expiryMonth: expiry.month,
      expiryYear: expiry.year,
      cvv: body.cvv,
    });
    const hadDefault = (await findDefaultPaymentMethod(this.#db, organisationId)) !== undefined;
    // a card added while an invoice is overdue is meant to pay it
    const makeDefault = !hadDefault || subscription.status === 'past_due';
    const now = this.#now();
    const row: PaymentMethod = {
      id: newId(),
      organisation_id: organisationId,
      type: 'card',
      brand: providerCard.brand,
      last4: providerCard.last4,
      expiry_month: providerCard.expiryMonth,
      expiry_year: providerCard.expiryYear,
      cardholder_name: body.cardholderName.trim(),
      is_default: 0,
      provider_ref: providerCard.providerRef,
      created_at: now.toISOString(),
    };
    await this.#db.transaction().execute(async (trx) => {
      await insertPaymentMethod(trx, row);
      if (makeDefault) await setDefaultPaymentMethod(trx, organisationId, row.id);
      await this.#audit(
        trx,
        organisationId,
        actor,
        'create',
        `Payment method added: ${cardLabel(row)}, expires ${formatCardExpiry({ month: row.expiry_month, year: row.expiry_year })}${
          makeDefault ? ', now the default' : ''
        }`,
      );
    });
    if (makeDefault) await this.#retryOverdue(organisationId, actor);
    return (await findPaymentMethod(this.#db, organisationId, row.id)) ?? row;
  }

  async updatePaymentMethod(
    organisationId: string,
    id: string,
    body: UpdatePaymentMethodBody,
    actor: Actor,
  ): Promise<{ message: string; paymentMethod: PaymentMethod }> {
    const card = await this.#card(organisationId, id);
    const messages: string[] = [];
    const expiry = body.expiryDate === undefined ? undefined : parseExpiryDate(body.expiryDate);
    if (typeof expiry === 'string')
      throw new HttpError(400, 'VALIDATION_ERROR', 'Expiry date must be in MM/YY format');
    const expiryChanges =
      expiry !== undefined && (expiry.month !== card.expiry_month || expiry.year !== card.expiry_year);
    const defaultChanges = body.isDefault === true && card.is_default !== 1;
    if (expiryChanges) await this.provider.updateCardExpiry(card.provider_ref, expiry);
    await this.#db.transaction().execute(async (trx) => {
      if (expiryChanges) {
        await updatePaymentMethodExpiry(trx, organisationId, id, expiry);
        const from = formatCardExpiry({ month: card.expiry_month, year: card.expiry_year });
        await this.#audit(
          trx,
          organisationId,
          actor,
          'update',
          `Expiry date of ${cardLabel(card)} changed from ${from} to ${formatCardExpiry(expiry)}`,
        );
        messages.push(BILLING_MESSAGES.expiryChanged);
      }
      if (defaultChanges) {
        await setDefaultPaymentMethod(trx, organisationId, id);
        await this.#audit(
          trx,
          organisationId,
          actor,
          'update',
          `Default payment method changed to ${cardLabel(card)}`,
        );
        messages.push(BILLING_MESSAGES.defaultChanged);
      }
    });
    if (expiryChanges || defaultChanges) await this.#retryOverdue(organisationId, actor);
    const updated = await this.#card(organisationId, id);
    return {
      message: messages.length > 0 ? messages.join(' ') : BILLING_MESSAGES.cardUnchanged,
      paymentMethod: updated,
    };
  }

  async removePaymentMethod(organisationId: string, id: string, actor: Actor): Promise<string> {
    const card = await this.#card(organisationId, id);
    const subscription = await this.#settle(organisationId);
    const plan = await this.#plan(subscription.plan_id);
    const cards = await listPaymentMethods(this.#db, organisationId);
    if (cards.length === 1 && plan.price_minor > 0 && subscription.canceled_at === null) {
      throw new HttpError(409, 'LAST_PAYMENT_METHOD', BILLING_MESSAGES.lastCard(plan.name));
    }
    await this.provider.removeCard(card.provider_ref);
    // the newest other card takes over as default
    const successor = card.is_default === 1 ? cards.find((other) => other.id !== card.id) : undefined;
    await this.#db.transaction().execute(async (trx) => {
      await deletePaymentMethod(trx, organisationId, id);
      if (successor !== undefined) await setDefaultPaymentMethod(trx, organisationId, successor.id);
      await this.#audit(
        trx,
        organisationId,
        actor,
        'delete',
        `Payment method removed: ${cardLabel(card)}${successor === undefined ? '' : `; ${cardLabel(successor)} is now the default`}`,
      );
    });
    return BILLING_MESSAGES.cardRemoved;
  }

  // ---------------------------------------------------------------- internals

  async #card(organisationId: string, id: string): Promise<PaymentMethod> {
    const card = await findPaymentMethod(this.#db, organisationId, id);
    if (card === undefined) throw new HttpError(404, 'NOT_FOUND', BILLING_MESSAGES.paymentMethodNotFound);
    return card;
  }

  async #plan(id: string): Promise<Plan> {
    const plan = await findPlanById(this.#db, id);
    if (plan === undefined) throw new Error(`subscription refers to a missing plan ${id}`);
    return plan;
  }

  async #freePlan(): Promise<Plan> {
    const plan = await findFreePlan(this.#db);
    if (plan === undefined) throw new Error('no active plan costs nothing: billing needs a free plan');
    return plan;
  }

  async #state(subscription: Subscription): Promise<SubscriptionState> {
    return {
      subscription,
      plan: await this.#plan(subscription.plan_id),
      scheduledPlan: subscription.canceled_at === null ? null : await this.#freePlan(),
    };
  }

  async #ensure(organisationId: string): Promise<Subscription> {
    const found = await findSubscription(this.#db, organisationId);
    if (found !== undefined) return found;
    const free = await this.#freePlan();
    const now = this.#now();
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
      await insertSubscription(this.#db, row);
      return row;
    } catch (error) {
      // another request created it first
      if (!isUniqueViolation(error)) throw error;
      const raced = await findSubscription(this.#db, organisationId);
      if (raced === undefined) throw error;
      return raced;
    }
  }

  /** Brings the subscription up to date: ended periods renew, scheduled changes and overdue endings apply. */
  async #settle(organisationId: string): Promise<Subscription> {
    let subscription = await this.#ensure(organisationId);
    for (let step = 0; step < MAX_CATCH_UP; step += 1) {
      const now = this.#now();
      if (subscription.status === 'incomplete') {
        if (now.getTime() - Date.parse(subscription.updated_at) < STALE_CLAIM_MS) return subscription;
        await this.#abandon(subscription, now);
      } else if (subscription.current_period_end > now.toISOString()) {
        return subscription;
      } else {
        const plan = await this.#plan(subscription.plan_id);
        if (subscription.canceled_at !== null) {
          await this.#switchTo(
            subscription,
            await this.#freePlan(),
            new Date(subscription.current_period_end),
            SYSTEM,
            'the scheduled change took effect at the end of the paid period',
          );
        } else if (plan.price_minor === 0) {
          await this.#roll(subscription, plan, now);
        } else if (subscription.status === 'past_due') {
          await this.#endOverdue(subscription, now);
        } else {
          await this.#renew(subscription, plan);
        }
      }
      subscription = await this.#ensure(organisationId);
    }
    return subscription;
  }

  /** A free period that ended starts the next one; nothing is billed. */
  async #roll(subscription: Subscription, plan: Plan, now: Date): Promise<void> {
    let start = new Date(subscription.current_period_end);
    let end = addInterval(start, plan.billing_interval);
    while (end <= now) {
      start = end;
      end = addInterval(start, plan.billing_interval);
    }
    await updateSubscriptionIf(this.#db, this.#expected(subscription), {
      current_period_start: start.toISOString(),
      current_period_end: end.toISOString(),
      updated_at: now.toISOString(),
    });
  }

  /**
   * Moves to another plan without a charge (a free one), the new period starting at `start` (or
   * the latest period boundary after it that has passed).
   */
  async #switchTo(
    subscription: Subscription,
    target: Plan,
    start: Date,
    actor: Actor,
    reason: string | null,
    extra?: (trx: Kysely<Database>) => Promise<void>,
  ): Promise<Subscription> {
    const current = await this.#plan(subscription.plan_id);
    const now = this.#now();
    let periodStart = start;
    let end = addInterval(periodStart, target.billing_interval);
    while (end <= now) {
      periodStart = end;
      end = addInterval(periodStart, target.billing_interval);
    }
    return this.#update(
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
        await this.#audit(
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
  async #endOverdue(subscription: Subscription, now: Date): Promise<void> {
    const free = await this.#freePlan();
    const organisationId = subscription.organisation_id;
    const reason = 'the overdue invoice was not paid by the end of the following period';
    await this.#switchTo(
      subscription,
      free,
      new Date(subscription.current_period_end),
      SYSTEM,
      reason,
      async (trx) => {
        for (const invoice of await listOpenInvoices(trx, organisationId)) {
          await updateInvoice(trx, invoice.id, { status: 'uncollectible' });
          await this.#audit(
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
  async #renew(subscription: Subscription, plan: Plan): Promise<void> {
    const organisationId = subscription.organisation_id;
    const now = this.#now();
    let claimed: Expected;
    try {
      claimed = await this.#claim(subscription, now);
    } catch (error) {
      // someone else is renewing it: the caller re-reads
      if (error instanceof HttpError && error.code === 'BILLING_BUSY') return;
      throw error;
    }
    const periodStart = new Date(subscription.current_period_end);
    const periodEnd = addInterval(periodStart, plan.billing_interval);
    const card = await findDefaultPaymentMethod(this.#db, organisationId);
    const invoice = await this.#openInvoice(organisationId, {
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
        : await this.#charge(invoice, card);
    const period: SubscriptionChanges = {
      current_period_start: periodStart.toISOString(),
      current_period_end: periodEnd.toISOString(),
      updated_at: this.#now().toISOString(),
    };
    if (result.outcome === 'paid' && card !== undefined) {
      await this.#settleInvoice(
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
    await this.#db.transaction().execute(async (trx) => {
      await updateSubscriptionIf(trx, claimed, { ...period, status: 'past_due' });
      await this.#audit(
        trx,
        organisationId,
        SYSTEM,
        'create',
        `Invoice ${invoice.number} issued for ${money(invoice.amount_minor, invoice.currency)}: ${invoice.description}; unpaid (${reason}), the subscription is overdue`,
      );
    });
  }

  /** After a card change: pays the open invoices of an overdue subscription with the default card. */
  async #retryOverdue(organisationId: string, actor: Actor): Promise<void> {
    const subscription = await this.#settle(organisationId);
    if (subscription.status !== 'past_due') return;
    const card = await findDefaultPaymentMethod(this.#db, organisationId);
    if (card === undefined) return;
    let claimed: Expected;
    try {
      claimed = await this.#claim(subscription, this.#now());
    } catch (error) {
      // a renewal or another retry holds it: that one settles the invoices
      if (error instanceof HttpError && error.code === 'BILLING_BUSY') return;
      throw error;
    }
    let unpaid = 0;
    for (const invoice of await listOpenInvoices(this.#db, organisationId)) {
      const result = await this.#charge(invoice, card);
      if (result.outcome === 'declined') {
        unpaid += 1;
        continue;
      }
      await this.#db.transaction().execute(async (trx) => {
        await updateInvoice(trx, invoice.id, {
          status: 'paid',
          paid_at: this.#now().toISOString(),
          payment_method_id: card.id,
          payment_summary: this.#summary(card, result),
        });
        await this.#audit(
          trx,
          organisationId,
          actor,
          'update',
          `Overdue invoice ${invoice.number} paid with ${cardLabel(card)}`,
        );
      });
    }
    await updateSubscriptionIf(this.#db, claimed, {
      status: unpaid === 0 ? 'active' : 'past_due',
      updated_at: this.#now().toISOString(),
    });
  }

  /** Undoes a change that died after its claim: its open invoice is void, the status as before. */
  async #abandon(subscription: Subscription, now: Date): Promise<void> {
    const organisationId = subscription.organisation_id;
    await this.#db.transaction().execute(async (trx) => {
      const open = await listOpenInvoices(trx, organisationId);
      const orphaned = open.filter((invoice) => invoice.issued_at >= subscription.updated_at);
      for (const invoice of orphaned) await updateInvoice(trx, invoice.id, { status: 'void' });
      const stillOpen = open.length - orphaned.length;
      const restored = await updateSubscriptionIf(trx, this.#expected(subscription), {
        status: stillOpen > 0 ? 'past_due' : 'active',
        updated_at: now.toISOString(),
      });
      if (restored && orphaned.length > 0) {
        await this.#audit(
          trx,
          organisationId,
          SYSTEM,
          'update',
          `Interrupted billing change undone: invoice ${orphaned.map((invoice) => invoice.number).join(', ')} voided`,
        );
      }
    });
  }

  #expected(subscription: Subscription): Expected {
    return { id: subscription.id, status: subscription.status, updatedAt: subscription.updated_at };
  }

  /** Marks the subscription as being changed, or 409 BILLING_BUSY if someone else got there first. */
  async #claim(subscription: Subscription, now: Date): Promise<Expected> {
    const claimedAt = now.toISOString() === subscription.updated_at ? new Date(now.getTime() + 1) : now;
    const ok = await updateSubscriptionIf(this.#db, this.#expected(subscription), {
      status: 'incomplete',
      updated_at: claimedAt.toISOString(),
    });
    if (!ok) throw new HttpError(409, 'BILLING_BUSY', BILLING_MESSAGES.busy);
    return { id: subscription.id, status: 'incomplete', updatedAt: claimedAt.toISOString() };
  }

  /** Applies a change with compare-and-set plus its audit lines in one transaction; 409 if it lost a race. */
  async #update(
    subscription: Subscription,
    changes: SubscriptionChanges,
    audit: (trx: Kysely<Database>) => Promise<void>,
  ): Promise<Subscription> {
    await this.#db.transaction().execute(async (trx) => {
      if (!(await updateSubscriptionIf(trx, this.#expected(subscription), changes))) {
        throw new HttpError(409, 'BILLING_BUSY', BILLING_MESSAGES.busy);
      }
      await audit(trx);
    });
    return this.#ensure(subscription.organisation_id);
  }

  async #openInvoice(
    organisationId: string,
    input: {
      description: string;
      amountMinor: number;
      currency: string;
      planId: string;
      periodStart: Date;
      periodEnd: Date;
      card: PaymentMethod | null;
    },
  ): Promise<Invoice> {
    for (let attempt = 0; ; attempt += 1) {
      const now = this.#now();
      const invoice: Invoice = {
        id: newSortableId(now.getTime()),
        organisation_id: organisationId,
        number: invoiceNumber(now),
        description: input.description,
        amount_minor: input.amountMinor,
        currency: input.currency,
        status: 'open',
        plan_id: input.planId,
        period_start: input.periodStart.toISOString(),
        period_end: input.periodEnd.toISOString(),
        payment_method_id: input.card?.id ?? null,
        payment_summary: null,
        issued_at: now.toISOString(),
        paid_at: null,
      };
      try {
        await insertInvoice(this.#db, invoice);
        return invoice;
      } catch (error) {
        // 32^6 numbers a day: a clash is rare, two in a row rarer still
        if (!isUniqueViolation(error) || attempt >= 4) throw error;
      }
    }
  }

  async #charge(invoice: Invoice, card: PaymentMethod): Promise<ChargeResult> {
    if (invoice.amount_minor === 0) {
      return { outcome: 'paid', reference: 'nothing-to-charge', settlement: 'nothing was due' };
    }
    return this.provider.charge({
      providerRef: card.provider_ref,
      expiry: { month: card.expiry_month, year: card.expiry_year },
      amountMinor: invoice.amount_minor,
      currency: invoice.currency,
      invoiceNumber: invoice.number,
      description: invoice.description,
      idempotencyKey: invoice.id,
    });
  }

  #summary(card: PaymentMethod, result: Extract<ChargeResult, { outcome: 'paid' }>): string {
    return `${cardLabel(card)}, ${result.settlement}`;
  }

  /** Marks an invoice paid and applies the subscription change it paid for, with the audit lines. */
  async #settleInvoice(
    invoice: Invoice,
    card: PaymentMethod,
    result: Extract<ChargeResult, { outcome: 'paid' }>,
    claimed: Expected,
    changes: SubscriptionChanges,
    audit: ((trx: Kysely<Database>) => Promise<void>) | undefined,
    actor: Actor,
  ): Promise<{ subscription: Subscription; invoice: Invoice }> {
    const paidAt = this.#now().toISOString();
    const summary = this.#summary(card, result);
    await this.#db.transaction().execute(async (trx) => {
      await updateInvoice(trx, invoice.id, { status: 'paid', paid_at: paidAt, payment_summary: summary });
      await updateSubscriptionIf(trx, claimed, changes);
      await audit?.(trx);
      await this.#audit(
        trx,
        invoice.organisation_id,
        actor,
        'create',
        `Invoice ${invoice.number} issued for ${money(invoice.amount_minor, invoice.currency)}: ${invoice.description}; paid with ${summary}`,
        { invoice: invoice.number, amountMinor: invoice.amount_minor, currency: invoice.currency },
      );
    });
    return {
      subscription: await this.#ensure(invoice.organisation_id),
      invoice: { ...invoice, status: 'paid', paid_at: paidAt, payment_summary: summary },
    };
  }

  async #audit(
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
}
