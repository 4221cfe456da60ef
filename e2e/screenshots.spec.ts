import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { withConsentGiven } from './fixtures.ts';
import { signInThroughApi } from './session.ts';

const pages = [
  { name: 'welcome', path: '/welcome' },
  { name: 'privacy-policy', path: '/privacy-policy' },
  { name: 'cookie-policy', path: '/cookie-policy' },
  { name: 'login', path: '/login' },
  { name: 'register', path: '/register' },
  { name: 'reset-password', path: '/reset-password' },
  { name: 'dnskey-information', path: '/tools/dnskey', signedIn: true },
  // a linked name runs at once: the secure chain of the lab's www.secure.test
  { name: 'dnskey-chain', path: '/tools/dnskey?tab=chain&domain=www.secure.test', signedIn: true },
  { name: 'dashboard', path: '/dashboard', signedIn: true },
  { name: 'profile', path: '/profile', signedIn: true },
  { name: 'organisation', path: '/organisation', signedIn: true },
  { name: 'billing', path: '/billing', signedIn: true },
  { name: 'billing-payment-methods', path: '/billing?tab=payment-methods', signedIn: true },
  { name: 'activity', path: '/activity', signedIn: true },
  { name: 'api-keys', path: '/api-keys', signedIn: true },
  { name: 'access-denied', path: '/welcome', country: 'RU' },
  { name: 'not-found', path: '/no-such-page' },
];

for (const scheme of ['light', 'dark'] as const) {
  for (const { name, path, signedIn, country } of pages) {
    test(`${name} in the ${scheme} theme: screenshot and accessibility`, async ({
      page,
      request,
    }, testInfo) => {
      await withConsentGiven(page);
      if (signedIn) await signInThroughApi(page, request, `screenshot-${name}`);
      if (country) await page.setExtraHTTPHeaders({ 'CF-IPCountry': country });
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      await expect(page.getByRole('main')).toBeVisible();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: testInfo.outputPath(`${name}-${scheme}.png`), fullPage: true });

      const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
      const found = axe.violations.map(
        (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
      );
      expect(found).toEqual([]);
    });
  }
}
