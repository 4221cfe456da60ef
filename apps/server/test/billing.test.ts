import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/auth/passwords.ts';
import { addMembership } from '../src/db/memberships.ts';
import { createUser } from '../src/db/users.ts';
import { accountClient, PASSWORD } from './helpers/accounts.ts';
import { buildTestApp, captureLogs, type LogCapture } from './helpers/app.ts';
import { describeEachDatabase } from './helpers/databases.ts';

interface Card {
  id: string;
  brand: string;
  brandName: string;
  last4: string;
  expiryMonth: number;
  expiryYear: number;
  isDefault: boolean;
  cardholderName: string;
}

interface Invoice {
  id: string;
  number: string;
  date: string;
  amount: string;
  amountMinor: number;
  currency: string;
  status: string;
  description: string;
  paymentSummary: string | null;
}

interface Subscription {
  id: string;
  planId: string;
  plan: string;
  status: string;
  amount: string;
  currency: string;
  currentPeriodStart: string;
  currentPeriodEnd: string;
  nextBillingDate: string | null;
  scheduledChange: { planId: string; plan: string; effectiveAt: string } | null;
}

// published test numbers (Stripe, Braintree) and CVVs that stand out in a haystack
const VISA = { number: '4242424242424242', typed: '4242 4242 4242 4242', cvv: '731' };
const MASTERCARD = { number: '5555555555554444', typed: '5555-5555-5555-4444', cvv: '482' };
const AMEX = { number: '378282246310005', typed: '3782 822463 10005', cvv: '7391' };
const DISCOVER = { number: '6011111111111117', typed: '6011111111111117', cvv: '915' };
const SECRETS = [VISA, MASTERCARD, AMEX, DISCOVER];

const FUTURE = `12/${String((new Date().getUTCFullYear() + 5) % 100).padStart(2, '0')}`;

function card(secret: { typed: string; cvv: string }, name = 'Ada Lovelace', expiryDate = FUTURE) {
  return { cardholderName: name, cardNumber: secret.typed, expiryDate, cvv: secret.cvv };
}

/** Published by an independent PDF reader (pdf.js): the text a person would see. */
async function pdfText(body: Buffer): Promise<string> {
  const pdf = await getDocumentProxy(new Uint8Array(body));
  const { text } = await extractText(pdf, { mergePages: true });
  return text;
}

/** Each piece of text pdf.js finds on the first page, with the PDF font (BaseFont) that draws it. */
async function pdfRuns(body: Buffer): Promise<Array<{ text: string; font: string }>> {
  const pdf = await getDocumentProxy(new Uint8Array(body));
  const page = await pdf.getPage(1);
  const content = await page.getTextContent();
  await page.getOperatorList(); // loads the fonts into commonObjs
  return content.items.flatMap((item) =>
    'str' in item && item.str.trim() !== ''
      ? [{ text: item.str, font: (page.commonObjs.get(item.fontName) as { name: string }).name }]
      : [],
  );
}

/** The fonts a PDF names, without the six-letter subset tag. */
function baseFonts(body: Buffer): Set<string> {
  return new Set(
    Array.from(
      body.toString('latin1').matchAll(/\/BaseFont\s*\/(?:[A-Z]{6}\+)?([^\s/<>[\]()]+)/g),
      (match) => match[1] ?? '',
    ),
  );
}

function monthLater(iso: string): string {
  const date = new Date(iso);
  date.setUTCMonth(date.getUTCMonth() + 1);
  return date.toISOString();
}

