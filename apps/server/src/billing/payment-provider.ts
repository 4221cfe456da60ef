import type { CardBrand } from '@rfckit/standards';

/**
 * The seam between billing and whoever moves money. Billing hands a provider the card exactly
 * once, when it is added, and keeps only what the provider answers (brand, last four digits,
 * expiry and the provider's reference); every later charge names the card by that reference.
 * An implementation must never log, store or echo the card number or CVV, nor put them in an
 * error message.
 */
export interface PaymentProvider {
  /** Stable id, e.g. `local`. */
  readonly id: string;
  /** For people: "Local payment provider". */
  readonly name: string;
  /** False when nothing is ever charged: the screens and invoices then say so. */
  readonly takesPayments: boolean;
  /** What the billing screen and every invoice must tell the reader, or null. */
  readonly notice: string | null;

  addCard(card: NewCard): Promise<ProviderCard>;
  updateCardExpiry(providerRef: string, expiry: { month: number; year: number }): Promise<void>;
  removeCard(providerRef: string): Promise<void>;
  /** Charges the card for one invoice. A refusal is an answer, not an exception. */
  charge(request: ChargeRequest): Promise<ChargeResult>;
}

/** A card as typed in the form, already checked (Luhn, expiry, CVV length). */
export interface NewCard {
  cardholderName: string;
  /** Digits only. */
  number: string;
  expiryMonth: number;
  expiryYear: number;
  cvv: string;
}

/** What billing may keep of a card. */
export interface ProviderCard {
  providerRef: string;
  brand: CardBrand;
  last4: string;
  expiryMonth: number;
  expiryYear: number;
}

export interface ChargeRequest {
  providerRef: string;
  /** The expiry billing holds for the card. */
  expiry: { month: number; year: number };
  amountMinor: number;
  currency: string;
  invoiceNumber: string;
  description: string;
  /** The same key never charges twice (the invoice id). */
  idempotencyKey: string;
}

export type ChargeResult =
  | {
      outcome: 'paid';
      /** The provider's reference of the payment. */
      reference: string;
      /** How it was settled, for the invoice: "settled by the local payment provider: no payment was taken". */
      settlement: string;
    }
  | { outcome: 'declined'; reason: string };
