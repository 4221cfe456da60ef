// Screenshots of every page of the app for reviewers (npm run screenshots): public and account
// pages, and every tab of every tool, with a result where the tab produces one.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { withConsentGiven } from '../fixtures.ts';
import { signInThroughApi } from '../session.ts';

const outputRoot = path.resolve('screenshots');

// RFC 6605 §6.1 (P-256), as in e2e/dnskey.spec.ts
const p256 =
  'example.net. 3600 IN DNSKEY 257 3 13 GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==';

/** What to do on a tool tab so that it shows a result; tabs not listed are shot as they open. */
const results: Record<string, (page: Page) => Promise<void>> = {
  'dnskey/validator': async (page) => {
    await page.getByLabel('DNSKEY record').fill(p256);
    await page.getByRole('button', { name: 'Validate' }).click();
    await expect(page.getByText('55648').first()).toBeVisible();
  },
  'spf/validator': async (page) => {
    const form = page.getByRole('form', { name: 'SPF validator' });
    await form.getByLabel('Domain').fill('spf-over.example.test');
    await form.getByRole('button', { name: 'Validate' }).click();
    await expect(page.getByRole('tree', { name: 'Include tree' })).toBeVisible();
  },
  'dmarc/validator': async (page) => {
    await page
      .getByLabel('DMARC record', { exact: true })
      .fill('v=DMARC1; p=reject; rua=mailto:reports@example.com; ruf=mailto:forensic@example.net');
    await page.getByRole('button', { name: 'Validate' }).click();
    await expect(page.getByRole('heading', { name: /DMARC record/ }).first()).toBeVisible();
  },
  'dkim/validator': async (page) => {
    await page
      .getByRole('textbox', { name: /^DKIM record/ })
      .fill('v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=');
    await page.getByRole('button', { name: 'Validate' }).click();
    await expect(page.getByRole('heading', { name: /DKIM key record/ }).first()).toBeVisible();
  },
  'http-headers/validator': async (page) => {
    await page
      .getByLabel('Response headers')
      .fill('HTTP/2 200\ncontent-type: text/html\nstrict-transport-security: max-age=63072000');
    await page.getByRole('button', { name: 'Validate' }).click();
    await expect(page.getByRole('heading', { name: /^Grade/ })).toBeVisible();
  },
  'security-txt/validator': async (page) => {
    await page
      .getByLabel('security.txt content')
      .fill('Contact: mailto:security@example.com\nExpires: 2020-01-01T00:00:00Z\n');
    await page.getByRole('button', { name: 'Validate' }).click();
    await expect(page.getByRole('region', { name: 'Errors' })).toBeVisible();
  },
};

/** Every tool with a page: the folders under apps/web/src/tools (docs/architecture.md §2). */
const tools = readdirSync(path.resolve('apps/web/src/tools'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

const publicPages = [
  { name: 'welcome', path: '/welcome' },
  { name: 'login', path: '/login' },
  { name: 'register', path: '/register' },
  { name: 'reset-password', path: '/reset-password' },
  { name: 'reset-password-new-password', path: '/reset-password?token=review' },
  { name: 'privacy-policy', path: '/privacy-policy' },
  { name: 'cookie-policy', path: '/cookie-policy' },
  { name: 'not-found', path: '/no-such-page' },
  { name: 'access-denied', path: '/welcome', country: 'RU' },
];

const accountPages = [
  { name: 'dashboard', path: '/dashboard' },
  { name: 'profile', path: '/profile' },
  { name: 'organisation', path: '/organisation' },
  { name: 'api-keys', path: '/api-keys' },
  { name: 'activity', path: '/activity' },
  { name: 'billing', path: '/billing' },
  { name: 'billing-payment-methods', path: '/billing?tab=payment-methods' },
  { name: 'billing-invoices', path: '/billing?tab=invoices' },
];

async function shoot(page: Page, projectName: string, name: string) {
  await page.waitForLoadState('networkidle');
  // a viewport as tall as the page, rather than fullPage: the sticky sidebar (100vh) and the
  // fixed header are laid out once over the whole page instead of cut at the first screen
  const viewport = page.viewportSize() ?? { width: 1440, height: 900 };
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: viewport.width, height: Math.max(viewport.height, height) });
  await page.screenshot({ path: path.join(outputRoot, projectName, `${name}.png`) });
  await page.setViewportSize(viewport);
}

test.beforeEach(async ({ page }) => {
  await withConsentGiven(page);
});

for (const { name, path: url, country } of publicPages) {
  test(`public page: ${name}`, async ({ page }, testInfo) => {
    if (country) await page.setExtraHTTPHeaders({ 'CF-IPCountry': country });
    await page.goto(url);
    await expect(page.getByRole('main')).toBeVisible();
    await shoot(page, testInfo.project.name, `public-${name}`);
  });
}

test('account pages', async ({ page, request }, testInfo) => {
  await signInThroughApi(page, request, 'review-account');
  for (const { name, path: url } of accountPages) {
    await page.goto(url);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await shoot(page, testInfo.project.name, `account-${name}`);
  }
});

for (const tool of tools) {
  test(`tool: ${tool}, every tab`, async ({ page, request }, testInfo) => {
    await signInThroughApi(page, request, `review-${tool}`);
    await page.goto(`/tools/${tool}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // a single-page tool (TLS-RPT) has no tab list: one shot of the page
    const tabs = page.getByRole('tab');
    const count = await tabs.count();
    if (count === 0) {
      await results[`${tool}/information`]?.(page);
      await shoot(page, testInfo.project.name, `tool-${tool}-1-page`);
    }
    for (let index = 0; index < count; index += 1) {
      const tab = tabs.nth(index);
      await tab.click();
      await expect(tab).toHaveAttribute('aria-selected', 'true');
      const value = new URL(page.url()).searchParams.get('tab') ?? 'information';
      await results[`${tool}/${value}`]?.(page);
      await shoot(page, testInfo.project.name, `tool-${tool}-${String(index + 1)}-${value}`);
    }
    // the Requirement levels popover, open
    await page.getByRole('button', { name: 'Requirement levels' }).click();
    await expect(page.getByRole('dialog', { name: 'Requirement levels' })).toBeVisible();
    await page.screenshot({
      path: path.join(outputRoot, testInfo.project.name, `tool-${tool}-requirement-levels.png`),
    });
  });
}
