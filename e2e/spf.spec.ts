import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { withConsentGiven } from './fixtures.ts';
import { signInThroughApi } from './session.ts';

test.beforeEach(async ({ page, request }) => {
  await withConsentGiven(page);
  await signInThroughApi(page, request, 'spf');
});

async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).include('main').analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

test('generates a record from provider presets and copies it', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/tools/spf');
  await expect(page.getByRole('tab', { name: 'Information' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('tab', { name: 'Generator' }).click();

  const record = page.getByTestId('spf-record');
  await expect(record).toHaveText('v=spf1 ~all');
  const form = page.getByRole('form', { name: 'SPF generator' });
  await form.getByRole('checkbox', { name: /^Google Workspace/ }).check();
  await form.getByRole('checkbox', { name: /^SendGrid/ }).check();
  await form.getByRole('button', { name: 'Add mechanism' }).click();
  await form.getByLabel('Value 1', { exact: true }).fill('192.0.2.10');
  await form.getByRole('radio', { name: /^-all/ }).check();

  const expected = 'v=spf1 ip4:192.0.2.10 include:_spf.google.com include:sendgrid.net -all';
  await expect(record).toHaveText(expected);
  const panel = page.getByRole('region', { name: 'Generated record' });
  await expect(panel.getByTestId('lookup-budget')).toContainText('2 of 10, within the limit');

  await panel.getByRole('button', { name: 'Copy SPF record' }).click();
  await expect(panel.getByRole('button', { name: 'Copied!' })).toBeVisible();
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(expected);
  await expect(panel.getByRole('button', { name: 'Copy SPF record' })).toBeVisible();
});

test('one input rule: the field error on blur and on submit, no request for `not a domain!`', async ({
  page,
}) => {
  await page.goto('/tools/spf?tab=validator');
  const form = page.getByRole('form', { name: 'SPF validator' });
  const domain = form.getByLabel('Domain');
  const validate = form.getByRole('button', { name: 'Validate' });
  const requests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/spf/verify')) requests.push(request.url());
  });

  await expect(validate).toBeEnabled();
  await validate.click();
  await expect(domain).toHaveAccessibleDescription(/Domain is required/);

  await domain.fill('not a domain!');
  await domain.blur();
  const message = "'not a domain!' is not a domain name: it contains a space";
  await expect(domain).toHaveAccessibleDescription(new RegExp(message));
  await expect(domain).toHaveAttribute('aria-invalid', 'true');
  await validate.click();
  await expect(page.getByRole('heading', { name: 'No SPF record' })).toHaveCount(0);
  expect(requests).toEqual([]);
});

test('a pasted record is checked without a domain; its corrected record validates', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/tools/spf?tab=validator');
  const form = page.getByRole('form', { name: 'SPF validator' });
  const recordField = form.getByLabel('SPF record');
  await recordField.fill('v=spf1 ip4:300.1.1.1 include:_spf.spf-pass.example.test mx -all');
  await form.getByRole('button', { name: 'Validate' }).click();

  await expect(page.getByText('Record checked on its own')).toBeVisible();
  const bad = page.getByRole('region', { name: 'Errors' }).locator('[data-code="SPF_IP_INVALID"]');
  await expect(bad).toContainText('Fix: Correct the address of ip4');
  const corrected = page.getByRole('region', { name: 'Corrected record' });
  const expected = 'v=spf1 include:_spf.spf-pass.example.test mx -all';
  await expect(corrected.getByTestId('corrected-record')).toHaveText(expected);
  await expect(corrected.getByRole('list', { name: 'What changed' })).toContainText(
    "Removed 'ip4:300.1.1.1'",
  );
  await corrected.getByRole('button', { name: 'Copy the corrected record' }).click();
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(expected);
  await expectNoAxeViolations(page);

  // the corrected record passes; its include is fetched, its bare mx waits for a domain
  await recordField.fill(expected);
  await form.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByRole('heading', { name: 'Valid SPF record' })).toBeVisible();
  await expect(page.getByRole('tree', { name: 'Include tree' })).toContainText('_spf.spf-pass.example.test');
  await expect(page.getByText(/mx: not resolved/).first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Corrected record' })).toHaveCount(0);
});

