import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { withConsentGiven } from './fixtures.ts';
import { signInThroughApi } from './session.ts';

test.beforeEach(async ({ page, request }) => {
  await withConsentGiven(page);
  await signInThroughApi(page, request, 'security-txt');
});

async function generate(page: Page) {
  await page.goto('/tools/security-txt');
  await expect(page.getByRole('tab', { name: 'Information' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('tab', { name: 'Generator' }).click();
  await page.getByLabel('Domain').fill('example.com');
  await page.getByRole('textbox', { name: /^Contact 1/ }).fill('mailto:security@example.com');
  await page.getByRole('button', { name: 'Add contact' }).click();
  await page.getByRole('textbox', { name: /^Contact 2/ }).fill('https://example.com/security');
  await page.getByRole('button', { name: '+1 Year' }).click();
  await page.getByLabel('Encryption').fill('https://example.com/pgp-key.txt');
  await page.getByRole('button', { name: 'Generate' }).click();
  const output = page.getByTestId('security-txt-output');
  await expect(output).toContainText('Contact: mailto:security@example.com');
  return output;
}

test('generates a file, copies it and downloads it as security.txt', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const output = await generate(page);
  const file = await output.textContent();
  expect(file).toMatch(/^# security\.txt for example\.com/);
  expect(file).toContain('Contact: mailto:security@example.com\nContact: https://example.com/security\n');
  expect(file).toMatch(/\nExpires: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n/);

  const panel = page.getByRole('region', { name: 'Generated file' });
  await panel.getByRole('button', { name: 'Copy security.txt' }).click();
  await expect(panel.getByRole('button', { name: 'Copied!' })).toBeVisible();
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(file);
  // and back to its label afterwards
  await expect(panel.getByRole('button', { name: 'Copy security.txt' })).toBeVisible();

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    panel.getByRole('button', { name: 'Download security.txt' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('security.txt');
  const saved = await readFile(await download.path(), 'utf8');
  expect(saved).toBe(file);
  expect(saved.endsWith('\n')).toBe(true);
  expect(saved).not.toContain('\r');
});

test('a pasted file with an error gets a diagnostic that names its line', async ({ page }) => {
  await page.goto('/tools/security-txt?tab=validator');
  const expires = new Date(Date.now() + 30 * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z');
  await page
    .getByLabel('security.txt content')
    .fill(`Contact: https://example.com/security\nExpires: ${expires}\nPolicy: http://example.com/policy\n`);
  await page.getByRole('button', { name: 'Validate' }).click();

  await expect(page.getByRole('heading', { name: 'Invalid security.txt' })).toBeVisible();
  const finding = page.getByRole('region', { name: 'Errors' }).getByRole('listitem').first();
  await expect(finding).toContainText('Line 3');
  await expect(finding).toContainText('Policy is a web URI over plain http: it must begin with https://');
  await expect(finding).toContainText('Policy: http://example.com/policy');
  await expect(finding).toContainText('MUST');
});

test('the generated file passes the validator', async ({ page }) => {
  const file = (await (await generate(page)).textContent()) ?? '';
  await page.getByRole('tab', { name: 'Validator' }).click();
  await page.getByLabel('security.txt content').fill(file);
  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByRole('heading', { name: 'Valid security.txt' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Recommendations' })).toContainText(
    'The file is not digitally signed',
  );
});

test('a blank file is refused before any call', async ({ page }) => {
  await page.goto('/tools/security-txt?tab=validator');
  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByText('security.txt content is required')).toBeVisible();
});

/** The segmented control hides its radio inputs behind their labels: a user clicks the label. */
async function chooseFetchMode(page: Page) {
  await page.goto('/tools/security-txt?tab=validator');
  await page.getByText('Fetch from a site', { exact: true }).click();
  await expect(page.getByRole('radio', { name: 'Fetch from a site' })).toBeChecked();
}

/** The Validator's fetch mode on a site of the e2e lab (e2e/lab-sites.ts). */
async function fetchSite(page: Page, site: string) {
  await chooseFetchMode(page);
  await page.getByRole('textbox', { name: 'Site' }).fill(site);
  await page.getByRole('button', { name: 'Fetch and validate' }).click();
}

test('fetch mode: a good site’s file is valid, with where it came from', async ({ page }) => {
  await fetchSite(page, 'securitytxt-good.example.test');
  await expect(page.getByRole('heading', { name: 'Valid security.txt' })).toBeVisible();
  const facts = page.getByTestId('security-txt-source');
  await expect(facts.getByRole('row', { name: /^URL/ })).toContainText(
    'https://securitytxt-good.example.test/.well-known/security.txt',
  );
  await expect(facts.getByRole('row', { name: /^Redirects/ })).toContainText('None');
  await expect(facts.getByRole('row', { name: /^Status/ })).toContainText('200');
  await expect(facts.getByRole('row', { name: /^Content-Type/ })).toContainText('text/plain; charset=utf-8');
  await expect(facts.getByRole('row', { name: /^Certificate/ })).toContainText('Valid');
  await expect(page.getByRole('region', { name: 'Errors' })).toHaveCount(0);
});

test('fetch mode: an expired file gets the expiry error on its line', async ({ page }) => {
  await fetchSite(page, 'https://securitytxt-expired.example.test/');
  await expect(page.getByRole('heading', { name: 'Invalid security.txt' })).toBeVisible();
  const finding = page.getByRole('region', { name: 'Errors' }).getByRole('listitem').first();
  await expect(finding).toContainText('The file expired on');
  await expect(finding).toContainText('Line 3');
  await expect(finding).toContainText('Expires: ');
});

test('fetch mode: a blank site is refused before any call', async ({ page }) => {
  await chooseFetchMode(page);
  await page.getByRole('button', { name: 'Fetch and validate' }).click();
  await expect(page.getByText('Domain is required')).toBeVisible();
});

for (const scheme of ['light', 'dark'] as const) {
  test(`the fetch mode's result is accessible in the ${scheme} theme`, async ({ page }, testInfo) => {
    await page.emulateMedia({ colorScheme: scheme });
    await fetchSite(page, 'securitytxt-expired.example.test');
    await expect(page.getByRole('heading', { name: 'Invalid security.txt' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
    await page.screenshot({ path: testInfo.outputPath(`security-txt-fetch-${scheme}.png`), fullPage: true });
    const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
    const found = axe.violations.map(
      (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
    );
    expect(found).toEqual([]);
  });
}

for (const scheme of ['light', 'dark'] as const) {
  test(`generator and validator results are accessible in the ${scheme} theme`, async ({
    page,
  }, testInfo) => {
    // three full-page screenshots and axe runs on a two-core machine
    test.setTimeout(90_000);
    await page.emulateMedia({ colorScheme: scheme });
    await generate(page);
    await page.getByRole('tab', { name: 'Validator' }).click();
    await page.getByLabel('security.txt content').fill('Contact: me@example.com\n');
    await page.getByRole('button', { name: 'Validate' }).click();
    await expect(page.getByRole('heading', { name: 'Invalid security.txt' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
    for (const tab of ['Generator', 'Validator', 'Information']) {
      await page.getByRole('tab', { name: tab }).click();
      await page.screenshot({
        path: testInfo.outputPath(`security-txt-${tab.toLowerCase()}-${scheme}.png`),
        fullPage: true,
      });
      const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
      const found = axe.violations.map(
        (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
      );
      expect(found, `${tab} tab`).toEqual([]);
    }
  });
}
