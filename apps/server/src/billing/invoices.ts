import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../db/errors.ts';
import { newSortableId } from '../db/ids.ts';
import { type Invoice, insertInvoice, updateInvoice } from '../db/invoices.ts';
import type { PaymentMethod } from '../db/payment-methods.ts';
import type { Database } from '../db/schema.ts';
import { type SubscriptionChanges, updateSubscriptionIf } from '../db/subscriptions.ts';
import { type Actor, audit, type BillingContext, type Expected } from './context.ts';
import { cardLabel, money } from './messages.ts';
import type { ChargeResult } from './payment-provider.ts';
import { isoDay } from './periods.ts';

// Crockford base32 without I, L, O, U: readable over the phone
const NUMBER_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function invoiceNumber(now: Date): string {
  let suffix = '';
  for (let index = 0; index < 6; index += 1) suffix += NUMBER_ALPHABET[randomInt(NUMBER_ALPHABET.length)];
  return `INV-${isoDay(now).replaceAll('-', '')}-${suffix}`;
}

/** Issues an open invoice under a new number (retried on the rare clash). */
export async function openInvoice(
  context: BillingContext,
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
    const now = context.now();
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
      await insertInvoice(context.db, invoice);
      return invoice;
    } catch (error) {
      // 32^6 numbers a day: a clash is rare, two in a row rarer still
      if (!isUniqueViolation(error) || attempt >= 4) throw error;
    }
  }
}

/** Charges the card for the invoice through the provider; nothing due is paid at once. */
export async function charge(
  context: BillingContext,
  invoice: Invoice,
  card: PaymentMethod,
): Promise<ChargeResult> {
  if (invoice.amount_minor === 0) {
    return { outcome: 'paid', reference: 'nothing-to-charge', settlement: 'nothing was due' };
  }
  return context.provider.charge({
    providerRef: card.provider_ref,
    expiry: { month: card.expiry_month, year: card.expiry_year },
    amountMinor: invoice.amount_minor,
    currency: invoice.currency,
    invoiceNumber: invoice.number,
    description: invoice.description,
    idempotencyKey: invoice.id,
  });
}

/** How an invoice was paid, as the invoice shows it. */
export function paymentSummary(
  card: PaymentMethod,
  result: Extract<ChargeResult, { outcome: 'paid' }>,
): string {
  return `${cardLabel(card)}, ${result.settlement}`;
}

/**
 * Marks an invoice paid and applies the subscription change it paid for, with the audit lines;
 * answers the paid invoice (the caller re-reads the subscription).
 */
export async function settleInvoice(
  context: BillingContext,
  invoice: Invoice,
  card: PaymentMethod,
  result: Extract<ChargeResult, { outcome: 'paid' }>,
  claimed: Expected,
  changes: SubscriptionChanges,
  auditChange: ((trx: Kysely<Database>) => Promise<void>) | undefined,
  actor: Actor,
): Promise<Invoice> {
  const paidAt = context.now().toISOString();
  const summary = paymentSummary(card, result);
  await context.db.transaction().execute(async (trx) => {
    await updateInvoice(trx, invoice.id, { status: 'paid', paid_at: paidAt, payment_summary: summary });
    await updateSubscriptionIf(trx, claimed, changes);
    await auditChange?.(trx);
    await audit(
      trx,
      invoice.organisation_id,
      actor,
      'create',
      `Invoice ${invoice.number} issued for ${money(invoice.amount_minor, invoice.currency)}: ${invoice.description}; paid with ${summary}`,
      { invoice: invoice.number, amountMinor: invoice.amount_minor, currency: invoice.currency },
    );
  });
  return { ...invoice, status: 'paid', paid_at: paidAt, payment_summary: summary };
}
