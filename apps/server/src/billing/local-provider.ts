import { randomBytes } from 'node:crypto';
import { detectCardBrand, isCardExpired } from '@rfckit/standards';
import type {
  ChargeRequest,
  ChargeResult,
  NewCard,
  PaymentProvider,
  ProviderCard,
} from './payment-provider.ts';

export const LOCAL_PROVIDER_NOTICE =
  'Payments go through the local payment provider: no real payment is taken and no card is ever charged. ' +
  'Invoices it settles are marked as settled by the local provider.';

export const LOCAL_SETTLEMENT = 'settled by the local payment provider: no payment was taken';

function reference(kind: string): string {
  return `local_${kind}_${randomBytes(12).toString('base64url')}`;
}

/**
 * The provider of an installation that takes no money: it accepts any card that passed the form's
 * checks, keeps nothing of it, and "pays" every invoice without moving money, saying so. Like a
 * real provider it declines a card that has expired by the time it is charged.
 */
export class LocalPaymentProvider implements PaymentProvider {
  readonly id = 'local';
  readonly name = 'Local payment provider';
  readonly takesPayments = false;
  readonly notice = LOCAL_PROVIDER_NOTICE;
  readonly #now: () => Date;

  constructor(options: { now?: () => Date } = {}) {
    this.#now = options.now ?? (() => new Date());
  }

  async addCard(card: NewCard): Promise<ProviderCard> {
    const brand = detectCardBrand(card.number);
    // the routes check first; this guards other callers without ever naming the number
    if (brand === null) throw new Error('The local payment provider was given a card of no supported brand');
    return {
      providerRef: reference('card'),
      brand,
      last4: card.number.slice(-4),
      expiryMonth: card.expiryMonth,
      expiryYear: card.expiryYear,
    };
  }

  async updateCardExpiry(): Promise<void> {
    // nothing is kept here: billing's own record holds the expiry
  }

  async removeCard(): Promise<void> {
    // nothing is kept here to remove
  }

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    if (isCardExpired(request.expiry, this.#now()))
      return { outcome: 'declined', reason: 'The card has expired' };
    return { outcome: 'paid', reference: reference('charge'), settlement: LOCAL_SETTLEMENT };
  }
}
