/// <reference lib="dom" />
// (the callbacks given to page.evaluate run in the browser, with its DOM)
// Every page on a phone (390×844 CSS px): nothing makes the page scroll sideways. Wide content
// (tables, code, tab lists) scrolls inside its own box or stacks into cards instead.
import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { withConsentGiven } from './fixtures.ts';
import { arcLabDomain, arcLabKeyFile, arcLabSelector } from './lab-sites.ts';
import { e2eDataDir } from './paths.ts';
import { signInThroughApi } from './session.ts';

test.use({ viewport: { width: 390, height: 844 } });

// RFC 6605 §6.1 (P-256), as in e2e/dnskey.spec.ts
const p256 =
  'example.net. 3600 IN DNSKEY 257 3 13 GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==';

const arcMessage = [
  'From: Alice <alice@example.com>',
  'To: list@arc.example.test',
  'Subject: ARC on a phone',
  'Date: Mon, 23 Nov 2026 08:00:00 +0000',
  'Message-ID: <arc-phone@example.com>',
  '',
  'Hello list.',
  '',
].join('\n');

/** The page is no wider than the window; on failure, names the elements that stick out. */
async function expectNoSideScroll(page: Page, where: string) {
  await page.waitForLoadState('networkidle');
  const found = await page.evaluate(() => {
    const width = window.innerWidth;
    const overflowing: string[] = [];
    if (document.documentElement.scrollWidth > width) {
      for (const element of document.body.querySelectorAll('*')) {
        const rect = element.getBoundingClientRect();
        if (rect.width === 0 || rect.right <= width + 0.5) continue;
        // inside a box that scrolls or clips on its own, sticking out is fine
        let clipped = false;
        for (let parent = element.parentElement; parent; parent = parent.parentElement) {
          const overflowX = getComputedStyle(parent).overflowX;
          if (overflowX !== 'visible' && parent.getBoundingClientRect().right <= width + 0.5) {
            clipped = true;
            break;
          }
        }
        if (clipped) continue;
        // name where the overflow starts: the outermost element that sticks out
        if (element.parentElement && element.parentElement.getBoundingClientRect().right > width + 0.5)
          continue;
        const name = `${element.tagName.toLowerCase()}.${[...element.classList].join('.')}`;
        overflowing.push(`${name} right=${Math.round(rect.right)}`);
      }
    }
    return { scrollWidth: document.documentElement.scrollWidth, width, overflowing: overflowing.slice(0, 8) };
  });
  expect(found.scrollWidth, `${where}: ${found.overflowing.join(', ')}`).toBeLessThanOrEqual(found.width);
}

/** The header's controls sit wholly inside the window. */
async function expectHeaderInView(page: Page) {
  const toggle = page.getByRole('button', { name: /^Switch to (light|dark) theme$/ });
  const box = await toggle.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
}

/** Opens each tab of a tool page in turn; the tab list stays on one line and scrolls instead. */
async function visitTabs(page: Page, tool: string) {
  await page.goto(`/tools/${tool}`);
  const tabs = page.getByRole('tab');
  await expect(tabs.first()).toBeVisible();
  const count = await tabs.count();
  const first = await tabs.first().boundingBox();
  for (let index = 0; index < count; index += 1) {
    const tab = tabs.nth(index);
    const box = await tab.boundingBox();
    expect(Math.abs(box!.y - first!.y), `${tool}: tab ${index + 1} wraps to another line`).toBeLessThan(2);
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true');
    await expectNoSideScroll(page, `${tool} tab ${(await tab.textContent()) ?? index}`);
  }
}

test.beforeEach(async ({ page }) => {
  await withConsentGiven(page);
});

test('public pages fit a phone', async ({ page }) => {
  for (const path of [
    '/welcome',
    '/login',
    '/register',
    '/reset-password',
    '/privacy-policy',
    '/cookie-policy',
    '/no-such-page',
  ]) {
    await page.goto(path);
    await expect(page.getByRole('main')).toBeVisible();
    await expectHeaderInView(page);
    await expectNoSideScroll(page, path);
  }
});

