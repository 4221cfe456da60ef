import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { withConsentGiven } from './fixtures.ts';
import { signInThroughApi } from './session.ts';

test.beforeEach(async ({ page, request }) => {
  await withConsentGiven(page);
  await signInThroughApi(page, request, 'tls-cipher');
});

async function validate(page: Page, suite: string) {
  const field = page.getByLabel('Cipher suite', { exact: true });
  await field.fill(suite);
  await page.getByRole('button', { name: 'Validate' }).click();
}

async function loadApacheModern(page: Page) {
  await page.getByRole('tab', { name: 'Recommendations' }).click();
  await page.getByLabel('Profile', { exact: true }).selectOption('modern');
  await page.getByLabel('Server', { exact: true }).selectOption('apache');
  await page.getByRole('button', { name: 'Load Recommendations' }).click();
  await expect(page.getByRole('heading', { name: 'Apache httpd, Mozilla modern profile' })).toBeVisible();
}

test('a new user validates suites and copies a recommended configuration', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/welcome');
  await page.getByRole('navigation').getByRole('link', { name: 'TLS Cipher Suites' }).first().click();
  await expect(page).toHaveURL(/\/tools\/tls-cipher/);
  await expect(page.getByRole('tab', { name: 'Information' })).toHaveAttribute('aria-selected', 'true');
  // conformance/tls/README.md: 350 IANA-assigned suites
  await expect(page.getByTestId('suite-count-Cipher suites')).toHaveText('350');

  await page.getByRole('tab', { name: 'Validator' }).click();
  await validate(page, 'c02f');
  await expect(page.getByRole('heading', { name: 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256' })).toBeVisible();
  await expect(page.getByRole('row', { name: 'OpenSSL name' })).toContainText('ECDHE-RSA-AES128-GCM-SHA256');
  await expect(
    page.getByRole('region', { name: 'Validation result' }).getByLabel(/^Security level HIGH/),
  ).toBeVisible();

  await validate(page, 'TLS_NOT_A_SUITE');
  await expect(page.getByRole('heading', { name: 'UNKNOWN: TLS_NOT_A_SUITE' })).toBeVisible();
  await expect(page.getByText(/Not an IANA-registered TLS cipher suite/)).toBeVisible();

  await page.getByLabel('Cipher suite', { exact: true }).fill('');
  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByText('Please enter a cipher suite to validate')).toBeVisible();

  await loadApacheModern(page);
  const config = page.getByTestId('tls-config');
  await expect(config).toContainText('SSLProtocol -all +TLSv1.3');
  await page.getByRole('button', { name: 'Copy the Apache httpd configuration' }).click();
  const copied = String(await page.evaluate('navigator.clipboard.readText()'));
  expect(copied).toContain('SSLProtocol -all +TLSv1.3');
  expect(copied).toContain('SSLCipherSuite TLSv1.3 TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384');
  expect(copied).toBe(await config.textContent());
});

for (const width of [1440, 390]) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`screens at ${width} px, ${scheme}: screenshots, accessibility, no sideways scroll`, async ({
      page,
    }, testInfo) => {
      // three screens, each with an axe run: its own time budget, not the default 30 s
      test.setTimeout(120_000);
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('/tools/tls-cipher');
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      const shots: [string, () => Promise<void>, string?][] = [
        ['information', async () => {}],
        [
          'validator',
          async () => {
            await page.getByRole('tab', { name: 'Validator' }).click();
            await validate(page, 'DES-CBC3-SHA');
            await expect(
              page.getByRole('region', { name: 'Validation result' }).getByLabel(/^Security level LOW/),
            ).toBeVisible();
          },
          'Validation result',
        ],
        ['recommendations', () => loadApacheModern(page), 'Recommended configuration'],
      ];
      for (const [name, open, result] of shots) {
        await open();
        await page.waitForLoadState('networkidle');
        // the answer alone, at full size, besides the whole page
        if (result !== undefined)
          await page
            .getByRole('region', { name: result })
            .screenshot({ path: testInfo.outputPath(`tls-cipher-${name}-result-${width}-${scheme}.png`) });
        await page.screenshot({
          path: testInfo.outputPath(`tls-cipher-${name}-${width}-${scheme}.png`),
          fullPage: true,
        });
        // what sticks out past the window, outermost first, where the page scrolls sideways
        const overflow = String(
          await page.evaluate(`(() => {
            const width = window.innerWidth;
            if (document.documentElement.scrollWidth <= width) return '';
            const out = [...document.body.querySelectorAll('*')].filter(
              (e) => e.getBoundingClientRect().right > width + 0.5 && e.parentElement.getBoundingClientRect().right <= width + 0.5,
            );
            return out.map((e) => e.tagName + '.' + e.className + ' ' + (e.textContent || '').slice(0, 40)).join(' | ');
          })()`),
        );
        expect(overflow, name).toBe('');
        const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
        expect(
          axe.violations.map((v) => `${name} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
        ).toEqual([]);
      }
    });
  }
}
