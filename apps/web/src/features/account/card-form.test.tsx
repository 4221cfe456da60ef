import { PAYMENT_CARD_MESSAGES } from '@rfckit/standards';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { renderWithProviders } from '../../test/render.tsx';
import { invoiceStatusLabel, statusColour, subscriptionStatusLabel } from './billing-types.ts';
import { CardForm } from './card-form.tsx';

// typing, rendering and the work behind them take seconds in jsdom on a busy machine: not the 5 s default
const SLOW_UI_MS = 30_000;

const added = {
  id: 'c1',
  type: 'card',
  brand: 'amex',
  brandName: 'American Express',
  last4: '0005',
  expiryMonth: 12,
  expiryYear: 2040,
  cardholderName: 'Ada Lovelace',
  isDefault: true,
  createdAt: '2026-01-01T00:00:00.000Z',
};

describe('CardForm', { timeout: SLOW_UI_MS }, () => {
  let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;

  beforeEach(() => {
    fetchMock = vi.fn<typeof fetch>().mockImplementation(
      async () =>
        new Response(
          JSON.stringify({
            success: true,
            data: { message: 'Payment method added successfully!', paymentMethod: added },
          }),
          { status: 201, headers: { 'Content-Type': 'application/json' } },
        ),
    );
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows each field’s problem once the field is left, as the user types', async () => {
    const user = userEvent.setup();
    renderWithProviders(<CardForm onAdded={() => {}} />);
    const number = screen.getByLabelText(/Card number/);
    await user.type(number, '4242 4242 4242 4241');
    // not yet left: no message while typing the first time
    expect(screen.queryByText(PAYMENT_CARD_MESSAGES.numberLuhn)).toBeNull();
    await user.tab();
    expect(screen.getByText(PAYMENT_CARD_MESSAGES.numberLuhn)).toBeTruthy();
    expect(number.getAttribute('aria-invalid')).toBe('true');

    // fixing it clears the message at once
    await user.clear(number);
    await user.type(number, '3782 822463 10005');
    expect(screen.queryByText(PAYMENT_CARD_MESSAGES.numberLuhn)).toBeNull();
    expect(screen.getByText('American Express card')).toBeTruthy();

    const cvv = screen.getByLabelText(/CVV/);
    await user.type(cvv, '123');
    await user.tab();
    expect(screen.getByText(PAYMENT_CARD_MESSAGES.cvv4)).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('refuses an empty form with the spec’s message before any call', async () => {
    const user = userEvent.setup();
    renderWithProviders(<CardForm onAdded={() => {}} />);
    await user.click(screen.getByRole('button', { name: 'Add card' }));
    expect(screen.getAllByText(PAYMENT_CARD_MESSAGES.allRequired).length).toBeGreaterThan(0);
    expect(screen.getByText(PAYMENT_CARD_MESSAGES.nameRequired)).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends a good card once and forgets the number and CVV', async () => {
    const user = userEvent.setup();
    const onAdded = vi.fn();
    renderWithProviders(<CardForm onAdded={onAdded} />);
    await user.type(screen.getByLabelText(/Cardholder name/), 'Ada Lovelace');
    await user.type(screen.getByLabelText(/Card number/), '3782 822463 10005');
    await user.type(screen.getByLabelText(/Expiry date/), '12/40');
    await user.type(screen.getByLabelText(/CVV/), '7391');
    await user.click(screen.getByRole('button', { name: 'Add card' }));

    expect(await screen.findByText('Payment method added successfully!')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/v1/billing/payment-methods');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({
      cardholderName: 'Ada Lovelace',
      cardNumber: '3782 822463 10005',
      expiryDate: '12/40',
      cvv: '7391',
    });
    expect(onAdded).toHaveBeenCalledTimes(1);
    expect((screen.getByLabelText(/Card number/) as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText(/CVV/) as HTMLInputElement).value).toBe('');
  });
});

describe('billing status words and colours (spec part 1 §4)', { timeout: SLOW_UI_MS }, () => {
  it.each([
    [subscriptionStatusLabel('active'), 'Active', 'green'],
    [subscriptionStatusLabel('past_due'), 'Overdue', 'red'],
    [subscriptionStatusLabel('incomplete'), 'Pending', 'yellow'],
    [subscriptionStatusLabel('canceled'), 'Canceled', 'gray'],
    [invoiceStatusLabel('paid'), 'Paid', 'green'],
    [invoiceStatusLabel('open'), 'Pending', 'yellow'],
    [invoiceStatusLabel('open', 'past_due'), 'Overdue', 'red'],
    [invoiceStatusLabel('void'), 'Void', 'gray'],
    [invoiceStatusLabel('uncollectible'), 'Uncollectible', 'gray'],
  ])('%s', (label, expected, colour) => {
    expect(label).toBe(expected);
    expect(statusColour(label)).toBe(colour);
  });
});
