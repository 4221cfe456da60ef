/** Shapes of the billing API's answers (`/v1/billing/…`) and how the screens name their states. */
import { billingStatusColour } from '@rfckit/standards';

export interface Plan {
  id: string;
  name: string;
  description: string;
  amount: string;
  amountMinor: number;
  currency: string;
  interval: 'month' | 'year';
  features: string[];
}

export type SubscriptionStatus = 'active' | 'trialing' | 'past_due' | 'canceled' | 'incomplete';

export interface Subscription {
  id: string;
  planId: string;
  plan: string;
  status: SubscriptionStatus;
  amount: string;
  amountMinor: number;
  currency: string;
  interval: 'month' | 'year';
  currentPeriodStart: string;
  currentPeriodEnd: string;
  nextBillingDate: string | null;
  scheduledChange: { planId: string; plan: string; effectiveAt: string } | null;
}

export interface PaymentProviderInfo {
  id: string;
  name: string;
  takesPayments: boolean;
  notice: string | null;
}

export interface SubscriptionAnswer {
  subscription: Subscription;
  provider: PaymentProviderInfo;
}

export interface PaymentMethod {
  id: string;
  type: string;
  brand: string;
  brandName: string;
  last4: string;
  expiryMonth: number;
  expiryYear: number;
  cardholderName: string;
  isDefault: boolean;
  createdAt: string;
}

export type InvoiceStatus = 'paid' | 'open' | 'void' | 'uncollectible';

export interface Invoice {
  id: string;
  number: string;
  date: string;
  amount: string;
  amountMinor: number;
  currency: string;
  status: InvoiceStatus;
  description: string;
  periodStart: string;
  periodEnd: string;
  paidAt: string | null;
  paymentSummary: string | null;
}

/** Every billing query of the signed-in user starts with this, so one invalidation refreshes them all. */
export const billingKey = (userId: string | null) => ['billing', userId] as const;

const subscriptionLabels: Record<SubscriptionStatus, string> = {
  active: 'Active',
  trialing: 'Trial',
  past_due: 'Overdue',
  incomplete: 'Pending',
  canceled: 'Canceled',
};

/** The word the screen shows for a subscription's status. */
export function subscriptionStatusLabel(status: SubscriptionStatus): string {
  return subscriptionLabels[status];
}

/** An unpaid invoice is overdue once its subscription is; until then its payment is pending. */
export function invoiceStatusLabel(status: InvoiceStatus, subscriptionStatus?: SubscriptionStatus): string {
  switch (status) {
    case 'paid':
      return 'Paid';
    case 'open':
      return subscriptionStatus === 'past_due' ? 'Overdue' : 'Pending';
    case 'void':
      return 'Void';
    case 'uncollectible':
      return 'Uncollectible';
  }
}

/** Spec part 1 §4: active or paid green, overdue red, pending yellow, anything else grey. */
export const statusColour = billingStatusColour;

/** "49.99 USD", as the invoices print it. */
export function money(amount: string, currency: string): string {
  return `${amount} ${currency}`;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

export function formatDate(iso: string): string {
  return dateFormat.format(new Date(iso));
}

/** "12/31", as printed on the card. */
export function cardExpiry(card: Pick<PaymentMethod, 'expiryMonth' | 'expiryYear'>): string {
  return `${String(card.expiryMonth).padStart(2, '0')}/${String(card.expiryYear % 100).padStart(2, '0')}`;
}