describeEachDatabase('billing', (database) => {
  let app: FastifyInstance;
  let logs: LogCapture;
  let client: ReturnType<typeof accountClient>;
  type Session = Awaited<ReturnType<ReturnType<typeof accountClient>['login']>>;
  let admin: Session;
  let member: Session;
  let outsider: Session;
  let apiKey: string;
  /** Every response body the billing routes sent, searched for card numbers at the end. */
  const bodies: string[] = [];

  beforeAll(async () => {
    logs = captureLogs();
    app = await buildTestApp(
      {
        ...database.env(),
        RATE_LIMIT_SCALE: '10000',
        LOG_LEVEL: 'trace',
        INVOICE_SELLER: 'Example Billing Ltd|1 High Street|London EC1A 1AA|Agent: Ελληνικά Α.Ε.',
      },
      logs,
    );
    client = accountClient(app, () => database.env().DATA_DIR ?? '');
    admin = await client.signUp('boss@example.org', PASSWORD, { company: 'Acme Ltd' });
    const worker = await createUser(app.db, {
      email: 'worker@example.org',
      passwordHash: await hashPassword(PASSWORD),
      emailVerifiedAt: new Date().toISOString(),
    });
    await addMembership(app.db, {
      userId: worker.id,
      organisationId: admin.user.organisation.id,
      role: 'member',
    });
    member = await client.login('worker@example.org');
    outsider = await client.signUp('other@example.org', PASSWORD, { company: 'Other Co' });
    const created = await call(admin, 'POST', '/v1/organisation/api-keys', { name: 'billing probe' });
    expect(created.statusCode, created.body).toBe(201);
    apiKey = (created.json() as { data: { key: string } }).data.key;
  });
  afterAll(async () => {
    await app.close();
  });

  async function call(
    session: Session | { token: string } | null,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: unknown,
  ): Promise<LightMyRequestResponse> {
    const response = await app.inject({
      method,
      url,
      headers: {
        ...(session === null ? {} : { authorization: `Bearer ${session.token}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    bodies.push(response.body);
    return response;
  }

  async function ok<T>(
    session: Session,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: unknown,
  ) {
    const response = await call(session, method, url, body);
    expect(response.statusCode, response.body).toBeLessThan(300);
    return (response.json() as { data: T }).data;
  }

  const subscription = async (session = admin) =>
    (await ok<{ subscription: Subscription }>(session, 'GET', '/v1/billing/subscription')).subscription;
  const cards = async (session = admin) =>
    (await ok<{ paymentMethods: Card[] }>(session, 'GET', '/v1/billing/payment-methods')).paymentMethods;
  const invoices = async (session = admin) =>
    (await ok<{ invoices: Invoice[] }>(session, 'GET', '/v1/billing/invoices')).invoices;
  const addCard = async (body: unknown, session = admin) =>
    (await ok<{ paymentMethod: Card; message: string }>(session, 'POST', '/v1/billing/payment-methods', body))
      .paymentMethod;
  const changePlan = (planId: string, session = admin) =>
    ok<{ message: string; subscription: Subscription; invoice: Invoice | null }>(
      session,
      'PUT',
      '/v1/billing/subscription',
      { planId },
    );

  async function descriptions(): Promise<string[]> {
    const rows = await app.db
      .selectFrom('activity')
      .select('description')
      .where('organisation_id', '=', admin.user.organisation.id)
      .orderBy('created_at')
      .execute();
    return rows.map((row) => row.description);
  }

  /** Moves the organisation's billing period so that it ended a minute ago. */
  async function endPeriod(organisationId = admin.user.organisation.id) {
    const ended = new Date(Date.now() - 60_000);
    const started = new Date(ended);
    started.setUTCMonth(started.getUTCMonth() - 1);
    await app.db
      .updateTable('subscription')
      .set({ current_period_start: started.toISOString(), current_period_end: ended.toISOString() })
      .where('organisation_id', '=', organisationId)
      .execute();
    return ended.toISOString();
  }

  async function removeAllCards() {
    for (const existing of await cards()) {
      await app.db.deleteFrom('payment_method').where('id', '=', existing.id).execute();
    }
  }

  async function resetToFree() {
    await app.db
      .updateTable('subscription')
      .set({ plan_id: 'free', amount_minor: 0, status: 'active', canceled_at: null })
      .where('organisation_id', '=', admin.user.organisation.id)
      .execute();
  }

  describe('plans and the first read', () => {
    it('lists the seeded plans with prices in minor units and as decimals', async () => {
      const { plans } = await ok<{ plans: Array<Record<string, unknown>> }>(
        member,
        'GET',
        '/v1/billing/plans',
      );
      expect(
        plans.map((plan) => [
          plan.id,
          plan.name,
          plan.amount,
          plan.amountMinor,
          plan.currency,
          plan.interval,
        ]),
      ).toEqual([
        ['free', 'Free', '0.00', 0, 'USD', 'month'],
        ['professional', 'Professional', '49.99', 4999, 'USD', 'month'],
      ]);
      expect(plans[0]?.features).toContain('API keys for automation');
      expect(plans[1]?.features).toContain('Everything in Free');
    });

    it('creates a Free subscription on first read, once, and names the local provider', async () => {
      expect(
        await app.db
          .selectFrom('subscription')
          .selectAll()
          .where('organisation_id', '=', admin.user.organisation.id)
          .execute(),
      ).toEqual([]);
      const response = await call(member, 'GET', '/v1/billing/subscription');
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const data = response.json().data as { subscription: Subscription; provider: Record<string, unknown> };
      expect(data.subscription).toMatchObject({
        planId: 'free',
        plan: 'Free',
        status: 'active',
        amount: '0.00',
        currency: 'USD',
        nextBillingDate: null,
        scheduledChange: null,
      });
      expect(data.subscription.currentPeriodEnd).toBe(monthLater(data.subscription.currentPeriodStart));
      expect(data.provider).toMatchObject({ id: 'local', takesPayments: false });
      expect(data.provider.notice).toMatch(/no real payment is taken/);
      expect((await subscription(admin)).id).toBe(data.subscription.id);
      const rows = await app.db
        .selectFrom('subscription')
        .select('id')
        .where('organisation_id', '=', admin.user.organisation.id)
        .execute();
      expect(rows).toHaveLength(1);
    });

    it('creates one row even when first reads race', async () => {
      const results = await Promise.all([
        subscription(outsider),
        subscription(outsider),
        subscription(outsider),
      ]);
      expect(new Set(results.map((result) => result.id)).size).toBe(1);
    });
  });

  describe('authorisation', () => {
    const reads = [
      '/v1/billing/plans',
      '/v1/billing/subscription',
      '/v1/billing/payment-methods',
      '/v1/billing/invoices',
    ];

    it('refuses anonymous callers and API keys with 401 on every billing route', async () => {
      const routes: Array<['GET' | 'POST' | 'PUT' | 'DELETE', string, unknown?]> = [
        ...reads.map((url) => ['GET', url] as ['GET', string]),
        ['PUT', '/v1/billing/subscription', { planId: 'professional' }],
        ['POST', '/v1/billing/payment-methods', card(VISA)],
        ['PUT', '/v1/billing/payment-methods/00000000-0000-0000-0000-000000000000', { isDefault: true }],
        ['DELETE', '/v1/billing/payment-methods/00000000-0000-0000-0000-000000000000'],
        ['GET', '/v1/billing/invoices/00000000-0000-0000-0000-000000000000/document'],
      ];
      for (const [method, url, body] of routes) {
        const anonymous = await call(null, method, url, body);
        expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
        const keyed = await call({ token: apiKey }, method, url, body);
        expect(keyed.statusCode, `${method} ${url} with an API key`).toBe(401);
        expect(keyed.json().success).toBe(false);
        const aliased = await call({ token: apiKey }, method, url.replace('/v1/', '/api/v1/'), body);
        expect(aliased.statusCode).toBe(401);
      }
    });

    it('lets members read but not change (403)', async () => {
      for (const url of reads) expect((await call(member, 'GET', url)).statusCode, url).toBe(200);
      const attempts = [
        await call(member, 'PUT', '/v1/billing/subscription', { planId: 'professional' }),
        await call(member, 'POST', '/v1/billing/payment-methods', card(VISA)),
      ];
      const existing = await addCard(card(VISA));
      attempts.push(
        await call(member, 'PUT', `/v1/billing/payment-methods/${existing.id}`, { isDefault: true }),
        await call(member, 'DELETE', `/v1/billing/payment-methods/${existing.id}`),
      );
      for (const attempt of attempts) {
        expect(attempt.statusCode).toBe(403);
        expect(attempt.json().code).toBe('ADMIN_REQUIRED');
      }
      expect(await cards()).toHaveLength(1);
      expect((await subscription()).planId).toBe('free');
      await ok(admin, 'DELETE', `/v1/billing/payment-methods/${existing.id}`);
    });

    it("answers 404 for another organisation's cards and invoices, and never shows them", async () => {
      const theirs = await addCard(card(MASTERCARD, 'Other Owner'), outsider);
      await changePlan('professional', outsider);
      const [theirInvoice] = await invoices(outsider);
      expect(theirInvoice).toBeDefined();

      for (const [method, url, body] of [
        ['PUT', `/v1/billing/payment-methods/${theirs.id}`, { isDefault: true }],
        ['PUT', `/v1/billing/payment-methods/${theirs.id}`, { expiryDate: FUTURE }],
        ['DELETE', `/v1/billing/payment-methods/${theirs.id}`],
        ['GET', `/v1/billing/invoices/${theirInvoice?.id}/document`],
        ['GET', `/v1/billing/invoices/${theirInvoice?.id}/document?format=html`],
      ] as const) {
        const response = await call(admin, method, url, body);
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.json().code).toBe('NOT_FOUND');
      }
      expect((await cards()).some((row) => row.id === theirs.id)).toBe(false);
      expect((await invoices()).some((row) => row.id === theirInvoice?.id)).toBe(false);
      expect((await subscription()).planId).toBe('free');
      expect(await cards(outsider)).toHaveLength(1);
    });

    it('checks the role held now, not the one in the access token', async () => {
      await app.db
        .updateTable('membership')
        .set({ role: 'member' })
        .where('user_id', '=', admin.user.id)
        .execute();
      try {
        const response = await call(admin, 'POST', '/v1/billing/payment-methods', card(VISA));
        expect(response.statusCode).toBe(403);
      } finally {
        await app.db
          .updateTable('membership')
          .set({ role: 'admin' })
          .where('user_id', '=', admin.user.id)
          .execute();
      }
    });
  });

  describe('cards', () => {
    it.each([
      [{ ...card(VISA), cvv: '' }, 'All fields are required'],
      [{ cardholderName: 'Ada', cardNumber: VISA.number, expiryDate: FUTURE }, 'All fields are required'],
      [
        card({ typed: '4242424242424241', cvv: '123' }),
        'Card number is not valid: please check it for typing errors',
      ],
      [card(VISA, 'Ada', '01/20'), 'This card has expired'],
      [card(VISA, 'Ada', '2030-01'), 'Expiry date must be in MM/YY format'],
      [card({ typed: AMEX.typed, cvv: '123' }), 'CVV must be 4 digits for American Express'],
      [card({ typed: VISA.typed, cvv: '7391' }), 'CVV must be 3 digits'],
      [
        card({ typed: '9999 9999 9999 9995', cvv: '123' }),
        expect.stringMatching(/^This card type is not supported/),
      ],
    ])("refuses a bad card with the form's message (%#)", async (body, message) => {
      const response = await call(admin, 'POST', '/v1/billing/payment-methods', body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR', error: message });
    });

    it('refuses unknown fields', async () => {
      const response = await call(admin, 'POST', '/v1/billing/payment-methods', {
        ...card(VISA),
        cardType: 'visa',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatch(/Unknown field "cardType"/);
    });

    it('stores brand, last four, expiry and name only; the first card is the default', async () => {
      const response = await call(
        admin,
        'POST',
        '/v1/billing/payment-methods',
        card(VISA, '  Ada Lovelace '),
      );
      expect(response.statusCode, response.body).toBe(201);
      const data = response.json().data as { message: string; paymentMethod: Card };
      expect(data.message).toBe('Payment method added successfully!');
      const [, year] = FUTURE.split('/');
      expect(data.paymentMethod).toMatchObject({
        brand: 'visa',
        brandName: 'Visa',
        last4: '4242',
        expiryMonth: 12,
        expiryYear: 2000 + Number(year),
        cardholderName: 'Ada Lovelace',
        isDefault: true,
      });
      const amex = await addCard(card(AMEX, 'Charles Babbage'));
      expect(amex).toMatchObject({ brand: 'amex', last4: '0005', isDefault: false });

      const rows = await app.db
        .selectFrom('payment_method')
        .selectAll()
        .where('organisation_id', '=', admin.user.organisation.id)
        .execute();
      expect(rows).toHaveLength(2);
      for (const row of rows) {
        expect(row.provider_ref).toMatch(/^local_card_/);
        const stored = JSON.stringify(row);
        for (const secret of SECRETS) {
          expect(stored).not.toContain(secret.number);
          expect(stored).not.toContain(`"${secret.cvv}"`);
        }
      }
      expect((await cards()).map((row) => [row.brand, row.isDefault])).toEqual([
        ['visa', true],
        ['amex', false],
      ]);
    });

    it('sets the default and records a new expiry date', async () => {
      const [visa, amex] = await cards();
      const made = await ok<{ message: string; paymentMethod: Card }>(
        admin,
        'PUT',
        `/v1/billing/payment-methods/${amex?.id}`,
        { isDefault: true },
      );
      expect(made.message).toBe('Default payment method updated successfully!');
      expect((await cards()).map((row) => [row.id, row.isDefault])).toEqual([
        [amex?.id, true],
        [visa?.id, false],
      ]);

      const renewed = await ok<{ message: string; paymentMethod: Card }>(
        admin,
        'PUT',
        `/v1/billing/payment-methods/${visa?.id}`,
        { expiryDate: '03/40' },
      );
      expect(renewed.message).toBe('Expiry date updated successfully!');
      expect(renewed.paymentMethod).toMatchObject({ expiryMonth: 3, expiryYear: 2040, isDefault: false });

      const expired = await call(admin, 'PUT', `/v1/billing/payment-methods/${visa?.id}`, {
        expiryDate: '01/21',
      });
      expect(expired.statusCode).toBe(400);
      expect(expired.json().error).toBe('This card has expired');
      const empty = await call(admin, 'PUT', `/v1/billing/payment-methods/${visa?.id}`, {});
      expect(empty.statusCode).toBe(400);
      const missing = await call(admin, 'PUT', '/v1/billing/payment-methods/not-a-card', { isDefault: true });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error).toBe('Payment method not found');
    });

    it('moves the default to another card when the default is removed', async () => {
      const [amex, visa] = await cards();
      expect(amex?.brand).toBe('amex');
      const removed = await ok<{ message: string }>(
        admin,
        'DELETE',
        `/v1/billing/payment-methods/${amex?.id}`,
      );
      expect(removed.message).toBe('Payment method removed successfully!');
      expect((await cards()).map((row) => [row.id, row.isDefault])).toEqual([[visa?.id, true]]);
      expect((await call(admin, 'DELETE', `/v1/billing/payment-methods/${amex?.id}`)).statusCode).toBe(404);
    });

    it('records every card change in the activity log', async () => {
      const lines = await descriptions();
      expect(lines).toEqual(
        expect.arrayContaining([
          `Payment method added: Visa ending 4242, expires ${FUTURE}, now the default`,
          `Payment method added: American Express ending 0005, expires ${FUTURE}`,
          'Default payment method changed to American Express ending 0005',
          `Expiry date of Visa ending 4242 changed from ${FUTURE} to 03/40`,
          'Payment method removed: American Express ending 0005; Visa ending 4242 is now the default',
        ]),
      );
      const row = await app.db
        .selectFrom('activity')
        .selectAll()
        .where('description', '=', 'Default payment method changed to American Express ending 0005')
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        user_id: admin.user.id,
        username: 'boss@example.org',
        action: 'update',
        ip_address: '127.0.0.1',
      });
    });
  });

  describe('plan changes and invoices', () => {
    it('needs a card before a paid plan', async () => {
      await removeAllCards();
      const response = await call(admin, 'PUT', '/v1/billing/subscription', { planId: 'professional' });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({
        code: 'PAYMENT_METHOD_REQUIRED',
        error: 'Add a payment method before changing to the Professional plan.',
      });
      const unknown = await call(admin, 'PUT', '/v1/billing/subscription', { planId: 'enterprise' });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().code).toBe('UNKNOWN_PLAN');
    });

    it('upgrades to Professional: charges the full 49.99 USD and issues a paid invoice', async () => {
      await addCard(card(VISA));
      const before = Date.now();
      const result = await changePlan('professional');
      expect(result.message).toMatch(
        /^Plan changed to Professional successfully! Invoice INV-\d{8}-[0-9A-Z]{6} for 49\.99 USD was settled by the local payment provider: no payment was taken\.$/,
      );
      expect(result.subscription).toMatchObject({
        planId: 'professional',
        status: 'active',
        amount: '49.99',
        currency: 'USD',
      });
      expect(Date.parse(result.subscription.currentPeriodStart)).toBeGreaterThanOrEqual(before);
      expect(result.subscription.currentPeriodEnd).toBe(monthLater(result.subscription.currentPeriodStart));
      expect(result.subscription.nextBillingDate).toBe(result.subscription.currentPeriodEnd);
      expect(result.invoice).toMatchObject({
        status: 'paid',
        amount: '49.99',
        amountMinor: 4999,
        currency: 'USD',
        paymentSummary: 'Visa ending 4242, settled by the local payment provider: no payment was taken',
      });
      expect(result.invoice?.description).toMatch(
        /^Professional plan, \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}$/,
      );

      const listed = await invoices(member);
      expect(listed[0]).toMatchObject({ id: result.invoice?.id, status: 'paid', amount: '49.99' });
      expect(await subscription(member)).toMatchObject({ planId: 'professional', status: 'active' });

      const again = await changePlan('professional');
      expect(again.message).toBe('Your organisation is already on the Professional plan.');
      expect(again.invoice).toBeNull();
      expect(await invoices()).toHaveLength(1);

      const lines = await descriptions();
      expect(lines).toContain(
        `Plan changed from Free to Professional; next billing date ${result.subscription.currentPeriodEnd.slice(0, 10)}`,
      );
      expect(lines).toContain(
        `Invoice ${result.invoice?.number} issued for 49.99 USD: ${result.invoice?.description}; paid with Visa ending 4242, settled by the local payment provider: no payment was taken`,
      );
    });

    it('serves the invoice as a PDF that names seller, buyer, number and amount', async () => {
      const [invoice] = await invoices();
      const response = await call(member, 'GET', `/v1/billing/invoices/${invoice?.id}/document`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['content-disposition']).toBe(
        `attachment; filename="invoice-${invoice?.number}.pdf"`,
      );
      expect(response.headers['cache-control']).toBe('no-store');
      const bytes = response.rawPayload;
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const text = await pdfText(bytes);
      expect(text).toContain(`Invoice ${invoice?.number}`);
      expect(text).toContain('Status: Paid');
      expect(text).toContain('Example Billing Ltd');
      expect(text).toContain('London EC1A 1AA');
      expect(text).toContain('Acme Ltd');
      expect(text).toContain('49.99 USD');
      expect(text).toContain(invoice?.description ?? 'missing');
      expect(text).toContain('Visa ending 4242');
      expect(text).toMatch(/No payment taken\.\s+Payments go through the local payment provider/);
    });

    it('serves a printable HTML page with the same facts, escaped', async () => {
      await app.db
        .updateTable('organisation')
        .set({ address: '1 <b>Bold</b> Road\nSpringfield', domain: 'acme.example' })
        .where('id', '=', admin.user.organisation.id)
        .execute();
      const [invoice] = await invoices();
      const response = await call(admin, 'GET', `/v1/billing/invoices/${invoice?.id}/document?format=html`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['content-disposition']).toBe(
        `inline; filename="invoice-${invoice?.number}.html"`,
      );
      const html = response.body;
      expect(html).toMatch(/^<!doctype html>/);
      expect(html).toContain(`<title>Invoice ${invoice?.number}</title>`);
      expect(html).toContain('Example Billing Ltd<br>1 High Street<br>London EC1A 1AA');
      expect(html).toContain('Acme Ltd<br>1 &#60;b&#62;Bold&#60;/b&#62; Road<br>Springfield<br>acme.example');
      expect(html).not.toContain('<b>Bold</b>');
      expect(html).toContain('<td>49.99 USD</td>');
      expect(html).toContain('Amount due</td><td>0.00 USD');
      expect(html).toContain('no real payment is taken');
      expect(html).not.toContain('<script');

      const bad = await call(admin, 'GET', `/v1/billing/invoices/${invoice?.id}/document?format=docx`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toBe('format must be pdf or html');
    });

    it('writes names in any script into the PDF as real text, in an embedded Unicode font', async () => {
      const organisationId = admin.user.organisation.id;
      const [invoice] = await invoices();
      const saved = await app.db
        .selectFrom('organisation')
        .select(['name', 'address', 'domain'])
        .where('id', '=', organisationId)
        .executeTakeFirstOrThrow();
      await app.db
        .updateTable('organisation')
        .set({
          name: 'Ærøskøbing ApS',
          address: 'Attn: Zoë Łukasiewicz\nДмитрий Иванов\n東京株式会社\nÐặng Thị, Đà Nẵng',
          domain: null,
        })
        .where('id', '=', organisationId)
        .execute();
      // the line item, as a plan's name in another language would read
      const description = `Professional — Ελληνικά Α.Ε. 東京株式会社 ${invoice?.description}`;
      await app.db
        .updateTable('invoice')
        .set({ description })
        .where('id', '=', invoice?.id ?? '')
        .execute();
      try {
        const response = await call(member, 'GET', `/v1/billing/invoices/${invoice?.id}/document`);
        expect(response.statusCode).toBe(200);
        const bytes = response.rawPayload;
        // a long line wraps: compare with line breaks read as spaces
        const text = (await pdfText(bytes)).replace(/\s+/g, ' ');
        for (const name of [
          'Ærøskøbing ApS',
          'Attn: Zoë Łukasiewicz',
          'Дмитрий Иванов',
          '東京株式会社',
          'Ðặng Thị, Đà Nẵng',
          'Agent: Ελληνικά Α.Ε.',
          description,
        ]) {
          expect(text).toContain(name);
        }
        expect(text).toContain('49.99 USD');
        // nothing replaced or dropped: no '?', no U+FFFD, no unmapped glyph read as U+0000
        expect(text).not.toMatch(/[?\uFFFD]/);
        expect(text).not.toContain('\u0000');

        // Helvetica (WinAnsi only) is gone; DejaVu Sans draws regular and bold text
        const fonts = baseFonts(bytes);
        expect([...fonts].sort()).toEqual(['DejaVuSans', 'DejaVuSans-Bold', 'RfckitMissingGlyph-Regular']);
        expect(bytes.toString('latin1')).not.toContain('Helvetica');
        const runs = await pdfRuns(bytes);
        const fontOf = (needle: string) => runs.find((run) => run.text.includes(needle))?.font;
        expect(fontOf('Ærøskøbing ApS')).toMatch(/^[A-Z]{6}\+DejaVuSans$/);
        expect(fontOf('Zoë Łukasiewicz')).toMatch(/^[A-Z]{6}\+DejaVuSans$/);
        expect(fontOf('Дмитрий Иванов')).toMatch(/^[A-Z]{6}\+DejaVuSans$/);
        expect(fontOf('Ðặng Thị')).toMatch(/^[A-Z]{6}\+DejaVuSans$/);
        expect(fontOf('Ελληνικά Α.Ε.')).toMatch(/^[A-Z]{6}\+DejaVuSans$/);
        expect(fontOf('Invoice ')).toMatch(/^[A-Z]{6}\+DejaVuSans-Bold$/);
        // DejaVu has no CJK: boxes from the document's own font, whose ToUnicode names the characters
        expect(runs.filter((run) => run.text.includes('東京株式会社')).map((run) => run.text.trim())).toEqual(
          ['東京株式会社', '東京株式会社'],
        );
        expect(fontOf('東京株式会社')).toMatch(/^[A-Z]{6}\+RfckitMissingGlyph-Regular$/);
      } finally {
        await app.db.updateTable('organisation').set(saved).where('id', '=', organisationId).execute();
        await app.db
          .updateTable('invoice')
          .set({ description: invoice?.description ?? '' })
          .where('id', '=', invoice?.id ?? '')
          .execute();
      }
    });

    it('refuses to remove the only card while Professional is active', async () => {
      const [only] = await cards();
      const response = await call(admin, 'DELETE', `/v1/billing/payment-methods/${only?.id}`);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({
        code: 'LAST_PAYMENT_METHOD',
        error:
          'You cannot remove the only payment method while the Professional plan is active. Add another card first, or change to the Free plan.',
      });
      expect(await cards()).toHaveLength(1);
    });

    it('schedules the change to Free for the end of the paid period, and can call it off', async () => {
      const before = await subscription();
      const scheduled = await changePlan('free');
      expect(scheduled.message).toBe(
        `Change to the Free plan scheduled successfully: Professional stays until ${before.currentPeriodEnd.slice(0, 10)}.`,
      );
      expect(scheduled.subscription).toMatchObject({
        planId: 'professional',
        status: 'active',
        nextBillingDate: null,
        scheduledChange: { planId: 'free', plan: 'Free', effectiveAt: before.currentPeriodEnd },
      });

      const resumed = await changePlan('professional');
      expect(resumed.message).toBe(
        'Scheduled change cancelled successfully: the Professional plan continues.',
      );
      expect(resumed.subscription).toMatchObject({
        scheduledChange: null,
        nextBillingDate: before.currentPeriodEnd,
      });
      expect(resumed.invoice).toBeNull();
      expect(await invoices()).toHaveLength(1);

      await changePlan('free');
      // with the change scheduled, nothing more will be charged: the last card may go
      const [only] = await cards();
      await ok(admin, 'DELETE', `/v1/billing/payment-methods/${only?.id}`);

      const ended = await endPeriod();
      const after = await subscription(member);
      expect(after).toMatchObject({
        planId: 'free',
        status: 'active',
        amount: '0.00',
        scheduledChange: null,
        nextBillingDate: null,
      });
      expect(after.currentPeriodStart).toBe(ended);
      expect(after.currentPeriodEnd).toBe(monthLater(ended));
      expect(await invoices()).toHaveLength(1);
      expect(await descriptions()).toContain(
        'Plan changed from Professional to Free: the scheduled change took effect at the end of the paid period',
      );
    });

    it('renews a paid period with the default card when it ends', async () => {
      await addCard(card(MASTERCARD));
      await changePlan('professional');
      const ended = await endPeriod();
      const renewed = await subscription();
      expect(renewed).toMatchObject({ planId: 'professional', status: 'active', currentPeriodStart: ended });
      expect(renewed.currentPeriodEnd).toBe(monthLater(ended));
      const [latest] = await invoices();
      expect(latest).toMatchObject({
        status: 'paid',
        amount: '49.99',
        description: `Professional plan renewal, ${ended.slice(0, 10)} to ${monthLater(ended).slice(0, 10)}`,
        paymentSummary: 'Mastercard ending 4444, settled by the local payment provider: no payment was taken',
      });
      // the sweep finds nothing more to do
      expect(await app.billing.settleDue()).toBe(0);
      expect(await invoices()).toHaveLength(3);
    });

    it('marks a failed renewal overdue, and a new card pays it', async () => {
      await app.db
        .updateTable('payment_method')
        .set({ expiry_month: 1, expiry_year: 2020 })
        .where('organisation_id', '=', admin.user.organisation.id)
        .execute();
      const ended = await endPeriod();
      // the periodic sweep settles it without anyone reading billing
      expect(await app.billing.settleDue()).toBeGreaterThanOrEqual(1);
      const overdue = await subscription();
      expect(overdue).toMatchObject({
        status: 'past_due',
        planId: 'professional',
        currentPeriodStart: ended,
      });
      const [open] = await invoices();
      expect(open).toMatchObject({ status: 'open', amount: '49.99', paymentSummary: null });

      const upgrade = await call(admin, 'PUT', '/v1/billing/subscription', { planId: 'professional' });
      expect(upgrade.statusCode).toBe(200);

      const fresh = await addCard(card(DISCOVER, 'Grace Hopper'));
      expect(fresh).toMatchObject({ brand: 'discover', isDefault: true });
      expect(await subscription()).toMatchObject({ status: 'active', planId: 'professional' });
      const [paid] = await invoices();
      expect(paid).toMatchObject({
        id: open?.id,
        status: 'paid',
        paymentSummary: 'Discover ending 1117, settled by the local payment provider: no payment was taken',
      });
      const lines = await descriptions();
      expect(
        lines.some(
          (line) =>
            line.startsWith(`Invoice ${open?.number} issued for 49.99 USD`) &&
            line.endsWith('unpaid (The card has expired), the subscription is overdue'),
        ),
      ).toBe(true);
      expect(lines).toContain(`Overdue invoice ${open?.number} paid with Discover ending 1117`);
    });

    it('returns an overdue subscription to Free when the next period also ends unpaid', async () => {
      await app.db
        .updateTable('payment_method')
        .set({ expiry_month: 1, expiry_year: 2020 })
        .where('organisation_id', '=', admin.user.organisation.id)
        .execute();
      await endPeriod();
      expect((await subscription()).status).toBe('past_due');
      const [open] = await invoices();
      await endPeriod();
      expect(await subscription()).toMatchObject({ planId: 'free', status: 'active' });
      expect((await invoices()).find((row) => row.id === open?.id)?.status).toBe('uncollectible');
      expect(await descriptions()).toContain(
        'Plan changed from Professional to Free: the overdue invoice was not paid by the end of the following period',
      );
    });

    it('declines an upgrade with an expired card and changes nothing', async () => {
      const count = (await invoices()).length;
      const response = await call(admin, 'PUT', '/v1/billing/subscription', { planId: 'professional' });
      expect(response.statusCode).toBe(402);
      expect(response.json()).toMatchObject({
        code: 'PAYMENT_DECLINED',
        error:
          "The payment was declined: The card has expired. Update the card's expiry date or add another card.",
      });
      expect(await subscription()).toMatchObject({ planId: 'free', status: 'active' });
      const list = await invoices();
      expect(list).toHaveLength(count + 1);
      expect(list[0]?.status).toBe('void');
    });

    it('credits the unused part of a paid period when moving to a dearer plan', async () => {
      await removeAllCards();
      await resetToFree();
      await app.db
        .insertInto('plan')
        .values({
          id: 'team',
          name: 'Team',
          description: 'For larger teams.',
          price_minor: 9999,
          currency: 'USD',
          billing_interval: 'month',
          features: '[]',
          sort_order: 3,
          active: 1,
        })
        .execute();
      try {
        await addCard(card(VISA));
        await changePlan('professional');
        // half the period used: about 25 USD of Professional left to credit
        const now = Date.now();
        await app.db
          .updateTable('subscription')
          .set({
            current_period_start: new Date(now - 15 * 86_400_000).toISOString(),
            current_period_end: new Date(now + 15 * 86_400_000).toISOString(),
          })
          .where('organisation_id', '=', admin.user.organisation.id)
          .execute();
        const result = await changePlan('team');
        const credit = 9999 - (result.invoice?.amountMinor ?? 0);
        expect(credit).toBeGreaterThan(2490);
        expect(credit).toBeLessThanOrEqual(2499);
        expect(result.invoice?.description).toMatch(
          /^Team plan, .* less 24\.9\d USD for unused Professional time$/,
        );
        expect(result.subscription).toMatchObject({ planId: 'team', amount: '99.99' });
      } finally {
        await resetToFree();
        await app.db.deleteFrom('invoice').where('plan_id', '=', 'team').execute();
        await app.db.deleteFrom('plan').where('id', '=', 'team').execute();
      }
    });

    it('lets only one of two simultaneous upgrades charge', async () => {
      await resetToFree();
      const before = (await invoices()).length;
      const results = await Promise.all([
        call(admin, 'PUT', '/v1/billing/subscription', { planId: 'professional' }),
        call(admin, 'PUT', '/v1/billing/subscription', { planId: 'professional' }),
      ]);
      const statuses = results.map((response) => response.statusCode).sort();
      // the loser either lost the claim (409) or saw the finished upgrade (200, no invoice)
      expect(statuses[0]).toBe(200);
      const issued = (await invoices()).slice(0, (await invoices()).length - before);
      expect(issued.filter((row) => row.status === 'paid')).toHaveLength(1);
    });
  });

  it('never sends or logs a card number or CVV', async () => {
    expect(bodies.length).toBeGreaterThan(40);
    expect(logs.lines.length).toBeGreaterThan(40);
    const texts = [...bodies, ...logs.lines.map((line) => JSON.stringify(line))];
    for (const text of texts) {
      for (const secret of SECRETS) {
        expect(text).not.toContain(secret.number);
        expect(text).not.toContain(secret.typed);
        expect(text).not.toContain(`"${secret.cvv}"`);
        expect(text).not.toMatch(/"(cardNumber|cvv)"\s*:/);
      }
    }
    const rows = await app.db.selectFrom('activity').select(['description', 'details']).execute();
    for (const secret of SECRETS) expect(JSON.stringify(rows)).not.toContain(secret.number);
  });

  it('redacts a card form body should one ever reach a log line', () => {
    app.log.info({ body: card(VISA) }, 'redaction probe');
    const line = logs.lines.find((entry) => entry.msg === 'redaction probe');
    expect(line?.body).toEqual({
      cardholderName: 'Ada Lovelace',
      cardNumber: '[redacted]',
      expiryDate: FUTURE,
      cvv: '[redacted]',
    });
  });
});
