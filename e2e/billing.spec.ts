import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
import { withConsentGiven } from './fixtures.ts';
import { signInThroughApi } from './session.ts';

// published test cards (Stripe's list)
const VISA = { typed: '4242 4242 4242 4242', digits: '4242424242424242', cvv: '314' };
const MASTERCARD = { typed: '5555 5555 5555 4444', digits: '5555555555554444', cvv: '271' };
const EXPIRY = `12/${String((new Date().getUTCFullYear() + 4) % 100).padStart(2, '0')}`;

/** Keeps the text of every response the page receives, to search for what must never come back. */
function recordResponses(page: Page): string[] {
  const bodies: string[] = [];
  page.on('response', async (response) => {
    try {
      bodies.push(`${response.url()}\n${(await response.body()).toString('latin1')}`);
    } catch {
      // redirects and aborted loads have no body
    }
  });
  return bodies;
}

async function addCard(page: Page, name: string, card: { typed: string; cvv: string }) {
  const form = page.getByRole('region', { name: 'Add a card' });
  await form.getByLabel('Cardholder name').fill(name);
  await form.getByLabel('Card number').fill(card.typed);
  await form.getByLabel('Expiry date (MM/YY)').fill(EXPIRY);
  await form.getByLabel('CVV').fill(card.cvv);
  await form.getByRole('button', { name: 'Add card' }).click();
  await expect(form.getByText('Payment method added successfully!')).toBeVisible();
  // the form forgets the number once the card is added
  await expect(form.getByLabel('Card number')).toHaveValue('');
}

test.beforeEach(async ({ page }) => {
  await withConsentGiven(page);
});

test('billing adds and removes a card and never sends the full number back', async ({ page, request }) => {
  const bodies = recordResponses(page);
  await signInThroughApi(page, request, 'billing-cards');

  await page.goto('/dashboard');
  await page.getByRole('button', { name: /Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Billing' }).click();
  await expect(page).toHaveURL(/\/billing$/);
  await expect(page.getByRole('heading', { name: 'Billing & Subscription' })).toBeVisible();
  await expect(page.getByText('No real payment is taken', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Current plan: Free' })).toBeVisible();

  await page.getByRole('tab', { name: 'Payment Methods' }).click();
  await expect(page.getByText('No payment methods yet.')).toBeVisible();

  // live checks, with the server's own words, once a field has been left
  const form = page.getByRole('region', { name: 'Add a card' });
  await form.getByLabel('Card number').fill('4242 4242 4242 4241');
  await form.getByLabel('Card number').blur();
  await expect(form.getByText('Card number is not valid: please check it for typing errors')).toBeVisible();
  await form.getByLabel('Expiry date (MM/YY)').fill('01/20');
  await form.getByLabel('Expiry date (MM/YY)').blur();
  await expect(form.getByText('This card has expired')).toBeVisible();
  await form.getByLabel('Card number').fill('');
  await form.getByLabel('Expiry date (MM/YY)').fill('');

  await addCard(page, 'Ada Lovelace', VISA);
  const cards = page.getByRole('region', { name: 'Payment methods' });
  const visaRow = cards.getByRole('row', { name: /Visa/ });
  await expect(visaRow).toContainText('4242');
  await expect(visaRow).toContainText(EXPIRY);
  await expect(visaRow).toContainText('Default');

  await addCard(page, 'Grace Hopper', MASTERCARD);
  const mastercardRow = cards.getByRole('row', { name: /Mastercard/ });
  await expect(mastercardRow).toContainText('4444');
  await expect(mastercardRow).not.toContainText('Default');

  await page.getByRole('button', { name: 'Set Mastercard ending 4444 as default' }).click();
  await expect(page.getByText('Default payment method updated successfully!')).toBeVisible();
  await expect(mastercardRow).toContainText('Default');
  await expect(visaRow).not.toContainText('Default');

  await page.getByRole('button', { name: 'Remove Visa ending 4242' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove Visa ending 4242?' });
  await dialog.getByRole('button', { name: 'Remove card' }).click();
  await expect(page.getByText('Payment method removed successfully!')).toBeVisible();
  await expect(cards.getByRole('row', { name: /Visa/ })).toHaveCount(0);
  await expect(mastercardRow).toContainText('Default');

  // what the screen shows is what was saved
  await page.goto('/billing?tab=payment-methods');
  await expect(cards.getByRole('row', { name: /Mastercard/ })).toContainText('Default');
  await expect(cards.getByRole('row', { name: /Visa/ })).toHaveCount(0);

  expect(bodies.length).toBeGreaterThan(10);
  expect(bodies.some((body) => body.includes('/v1/billing/payment-methods'))).toBe(true);
  for (const body of bodies) {
    for (const card of [VISA, MASTERCARD]) {
      expect(body).not.toContain(card.digits);
      expect(body).not.toContain(card.typed);
      expect(body).not.toContain(`"${card.cvv}"`);
    }
  }
});

test('upgrading to Professional issues an invoice that downloads as a PDF naming the amount', async ({
  page,
  request,
}) => {
  const { token } = await signInThroughApi(page, request, 'billing-upgrade');
  const added = await request.post('/v1/billing/payment-methods', {
    headers: { authorization: `Bearer ${token}` },
    data: { cardholderName: 'Ada Lovelace', cardNumber: VISA.typed, expiryDate: EXPIRY, cvv: VISA.cvv },
  });
  expect(added.status(), await added.text()).toBe(201);
  expect(await added.text()).not.toContain(VISA.digits);

  await page.goto('/billing');
  await page.getByRole('button', { name: 'Upgrade to Professional' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upgrade to Professional?' });
  await expect(dialog).toContainText('49.99 USD');
  await expect(dialog).toContainText('Visa ending 4242');
  await dialog.getByRole('button', { name: 'Upgrade to Professional' }).click();
  await expect(page.getByText(/Plan changed to Professional successfully!/)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Current plan: Professional' })).toBeVisible();
  const current = page.getByRole('region', { name: 'Current plan: Professional' });
  await expect(current.getByText('Active', { exact: true })).toBeVisible();
  await expect(current).toContainText('49.99 USD per month');

  await page.getByRole('tab', { name: 'Invoices' }).click();
  const invoices = page.getByRole('region', { name: 'Invoices' }).getByRole('table');
  const row = invoices.getByRole('row').nth(1);
  await expect(row).toContainText('49.99 USD');
  await expect(row).toContainText('Paid');
  await expect(row).toContainText('Professional plan');
  const number = (await row.getByRole('cell').first().textContent())?.trim() ?? '';
  expect(number).toMatch(/^INV-\d{8}-[0-9A-Z]{6}$/);

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: `Download PDF of invoice ${number}` }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`invoice-${number}.pdf`);
  const bytes = await readFile(await download.path());
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  expect(text).toContain(`Invoice ${number}`);
  expect(text).toContain('49.99 USD');
  expect(text).toContain('No payment taken.');
});
