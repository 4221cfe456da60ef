import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { withConsentGiven } from './fixtures.ts';
import { signInThroughApi } from './session.ts';

test.beforeEach(async ({ page, request }) => {
  await withConsentGiven(page);
  await signInThroughApi(page, request, 'dmarc');
});

test('generates a record with non-default settings and copies it', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/tools/dmarc');
  await expect(page.getByRole('tab', { name: 'Information' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('tab', { name: 'Generator' }).click();

  const record = page.getByTestId('dmarc-record');
  await expect(record).toHaveText('v=DMARC1; p=none');
  const form = page.getByRole('form', { name: 'DMARC generator' });
  await form.getByLabel('Domain', { exact: true }).fill('example.com');
  await form.getByLabel('Policy (p)', { exact: true }).selectOption('quarantine');
  await form.getByLabel('Subdomain policy (sp)', { exact: true }).selectOption('reject');
  await form.getByLabel('SPF alignment (aspf)').selectOption('s');
  await form.getByLabel('Percentage (pct)', { exact: true }).fill('50');
  await form.getByLabel('Aggregate report address 1').fill('dmarc-reports@example.com');
  await form.getByLabel('Failure report address 1').fill('dmarc-failures@example.com');
  await form.getByLabel('Report when any mechanism fails (1)').check();

  const expected =
    'v=DMARC1; p=quarantine; sp=reject; aspf=s; pct=50; rua=mailto:dmarc-reports@example.com; ruf=mailto:dmarc-failures@example.com; fo=1';
  await expect(record).toHaveText(expected);
  await expect(page.getByTestId('dmarc-record-name')).toHaveText('_dmarc.example.com');
  const panel = page.getByRole('region', { name: 'Generated record' });
  await expect(panel.getByText(/^pct=50: RFC 9989 removed pct/)).toBeVisible();

  await panel.getByRole('button', { name: 'Copy DMARC record' }).click();
  await expect(panel.getByRole('button', { name: 'Copied!' })).toBeVisible();
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(expected);
  // and back to its label after 2 seconds
  await expect(panel.getByRole('button', { name: 'Copy DMARC record' })).toBeVisible();
});

test('a pasted record with errors gets each finding with its badge', async ({ page }) => {
  await page.goto('/tools/dmarc?tab=validator');
  const validate = page.getByRole('button', { name: 'Validate' });
  await validate.click();
  await expect(page.getByLabel('DMARC record', { exact: true })).toHaveAccessibleDescription(
    /Enter a DMARC record or a domain/,
  );
  await page
    .getByLabel('DMARC record', { exact: true })
    .fill('v=DMARC1; p=block; rua=reports@example.com; ri=3600');
  await validate.click();

  await expect(page.getByRole('heading', { name: 'Invalid DMARC record' })).toBeVisible();
  const errors = page.getByRole('region', { name: 'Errors' });
  await expect(errors.getByRole('listitem').filter({ hasText: 'p=block is not a policy' })).toContainText(
    'MUST',
  );
  await expect(
    errors.getByRole('listitem').filter({ hasText: 'is an email address, not a URI' }),
  ).toContainText('Fix: Write rua=mailto:reports@example.com.');
  await expect(page.getByRole('region', { name: 'Warnings' })).toContainText('ri=3600: RFC 9989 removed ri');
  const ri = page.getByRole('table', { name: 'Record tags' }).getByRole('row').filter({ hasText: '3600' });
  await expect(ri).toContainText('Removed in RFC 9989');
  const corrected = page.getByRole('region', { name: 'Corrected record' });
  await expect(corrected.getByTestId('corrected-record')).toHaveText(
    'v=DMARC1; p=none; rua=mailto:reports@example.com; ri=3600',
  );
  await expect(corrected.getByRole('list', { name: 'What changed' })).toContainText(
    'Replaced p=block with p=none',
  );

  const results = await new AxeBuilder({ page }).include('main').analyze();
  expect(results.violations.map((violation) => violation.id)).toEqual([]);
});

for (const scheme of ['light', 'dark'] as const) {
  test(`information, generator and a validation result pass axe in the ${scheme} theme`, async ({
    page,
  }, testInfo) => {
    // three full-page axe scans of the longest tool page: slow on a shared two-core machine
    test.setTimeout(90_000);
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('/tools/dmarc');
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
    await expect(page.getByRole('heading', { name: 'How receivers find the policy' })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`dmarc-information-${scheme}.png`), fullPage: true });
    const information = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa'])
      .include('main')
      .analyze();
    expect(
      information.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);

    await page.getByRole('tab', { name: 'Generator' }).click();
    const form = page.getByRole('form', { name: 'DMARC generator' });
    await form.getByLabel('Policy (p)', { exact: true }).selectOption('reject');
    await form.getByLabel('Percentage (pct)', { exact: true }).fill('25');
    await expect(page.getByTestId('dmarc-record')).toHaveText('v=DMARC1; p=reject; pct=25');
    await page.screenshot({ path: testInfo.outputPath(`dmarc-generator-${scheme}.png`), fullPage: true });
    const generator = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa'])
      .include('main')
      .analyze();
    expect(
      generator.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);

    await page.getByRole('tab', { name: 'Validator' }).click();
    await page.getByLabel('DMARC record', { exact: true }).fill('v=DMARC1; p=none; sp=none; pct=0; np=bad');
    await page.getByRole('button', { name: 'Validate' }).click();
    await expect(page.getByRole('heading', { name: 'Invalid DMARC record' })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`dmarc-validator-${scheme}.png`), fullPage: true });
    const validator = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa'])
      .include('main')
      .analyze();
    expect(
      validator.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
  });
}
