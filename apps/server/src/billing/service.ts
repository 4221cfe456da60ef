import type { Kysely } from 'kysely';
import type { AddPaymentMethodBody, UpdatePaymentMethodBody } from '@rfckit/standards';
import type { PaymentMethod } from '../db/payment-methods.ts';
import type { Database } from '../db/schema.ts';
import type { Actor, BillingContext } from './context.ts';
import { addPaymentMethod, removePaymentMethod, updatePaymentMethod } from './payment-methods.ts';
import type { PaymentProvider } from './payment-provider.ts';
import { changePlan, type PlanChangeResult } from './plan-change.ts';
import { settleDue, subscriptionOf, type SubscriptionState } from './subscriptions.ts';

export type { Actor } from './context.ts';
export { BILLING_MESSAGES, cardLabel, MAX_PAYMENT_METHODS, money } from './messages.ts';
export type { PlanChangeResult } from './plan-change.ts';
export { STALE_CLAIM_MS, type SubscriptionState } from './subscriptions.ts';

/*
 * Billing rules (docs/architecture.md §10: persisted data behind a payment-provider seam).
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

/*
 * Where the rules live: subscriptions.ts (settling periods, renewals, claims), plan-change.ts,
 * payment-methods.ts, invoices.ts (numbering, charging, paying); context.ts holds what they share.
 */

/** Billing of every organisation, over one database, payment provider and clock. */
export class Billing {
  readonly provider: PaymentProvider;
  readonly #context: BillingContext;

  constructor(db: Kysely<Database>, provider: PaymentProvider, options: { now?: () => Date } = {}) {
    this.provider = provider;
    this.#context = { db, provider, now: options.now ?? (() => new Date()) };
  }

  /** The organisation's subscription, created as Free on first read and brought up to date. */
  subscription(organisationId: string): Promise<SubscriptionState> {
    return subscriptionOf(this.#context, organisationId);
  }

  /** Settles every subscription whose period has ended (the periodic sweep). Returns how many. */
  settleDue(limit = 100): Promise<number> {
    return settleDue(this.#context, limit);
  }

  changePlan(organisationId: string, planId: string, actor: Actor): Promise<PlanChangeResult> {
    return changePlan(this.#context, organisationId, planId, actor);
  }

  addPaymentMethod(organisationId: string, body: AddPaymentMethodBody, actor: Actor): Promise<PaymentMethod> {
    return addPaymentMethod(this.#context, organisationId, body, actor);
  }

  updatePaymentMethod(
    organisationId: string,
    id: string,
    body: UpdatePaymentMethodBody,
    actor: Actor,
  ): Promise<{ message: string; paymentMethod: PaymentMethod }> {
    return updatePaymentMethod(this.#context, organisationId, id, body, actor);
  }

  removePaymentMethod(organisationId: string, id: string, actor: Actor): Promise<string> {
    return removePaymentMethod(this.#context, organisationId, id, actor);
  }
}