test('account pages fit a phone', async ({ page, request }) => {
  // a long address, as real ones are, must not push the greeting off the screen
  await signInThroughApi(page, request, 'mobile-account-with-a-rather-long-name');
  for (const path of [
    '/dashboard',
    '/profile',
    '/organisation',
    '/billing',
    '/billing?tab=payment-methods',
    '/billing?tab=invoices',
    '/activity',
    '/api-keys',
  ]) {
    await page.goto(path);
    await expect(page.getByRole('main')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectHeaderInView(page);
    await expectNoSideScroll(page, path);
  }
  await page.goto('/dashboard');
  const greeting = page.getByRole('heading', { level: 1 });
  const box = await greeting.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);

  // below 600 px the team is a list of cards, each member's fields stacked, not a sideways-scrolling table
  await page.goto('/organisation');
  const team = page.getByRole('region', { name: 'Team members' });
  const member = team.getByRole('list', { name: 'Members and invitations' }).getByRole('listitem');
  await expect(member).toHaveCount(1);
  await expect(member).toContainText('mobile-account-with-a-rather-long-name');
  await expect(member).toContainText('Admin');
  await expect(team.getByRole('table')).toHaveCount(0);
});

/** Below 600 px a DataTable is a list of cards, one per row, not a sideways-scrolling table. */
async function expectCards(within: Locator, list: string, count: number) {
  const rows = within.getByRole('list', { name: list }).getByRole('listitem');
  await expect(rows).toHaveCount(count);
  await expect(within.getByRole('table', { name: list })).toHaveCount(0);
  await expect(within.getByRole('region', { name: list })).toHaveCount(0);
  return rows;
}

test('API keys and billing tables are cards on a phone', async ({ page, request }) => {
  const { token } = await signInThroughApi(page, request, 'mobile-cards');
  const headers = { authorization: `Bearer ${token}` };
  const key = await request.post('/v1/organisation/api-keys', { headers, data: { name: 'Nightly checks' } });
  expect(key.status(), await key.text()).toBe(201);
  const expiry = `12/${String((new Date().getUTCFullYear() + 4) % 100).padStart(2, '0')}`;
  const card = await request.post('/v1/billing/payment-methods', {
    headers,
    data: {
      cardholderName: 'Ada Lovelace',
      cardNumber: '4242 4242 4242 4242',
      expiryDate: expiry,
      cvv: '314',
    },
  });
  expect(card.status(), await card.text()).toBe(201);
  // a paid plan issues the invoice
  const upgraded = await request.put('/v1/billing/subscription', {
    headers,
    data: { planId: 'professional' },
  });
  expect(upgraded.status(), await upgraded.text()).toBe(200);

  await page.goto('/api-keys');
  const keyCard = await expectCards(
    page.getByRole('region', { name: 'Keys of this organisation' }),
    'API keys',
    1,
  );
  await expect(keyCard).toContainText('Nightly checks');
  await expect(keyCard).toContainText('Active');
  await expect(keyCard.getByRole('button', { name: 'Revoke Nightly checks' })).toBeVisible();
  await expectNoSideScroll(page, 'API key cards');

  await page.goto('/billing?tab=payment-methods');
  const cardCard = await expectCards(page.getByRole('region', { name: 'Payment methods' }), 'Card list', 1);
  await expect(cardCard).toContainText('Ada Lovelace');
  await expect(cardCard.getByRole('button', { name: 'Remove Visa ending 4242' })).toBeVisible();
  await expectNoSideScroll(page, 'payment method cards');

  await page.goto('/billing?tab=invoices');
  const invoiceCard = await expectCards(page.getByRole('region', { name: 'Invoices' }), 'Invoice list', 1);
  await expect(invoiceCard).toContainText('49.99 USD');
  await expect(invoiceCard.getByRole('button', { name: /^Download PDF of invoice / })).toBeVisible();
  // the invoice number keeps its column's monospace font in the card
  const number = invoiceCard.locator('dd').first();
  expect(await number.evaluate((dd) => getComputedStyle(dd).fontFamily)).toMatch(/mono/i);
  await expectNoSideScroll(page, 'invoice cards');
});

