import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { withConsentGiven } from './fixtures.ts';
import { signInThroughApi } from './session.ts';

// CSP missing −25, X-Content-Type-Options missing −5, X-Frame-Options missing −20; HSTS set:
// 100 − 50 = 50, grade C (redirection and SRI cannot be seen in pasted headers)
const pasted = [
  'HTTP/2 200',
  'content-type: text/html',
  'strict-transport-security: max-age=63072000',
  'server: nginx',
].join('\n');

test.beforeEach(async ({ page, request }) => {
  await withConsentGiven(page);
  await signInThroughApi(page, request, 'http-headers');
});

test('the sidebar leads to the headers tool, with Information, Analyser and Validator', async ({ page }) => {
  await page.goto('/welcome');
  await page.getByRole('navigation').getByRole('link', { name: 'HTTP Security Headers' }).first().click();
  await expect(page).toHaveURL(/\/tools\/http-headers/);
  await expect(page.getByRole('tab', { name: 'Information' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: 'Analyser' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Validator' })).toBeVisible();
});

test('the Validator grades pasted headers and explains a failing test', async ({ page }) => {
  await page.goto('/tools/http-headers?tab=validator');
  await page.getByLabel('Response headers').fill(pasted);
  await page.getByRole('button', { name: 'Validate' }).click();

  await expect(page.getByRole('heading', { name: 'Grade C' })).toBeVisible();
  await expect(page.getByTestId('headers-score')).toHaveAccessibleName('Score 50 out of 100, poor');
  const csp = page.getByRole('row', { name: /Content Security Policy \(CSP\)/ });
  await expect(csp).toContainText('Fail');
  await expect(csp).toContainText('Content Security Policy (CSP) header not implemented');
  await expect(page.getByRole('row', { name: /^Redirection/ })).toContainText('Not evaluated');
});

test('the Analyser refuses a blank URL', async ({ page }) => {
  await page.goto('/tools/http-headers');
  await page.getByRole('tab', { name: 'Analyser' }).click();
  await page.getByRole('button', { name: 'Analyse Headers' }).click();
  await expect(page.getByText('URL is required')).toBeVisible();
});

for (const scheme of ['light', 'dark'] as const) {
  test(`the Information tab is accessible in the ${scheme} theme`, async ({ page }, testInfo) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('/tools/http-headers');
    await expect(page.getByRole('heading', { name: 'How the score is computed' })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`information-${scheme}.png`), fullPage: true });
    const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  });

  test(`a graded result is accessible in the ${scheme} theme`, async ({ page }, testInfo) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('/tools/http-headers?tab=validator');
    await page.getByLabel('Response headers').fill(`${pasted}\nset-cookie: sessionid=1; Secure`);
    // keyboard only: Ctrl+Enter submits from the text area
    await page.getByLabel('Response headers').press('Control+Enter');
    await expect(page.getByRole('heading', { name: /^Grade / })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`result-${scheme}.png`), fullPage: true });
    const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
    const found = axe.violations.map(
      (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
    );
    expect(found).toEqual([]);
  });
}
