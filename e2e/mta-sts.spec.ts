import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { withConsentGiven } from './fixtures.ts';
import { signInThroughApi } from './session.ts';

test.beforeEach(async ({ page, request }) => {
  await withConsentGiven(page);
  await signInThroughApi(page, request, 'mta-sts');
});

async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).include('main').analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('a new user generates a record and policy, copies them, then fixes a broken policy', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/tools/mta-sts');
  await expect(page.getByRole('heading', { name: 'What MTA-STS is' })).toBeVisible();
  await page.getByRole('tab', { name: 'Generator' }).click();

  const form = page.getByRole('form', { name: 'MTA-STS generator' });
  const panel = page.getByRole('region', { name: 'Generated MTA-STS record and policy' });
  await expect(panel).toContainText('Domain is required');
  await form.getByRole('textbox', { name: 'Domain', exact: true }).fill('example.com');
  await expect(panel).toContainText('At least one mx field is required');
  await form.getByRole('textbox', { name: 'MX host pattern 1' }).fill('mx1.example.com');
  await form.getByRole('button', { name: 'Add MX host' }).click();
  await form.getByRole('textbox', { name: 'MX host pattern 2' }).fill('*.backup.example.com');
  await form.getByLabel('A counter you keep').check();
  await form.getByLabel('Counter', { exact: true }).fill('3');

  await expect(page.getByTestId('mta-sts-record-name')).toHaveText('_mta-sts.example.com');
  await expect(page.getByTestId('mta-sts-record')).toHaveText('v=STSv1; id=3');
  expect(await page.getByTestId('mta-sts-policy').textContent()).toBe(
    'version: STSv1\r\nmode: enforce\r\nmx: mx1.example.com\r\nmx: *.backup.example.com\r\nmax_age: 604800\r\n',
  );
  await expect(panel.getByRole('list', { name: 'Hosting steps' })).toContainText(
    'https://mta-sts.example.com/.well-known/mta-sts.txt',
  );
  await panel.getByRole('button', { name: 'Copy TXT record value' }).click();
  await expect(panel.getByRole('button', { name: 'Copied!' })).toBeVisible();
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe('v=STSv1; id=3');

  // the policy as it was served, with a capitalised mode and no max_age
  await page.getByRole('tab', { name: 'Validator' }).click();
  const validate = page.getByRole('button', { name: 'Validate' });
  await validate.click();
  await expect(page.getByLabel('MTA-STS policy', { exact: true })).toHaveAccessibleDescription(
    /MTA-STS policy is required/,
  );
  await page
    .getByLabel('MTA-STS policy', { exact: true })
    .fill('version: STSv1\nmode: Enforce\nmx: mx1.example.com\nmx: mail*.example.com\n');
  await validate.click();
  await expect(page.getByRole('heading', { name: 'Invalid MTA-STS policy' })).toBeVisible();
  const errors = page.getByRole('region', { name: 'Errors' });
  await expect(
    errors.getByRole('listitem').filter({ hasText: 'Mode must be enforce, testing, or none' }),
  ).toContainText('Write the mode in lower case: "mode: enforce"');
  await expect(errors).toContainText('max_age field is required');
  await expect(errors).toContainText("'*' may only stand as the whole left-most label");

  await page
    .getByLabel('MTA-STS policy', { exact: true })
    .fill('version: STSv1\nmode: enforce\nmx: mx1.example.com\nmax_age: 604800\n');
  await validate.click();
  await expect(page.getByRole('heading', { name: 'Valid MTA-STS policy' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'What senders read' })).toContainText('604800 s');
});

for (const scheme of ['light', 'dark'] as const) {
  test(`every tab passes axe in the ${scheme} theme, at 1440 and 390 px`, async ({ page }, testInfo) => {
    // full-page shots and axe runs of three tabs at two widths: slow on a shared two-core machine
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      const shot = (tab: string) =>
        page.screenshot({
          path: testInfo.outputPath(`mta-sts-${tab}-${width}-${scheme}.png`),
          fullPage: true,
        });
      const noSideScroll = async () =>
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

      await page.goto('/tools/mta-sts');
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      await expect(page.getByRole('heading', { name: 'Deploying it' })).toBeVisible();
      await shot('information');
      await noSideScroll();
      if (width === 1440) expect(await axeViolations(page)).toEqual([]);

      await page.getByRole('tab', { name: 'Generator' }).click();
      const form = page.getByRole('form', { name: 'MTA-STS generator' });
      await form.getByRole('textbox', { name: 'Domain', exact: true }).fill('example.com');
      await form.getByRole('combobox', { name: 'Mode' }).selectOption('testing');
      await form.getByRole('textbox', { name: 'MX host pattern 1' }).fill('*.mail.example.com');
      await expect(page.getByTestId('mta-sts-record-name')).toHaveText('_mta-sts.example.com');
      await shot('generator');
      await noSideScroll();
      if (width === 1440) expect(await axeViolations(page)).toEqual([]);

      await page.getByRole('tab', { name: 'Validator' }).click();
      await page
        .getByLabel('MTA-STS policy', { exact: true })
        .fill(
          'version: STSv1\nmode: testing\nmode: enforce\nmx: mail.example.com.\nmax_age: 99999999999\n# note\n',
        );
      await page.getByRole('button', { name: 'Validate' }).click();
      await expect(page.getByRole('heading', { name: 'Invalid MTA-STS policy' })).toBeVisible();
      await shot('validator');
      await noSideScroll();
      if (width === 1440) expect(await axeViolations(page)).toEqual([]);
    }
  });
}
