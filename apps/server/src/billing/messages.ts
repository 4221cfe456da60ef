import { CARD_BRAND_NAMES, type CardBrand, formatMinorUnits } from '@rfckit/standards';
import type { PaymentMethod } from '../db/payment-methods.ts';

/** How many cards an organisation may keep. */
export const MAX_PAYMENT_METHODS = 10;

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

/** "Visa ending 4242". */
export function cardLabel(card: Pick<PaymentMethod, 'brand' | 'last4'>): string {
  const name = CARD_BRAND_NAMES[card.brand as CardBrand] ?? card.brand;
  return `${name} ending ${card.last4}`;
}

export function money(amountMinor: number, currency: string): string {
  return `${formatMinorUnits(amountMinor, currency)} ${currency}`;
}