test('validates a lab domain whose include chain is over the limit: tree and permerror explained', async ({
  page,
}) => {
  await page.goto('/tools/spf?tab=validator');
  const form = page.getByRole('form', { name: 'SPF validator' });
  const validate = form.getByRole('button', { name: 'Validate' });
  await form.getByLabel('Domain').fill('spf-over.example.test');
  await validate.click();

  await expect(
    page.getByRole('heading', { name: 'SPF permerror: receivers fail this record' }),
  ).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Validation result' }).getByTestId('lookup-budget'),
  ).toContainText('DNS lookups: 12 of 10, over the limit: receivers return permerror');
  const tree = page.getByRole('tree', { name: 'Include tree' });
  await expect(tree.getByRole('treeitem')).toHaveCount(13);
  const limit = page.getByRole('region', { name: 'Errors' }).locator('[data-code="SPF_TREE_LOOKUP_LIMIT"]');
  await expect(limit).toContainText('the record and its includes need 12 DNS lookups');
  await expect(limit).toContainText('MUST');
  await expect(limit).toContainText('RFC 7208 §4.6.4');

  // the tree is keyboard navigable: focus the root, move down, fold a branch
  const root = tree.getByRole('treeitem').first();
  await root.focus();
  await page.keyboard.press('ArrowDown');
  const first = tree.getByRole('treeitem', { name: /^i1\.spf-over\.example\.test, record found, 2 lookups/ });
  await expect(first).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(first).toHaveAttribute('aria-expanded', 'false');

  await expectNoAxeViolations(page);
});

test('the Test tab runs check_host on a lab domain and shows the trace', async ({ page }) => {
  await page.goto('/tools/spf?tab=test');
  const form = page.getByRole('form', { name: 'SPF test' });
  const run = form.getByRole('button', { name: 'Run test' });
  await form.getByLabel('IP address').fill('198.51.100.7');
  await form.getByLabel('Sender (MAIL FROM)').fill('bounce@spf-pass.example.test');
  await form.getByLabel('HELO name').fill('mail.spf-pass.example.test');
  await run.click();

  await expect(page.getByRole('heading', { name: 'SPF result: pass' })).toBeVisible();
  const summary = page.getByRole('table', { name: 'Check summary' });
  await expect(summary).toContainText('include:_spf.spf-pass.example.test');
  await expect(page.getByRole('list', { name: 'Evaluation trace' })).toContainText(
    '_spf.spf-pass.example.test',
  );

  await form.getByLabel('IP address').fill('192.0.2.99');
  await run.click();
  await expect(page.getByRole('heading', { name: 'SPF result: fail' })).toBeVisible();
  await expect(page.getByTestId('spf-explanation')).toHaveText(
    '192.0.2.99 may not send mail for spf-pass.example.test',
  );
  await expectNoAxeViolations(page);
});

for (const scheme of ['light', 'dark'] as const) {
  test(`information, generator and validator pass axe in the ${scheme} theme`, async ({ page }, testInfo) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('/tools/spf');
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
    await expect(page.getByRole('heading', { name: 'The DNS lookup limits' })).toBeVisible();
    await expectNoAxeViolations(page);

    await page.getByRole('tab', { name: 'Generator' }).click();
    await page.getByRole('checkbox', { name: /^Microsoft 365/ }).check();
    await page.getByRole('radio', { name: /^\+all/ }).check();
    await expect(page.getByTestId('spf-record')).toHaveText('v=spf1 include:spf.protection.outlook.com +all');
    await page.screenshot({ path: testInfo.outputPath(`spf-generator-${scheme}.png`), fullPage: true });
    await expectNoAxeViolations(page);

    await page.getByRole('tab', { name: 'Validator' }).click();
    const form = page.getByRole('form', { name: 'SPF validator' });
    await form.getByLabel('Domain').fill('spf-pass.example.test');
    await form
      .getByLabel('SPF record', { exact: true })
      .fill('v=spf1 ptr include:_spf.spf-pass.example.test ~all');
    await form.getByRole('button', { name: 'Validate' }).click();
    await expect(page.getByRole('region', { name: 'Resolved networks', exact: true })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`spf-validator-${scheme}.png`), fullPage: true });
    await expectNoAxeViolations(page);
  });
}

for (const scheme of ['light', 'dark'] as const) {
  for (const width of [1440, 390] as const) {
    test(`the validator's field error and corrected record at ${width} px in the ${scheme} theme`, async ({
      page,
    }, testInfo) => {
      test.setTimeout(90_000);
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('/tools/spf?tab=validator');
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      const form = page.getByRole('form', { name: 'SPF validator' });
      const domain = form.getByLabel('Domain');
      await domain.fill('not a domain!');
      await domain.blur();
      await expect(domain).toHaveAttribute('aria-invalid', 'true');
      await domain.scrollIntoViewIfNeeded();
      await page.screenshot({ path: testInfo.outputPath(`spf-field-error-${width}-${scheme}.png`) });

      await domain.fill('');
      await form.getByLabel('SPF record', { exact: true }).fill('v=spf1 ip4:300.1.1.1 ptr mx -all -all');
      await form.getByRole('button', { name: 'Validate' }).click();
      const corrected = page.getByRole('region', { name: 'Corrected record' });
      await expect(corrected.getByTestId('corrected-record')).toHaveText('v=spf1 mx -all');
      await corrected.screenshot({
        path: testInfo.outputPath(`spf-corrected-section-${width}-${scheme}.png`),
      });
      await page.screenshot({
        path: testInfo.outputPath(`spf-corrected-${width}-${scheme}.png`),
        fullPage: true,
      });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expectNoAxeViolations(page);
    });
  }
}
