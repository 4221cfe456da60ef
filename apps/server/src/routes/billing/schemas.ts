/** Response schemas and views of the billing API; the request schemas are shared in `@rfckit/standards`. */
import { CARD_BRAND_NAMES, type CardBrand, formatMinorUnits } from '@rfckit/standards';
import { z } from 'zod';
import type { PaymentProvider } from '../../billing/payment-provider.ts';
import type { SubscriptionState } from '../../billing/service.ts';
import type { Invoice } from '../../db/invoices.ts';
import type { PaymentMethod } from '../../db/payment-methods.ts';
import { type Plan, planFeatures } from '../../db/plans.ts';

export const bearer = [{ bearerAuth: [] }];

const money = {
  amount: z.string().describe('Decimal amount in the currency, e.g. "49.99"'),
  amountMinor: z.number().int().describe('The same in minor units, e.g. 4999'),
  currency: z.string().describe('ISO 4217 code, e.g. USD'),
};

export const planSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  ...money,
  interval: z.enum(['month', 'year']),
  features: z.array(z.string()),
});

export function planView(plan: Plan) {
  return {
    id: plan.id,
    name: plan.name,
    description: plan.description,
    amount: formatMinorUnits(plan.price_minor, plan.currency),
    amountMinor: plan.price_minor,
    currency: plan.currency,
    interval: plan.billing_interval,
    features: planFeatures(plan),
  };
}

export const subscriptionSchema = z.object({
  id: z.string(),
  planId: z.string(),
  plan: z.string().describe("The plan's name"),
  status: z
    .enum(['active', 'trialing', 'past_due', 'canceled', 'incomplete'])
    .describe('past_due: a renewal is unpaid (overdue); incomplete: a change is being charged (pending)'),
  ...money,
  interval: z.enum(['month', 'year']),
  currentPeriodStart: z.string(),
  currentPeriodEnd: z.string(),
  nextBillingDate: z
    .string()
    .nullable()
    .describe('When the next charge is due; null on a free plan or when none is due'),
  scheduledChange: z
    .object({ planId: z.string(), plan: z.string(), effectiveAt: z.string() })
    .nullable()
    .describe('A change to a free plan waiting for the end of the paid period'),
});

export function subscriptionView({ subscription, plan, scheduledPlan }: SubscriptionState) {
  const billed = plan.price_minor > 0 && scheduledPlan === null && subscription.status !== 'canceled';
  return {
    id: subscription.id,
    planId: plan.id,
    plan: plan.name,
    status: subscription.status,
    amount: formatMinorUnits(subscription.amount_minor, subscription.currency),
    amountMinor: subscription.amount_minor,
    currency: subscription.currency,
    interval: plan.billing_interval,
    currentPeriodStart: subscription.current_period_start,
    currentPeriodEnd: subscription.current_period_end,
    nextBillingDate: billed ? subscription.current_period_end : null,
    scheduledChange:
      scheduledPlan === null
        ? null
        : {
            planId: scheduledPlan.id,
            plan: scheduledPlan.name,
            effectiveAt: subscription.current_period_end,
          },
  };
}

export const providerSchema = z.object({
  id: z.string(),
  name: z.string(),
  takesPayments: z.boolean().describe('False: no payment is ever taken (the local provider)'),
  notice: z.string().nullable(),
});

export function providerView(provider: PaymentProvider) {
  return {
    id: provider.id,
    name: provider.name,
    takesPayments: provider.takesPayments,
    notice: provider.notice,
  };
}

export const paymentMethodSchema = z.object({
  id: z.string(),
  type: z.string(),
  brand: z.string().describe('visa, mastercard, amex, discover, diners, jcb, unionpay or maestro'),
  brandName: z.string().describe('Visa, Mastercard, American Express …'),
  last4: z.string(),
  expiryMonth: z.number().int(),
  expiryYear: z.number().int(),
  cardholderName: z.string(),
  isDefault: z.boolean(),
  createdAt: z.string(),
});

export function paymentMethodView(card: PaymentMethod) {
  return {
    id: card.id,
    type: card.type,
    brand: card.brand,
    brandName: CARD_BRAND_NAMES[card.brand as CardBrand] ?? card.brand,
    last4: card.last4,
    expiryMonth: card.expiry_month,
    expiryYear: card.expiry_year,
    cardholderName: card.cardholder_name,
    isDefault: card.is_default === 1,
    createdAt: card.created_at,
  };
}

export const invoiceSchema = z.object({
  id: z.string(),
  number: z.string(),
  date: z.string().describe('When it was issued'),
  ...money,
  status: z.enum(['paid', 'open', 'void', 'uncollectible']),
  description: z.string(),
  periodStart: z.string(),
  periodEnd: z.string(),
  paidAt: z.string().nullable(),
  paymentSummary: z.string().nullable().describe('The card that paid it and how it was settled'),
});

export function invoiceView(invoice: Invoice) {
  return {
    id: invoice.id,
    number: invoice.number,
    date: invoice.issued_at,
    amount: formatMinorUnits(invoice.amount_minor, invoice.currency),
    amountMinor: invoice.amount_minor,
    currency: invoice.currency,
    status: invoice.status,
    description: invoice.description,
    periodStart: invoice.period_start,
    periodEnd: invoice.period_end,
    paidAt: invoice.paid_at,
    paymentSummary: invoice.payment_summary,
  };
}

export const idParams = z.object({
  id: z
    .string()
    .max(100, 'id is too long')
    .regex(/^[A-Za-z0-9-]+$/, 'id must be an id'),
});
