import { expect, test, type Page } from '@playwright/test';
import { consentKey, readJson, themeKey, withConsentGiven } from './fixtures.ts';

test('/ lands on /welcome', async ({ page }) => {
  await withConsentGiven(page);
  await page.goto('/');
  await expect(page).toHaveURL(/\/welcome$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('an unknown page shows the not-found page', async ({ page }) => {
  await withConsentGiven(page);
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
});

test('the theme toggle survives a reload', async ({ page }) => {
  await withConsentGiven(page);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/welcome');
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');

  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
  expect(await page.evaluate((k) => localStorage.getItem(k), themeKey)).toContain('dark');

  await page.reload();
  // set before first paint by theme-init.js, not after React starts
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(page.getByRole('button', { name: 'Switch to light theme' })).toBeVisible();
});

test('the OS preference decides when no theme is stored', async ({ page }) => {
  await withConsentGiven(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/welcome');
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
});

test.describe('cookie consent banner', () => {
  const banner = (page: Page) =>
    page.getByRole('region', { name: /cookie/i }).or(page.getByRole('dialog', { name: /cookie/i }));

  test('Reject All stores necessary only and stays hidden', async ({ page }) => {
    await page.goto('/welcome');
    await page.getByRole('button', { name: 'Reject All' }).click();
    await expect(page.getByRole('button', { name: 'Reject All' })).toBeHidden();
    expect(await readJson(page, consentKey)).toMatchObject({
      necessary: true,
      analytics: false,
      functionality: false,
      marketing: false,
      date: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(banner(page)).toHaveCount(0);
  });

  test('Accept All stores every category and stays hidden', async ({ page }) => {
    await page.goto('/welcome');
    await page.getByRole('button', { name: 'Accept All' }).click();
    expect(await readJson(page, consentKey)).toMatchObject({
      necessary: true,
      analytics: true,
      functionality: true,
      marketing: true,
    });
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Accept All' })).toHaveCount(0);
  });

  test('Customise saves the chosen set; necessary and functionality cannot be toggled', async ({ page }) => {
    await page.goto('/welcome');
    await page.getByRole('button', { name: 'Customise' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('switch', { name: /Necessary/ })).toBeDisabled();
    await expect(dialog.getByRole('switch', { name: /Functionality/ })).toBeDisabled();
    await dialog.getByRole('switch', { name: /Analytics/ }).check();
    await dialog.getByRole('button', { name: 'Save Preferences' }).click();
    await expect(dialog).toBeHidden();
    expect(await readJson(page, consentKey)).toMatchObject({
      necessary: true,
      analytics: true,
      marketing: false,
    });
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Customise' })).toHaveCount(0);

    // the footer reopens the dialog with the saved choice
    await page.getByRole('button', { name: 'Cookie Settings' }).click();
    await expect(page.getByRole('dialog').getByRole('switch', { name: /Analytics/ })).toBeChecked();
    await expect(page.getByRole('dialog').getByRole('switch', { name: /Marketing/ })).not.toBeChecked();
  });
});

test('on a small screen the sidebar opens behind the burger', async ({ page }) => {
  await withConsentGiven(page);
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/welcome');
  const dnskeyLink = page.getByRole('navigation').getByRole('link', { name: 'DNSKEY' }).first();
  await expect(dnskeyLink).toBeHidden();
  await page.getByRole('button', { name: 'Toggle navigation' }).click();
  await expect(dnskeyLink).toBeVisible();
  await dnskeyLink.click();
  // tools need a signed-in user: an anonymous visitor is asked to sign in first
  await expect(page).toHaveURL(/\/login$/);
});

test('a visitor from a denied region gets 451 and the Access Denied screen with the location code', async ({
  page,
}) => {
  await withConsentGiven(page);
  await page.setExtraHTTPHeaders({ 'CF-IPCountry': 'RU' });
  const response = await page.goto('/welcome');
  expect(response?.status()).toBe(451);
  await expect(page.getByRole('heading', { level: 1, name: 'Access Denied' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText('Access is not permitted from your location (RU)');
  // the app itself never appears
  await expect(page.getByRole('link', { name: 'Sign In' })).toHaveCount(0);
});
