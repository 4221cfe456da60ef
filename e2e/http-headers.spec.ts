import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
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
  await page.getByRole('button', { name: 'Analyze Headers' }).click();
  await expect(page.getByText('URL is required')).toBeVisible();
});

async function analyse(page: Page, site: string) {
  await page.goto('/tools/http-headers');
  await page.getByRole('tab', { name: 'Analyser' }).click();
  await page.getByLabel('URL').fill(site);
  await page.getByRole('button', { name: 'Analyze Headers' }).click();
}

// the sites are served by the network lab of e2e/serve.ts (e2e/lab-sites.ts); the server fetches
// them by name through its guarded outbound layer
test('the Analyser fetches a site with every header set and grades it A+', async ({ page }) => {
  await analyse(page, 'strict.example.test');

  await expect(page.getByRole('heading', { name: 'Grade A+' })).toBeVisible();
  const score = page.getByTestId('headers-score');
  // CSP +10, cookies +5, Referrer-Policy +5, SRI +5, X-Frame-Options +5, CORP, COOP, COEP +10 each
  await expect(score).toHaveAccessibleName('Score 160 out of 100, good');
  // the spec's band for 80 and more: green
  await expect(score).toHaveAttribute('data-band', 'good');
  await expect(score).toHaveCSS('background-color', 'rgb(27, 107, 46)');
  await expect(page.getByText('Graded response: https://strict.example.test/en/ (HTTP 200)')).toBeVisible();

  const chain = page.getByRole('region', { name: 'Redirect chain' }).getByRole('listitem');
  await expect(chain).toHaveCount(2);
  await expect(chain.nth(0)).toContainText('https://strict.example.test/');
  await expect(chain.nth(0)).toContainText('301');
  await expect(chain.nth(0)).toContainText('→ /en/');
  await expect(chain.nth(1)).toContainText('https://strict.example.test/en/');

  const tests = page.getByRole('table', { name: 'The twelve tests of the MDN HTTP Observatory' });
  await expect(tests.locator('tbody tr')).toHaveCount(12);
  // no CORS header passes for 0 points: shown as not set, not as a green pass
  await expect(tests.locator('tbody tr').filter({ hasText: 'Pass' })).toHaveCount(11);
  await expect(tests.locator('tr[data-test="cross-origin-resource-sharing"]')).toContainText('Not set');
  const csp = tests.getByRole('row', { name: /Content Security Policy \(CSP\)/ });
  await expect(csp).toContainText('+10');
  await expect(csp).toContainText('csp-implemented-with-no-unsafe-default-src-none');
  await expect(tests.getByRole('row', { name: /^Redirection/ })).toContainText('redirection-to-https');
});

test('the Analyser shows what a site without headers fails and how to fix it', async ({ page }) => {
  await analyse(page, 'http://bare.example.test/');

  await expect(page.getByRole('heading', { name: 'Grade F' })).toBeVisible();
  // CSP −25, redirection −20, HSTS −20, X-Content-Type-Options −5, X-Frame-Options −20
  const score = page.getByTestId('headers-score');
  await expect(score).toHaveAccessibleName('Score 10 out of 100, poor');
  // below 60: the red band
  await expect(score).toHaveAttribute('data-band', 'poor');
  await expect(score).not.toHaveCSS('background-color', 'rgb(27, 107, 46)');

  const tests = page.getByRole('table', { name: 'The twelve tests of the MDN HTTP Observatory' });
  for (const [title, points] of [
    [/^Content Security Policy \(CSP\)/, '−25'],
    [/^Redirection/, '−20'],
    [/^Strict Transport Security/, '−20'],
    [/^X-Content-Type-Options/, '−5'],
    [/^X-Frame-Options/, '−20'],
  ] as const) {
    const row = tests.getByRole('row', { name: title });
    await expect(row).toContainText('Fail');
    await expect(row).toContainText(points);
  }

  const recommendations = page.getByRole('region', { name: 'Recommendations' }).getByRole('listitem');
  await expect(recommendations.first()).toContainText('HIGH');
  await expect(recommendations.filter({ hasText: 'Content-Security-Policy' }).first()).toBeVisible();
  await expect(recommendations.filter({ hasText: 'Strict-Transport-Security' }).first()).toBeVisible();
});

test('the Analyser refuses a name that resolves to a private address, with the server’s message', async ({
  page,
}) => {
  await analyse(page, 'http://intranet.example.test/');
  const result = page.getByRole('region', { name: 'Analysis result' });
  await expect(result).toContainText(
    'Refusing to connect to intranet.example.test (10.0.0.1): private address',
  );
  await expect(page.getByRole('button', { name: 'Analyze Headers' })).toBeEnabled();
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