test('ARC result sets are cards on a phone', async ({ page, request }) => {
  await signInThroughApi(page, request, 'mobile-arc');
  // e2e/serve.ts made this key at start and serves its public half in the lab DNS
  const privateKey = await readFile(arcLabKeyFile(e2eDataDir), 'utf8');
  await page.goto('/tools/arc?tab=generator');
  const generator = page.getByRole('tabpanel', { name: 'Generator' });
  await generator.getByRole('textbox', { name: /^Domain/ }).fill(arcLabDomain);
  await generator.getByRole('textbox', { name: /^Selector/ }).fill(arcLabSelector);
  await generator.getByRole('textbox', { name: /^Message/ }).fill(arcMessage);
  await generator.getByRole('textbox', { name: /^Private key/ }).fill(privateKey);
  await generator.getByRole('button', { name: 'Seal message' }).click();
  const sealed = page
    .getByRole('region', { name: 'Seal result' })
    .getByLabel('Sealed message', { exact: true });
  await expect(sealed).toContainText('ARC-Seal');
  const sealedMessage = (await sealed.textContent()) ?? '';

  await page.getByRole('tab', { name: 'Validator' }).click();
  const validator = page.getByRole('tabpanel', { name: 'Validator' });
  await validator.getByRole('textbox', { name: /^Domain/ }).fill(arcLabDomain);
  await validator.getByRole('textbox', { name: /^ARC headers or message/ }).fill(sealedMessage);
  await validator.getByRole('button', { name: 'Validate' }).click();
  await expect(validator.getByRole('heading', { name: 'ARC chain passes' })).toBeVisible();
  const set = await expectCards(validator, 'ARC sets', 1);
  await expect(set).toHaveAttribute('data-instance', '1');
  await expect(set).toContainText(arcLabDomain);
  await expect(set).toContainText('matches');
  await expect(set.locator('[data-result="pass"]')).toHaveCount(2);
  await expectNoSideScroll(page, 'ARC result cards');
});

test('every tool tab fits a phone', async ({ page, request }) => {
  test.setTimeout(120_000);
  await signInThroughApi(page, request, 'mobile-tools');
  for (const tool of ['dnskey', 'spf', 'dmarc', 'dkim', 'arc', 'http-headers', 'security-txt']) {
    await visitTabs(page, tool);
  }
});

test('tool results fit a phone', async ({ page, request }) => {
  test.setTimeout(90_000);
  await signInThroughApi(page, request, 'mobile-results');

  await page.goto('/tools/dnskey?tab=validator');
  await page.getByLabel('DNSKEY record').fill(p256);
  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByText('55648').first()).toBeVisible();
  await expectNoSideScroll(page, 'DNSKEY result');

  await page.goto('/tools/spf?tab=validator');
  // every tab of the page is in the document: the validator's own form holds the field meant
  const spfForm = page.getByRole('form', { name: 'SPF validator' });
  await spfForm.getByLabel('Domain').fill('spf-over.example.test');
  await spfForm.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByRole('tree', { name: 'Include tree' })).toBeVisible();
  await expectNoSideScroll(page, 'SPF validation');

  await page.goto('/tools/dmarc?tab=validator');
  await page
    .getByLabel('DMARC record', { exact: true })
    .fill('v=DMARC1; p=reject; rua=mailto:reports@example.com; ruf=mailto:forensic@example.net');
  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByRole('heading', { name: /DMARC record/ }).first()).toBeVisible();
  await expectNoSideScroll(page, 'DMARC validation');

  await page.goto('/tools/http-headers?tab=validator');
  await page
    .getByLabel('Response headers')
    .fill('HTTP/2 200\ncontent-type: text/html\nstrict-transport-security: max-age=63072000');
  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByRole('heading', { name: /^Grade/ })).toBeVisible();
  await expectNoSideScroll(page, 'headers validation');

  await page.goto('/tools/security-txt?tab=validator');
  await page
    .getByLabel('security.txt content')
    .fill('Contact: mailto:security@example.com\nExpires: 2020-01-01T00:00:00Z\n');
  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByRole('region', { name: 'Errors' })).toBeVisible();
  await expectNoSideScroll(page, 'security.txt validation');
});
