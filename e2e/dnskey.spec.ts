import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { dnssecLabNames as names } from '@rfckit/testlab';
import { withConsentGiven } from './fixtures.ts';
import { signInThroughApi } from './session.ts';

// RFC 6605 §6.1 (P-256) as printed in shared/conformance/vectors.md; key tag and DS are the RFC's.
const p256 =
  'example.net. 3600 IN DNSKEY 257 3 13 GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==';

test.beforeEach(async ({ page, request }) => {
  await withConsentGiven(page);
  await signInThroughApi(page, request, 'dnskey');
});

test('the sidebar leads to the DNSKEY tool, which opens on Information', async ({ page }) => {
  await page.goto('/welcome');
  await page.getByRole('navigation').getByRole('link', { name: 'DNSKEY' }).first().click();
  await expect(page).toHaveURL(/\/tools\/dnskey/);
  await expect(page.getByRole('tab', { name: 'Information' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: 'Validator' })).toBeVisible();
});

test('the validator shows the key tag and DS of a pasted record', async ({ page }) => {
  await page.goto('/tools/dnskey');
  await page.getByRole('tab', { name: 'Validator' }).click();
  await page.getByLabel('DNSKEY record').fill(p256);
  await page.getByRole('button', { name: 'Validate' }).click();

  const keyTag = page.getByRole('row', { name: /Key tag/ });
  await expect(keyTag).toContainText('55648');
  // DS SHA-256 of RFC 6605 §6.1, in any letter case
  await expect(
    page.getByText(/b4c8c1fe2e7477127b27115656ad6256f424625bf5c1e2770ce6d6e37df61d17/i).first(),
  ).toBeVisible();
});

test('the validator explains a wrong protocol field', async ({ page }) => {
  await page.goto('/tools/dnskey');
  await page.getByRole('tab', { name: 'Validator' }).click();
  await page
    .getByLabel('DNSKEY record')
    .fill(
      '257 2 13 GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==',
    );
  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByText(/Protocol must be 3/).first()).toBeVisible();
});

test('a blank record is refused before any call, as every tool refuses one', async ({ page }) => {
  const requests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/dnskey/validate')) requests.push(request.url());
  });
  await page.goto('/tools/dnskey');
  await page.getByRole('tab', { name: 'Validator' }).click();
  const validate = page.getByRole('button', { name: 'Validate' });
  // the one input rule: the button is on while the field is empty, and submit names the field
  await expect(validate).toBeEnabled();
  const field = page.getByLabel('DNSKEY record');
  await field.focus();
  await field.blur();
  await expect(field).not.toHaveAttribute('aria-invalid', 'true');
  await validate.click();
  await expect(field).toHaveAccessibleDescription(/DNSKEY record is required/);
  expect(requests).toEqual([]);
});

async function expectNoAxeViolations(page: Page) {
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(
    axe.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
  ).toEqual([]);
}

test.describe('Chain tab on the signed lab', () => {
  /** The result region of the Chain tab, once the verdict of `name` is on screen. */
  async function chainResult(page: Page, title: string) {
    const result = page.getByRole('region', { name: 'Chain of trust result' });
    await expect(result.getByRole('heading', { name: title })).toBeVisible({ timeout: 20_000 });
    return result;
  }

  test('a linked name opens with its secure chain, a card per zone from the root', async ({ page }) => {
    await page.goto(`/tools/dnskey?tab=chain&domain=www.${names.secure}&type=A`);
    await expect(page.getByRole('tab', { name: 'Chain' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByLabel('Domain')).toHaveValue(`www.${names.secure}`);
    const result = await chainResult(page, `www.${names.secure} A: secure`);
    const diagram = result.getByRole('region', { name: 'Chain of trust' });
    await expect(diagram.getByRole('heading', { level: 5 })).toHaveText([
      '. (root)',
      names.tld,
      names.secure,
      `Answer: www.${names.secure} A`,
    ]);
    for (const zone of ['.', names.tld, names.secure]) {
      await expect(diagram.locator(`[data-zone="${zone}"]`)).toHaveAttribute('data-status', 'secure');
    }
    // the lab root's DS is the configured trust anchor and matches its key-signing key
    await expect(diagram.getByRole('region', { name: 'Trust anchors' })).toContainText('matches a key');
    const domain = diagram.locator(`[data-zone="${names.secure}"]`);
    await expect(domain.getByRole('region', { name: 'DNSKEY records' })).toContainText('KSK');
    await expect(domain.getByRole('region', { name: 'DNSKEY records' })).toContainText('ZSK');
    await expect(domain.getByRole('region', { name: 'Signatures over the DNSKEY set' })).toContainText(
      /expires in/,
    );
  });

  test('a DS that matches no key is bogus, with the reason and the fix', async ({ page }) => {
    await page.goto('/tools/dnskey?tab=chain');
    const form = page.getByRole('form', { name: 'DNSSEC chain of trust' });
    await form.getByLabel('Domain').fill(names.wrongDs);
    await form.getByRole('button', { name: 'Validate chain' }).click();
    const result = await chainResult(page, `${names.wrongDs} A: bogus`);
    const verdict = result.getByTestId('chain-verdict');
    await expect(verdict.locator('[data-failure="wrong-digest"]')).toContainText(/digest/i);
    await expect(verdict).toContainText('Fix:');
    await expect(result.locator(`[data-zone="${names.wrongDs}"]`)).toHaveAttribute('data-status', 'bogus');
    // the parent is still secure: the break is at the delegation
    await expect(result.locator(`[data-zone="${names.tld}"]`)).toHaveAttribute('data-status', 'secure');
  });

  test('a name that does not exist is proven so by the zone NSEC records', async ({ page }) => {
    await page.goto(`/tools/dnskey?tab=chain&domain=missing.${names.secure}&type=A`);
    const result = await chainResult(page, `missing.${names.secure} A: secure`);
    const proof = result.getByRole('region', { name: 'Proof of non-existence' });
    await expect(proof).toContainText('NSEC proof');
    await expect(proof).toContainText('proven');
    await expectNoAxeViolations(page);
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`secure and bogus chains at 1440 and 390 px in the ${scheme} theme: screenshots, no sideways scroll, axe`, async ({
      page,
    }, testInfo) => {
      test.setTimeout(180_000);
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: 900 });
        for (const [name, domain, type, status] of [
          ['secure', `www.${names.secure}`, 'A', 'secure'],
          ['bogus', names.wrongDs, 'A', 'bogus'],
          ['expired', names.expired, 'A', 'bogus'],
          ['ds', names.secure, 'DS', 'secure'],
          ['unsigned', names.unsigned, 'A', 'insecure'],
          ['optout', `www.${names.optoutChild}`, 'A', 'insecure'],
        ] as const) {
          await page.goto(`/tools/dnskey?tab=chain&domain=${domain}&type=${type}`);
          await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
          await chainResult(page, `${domain} ${type}: ${status}`);
          await page.screenshot({
            path: testInfo.outputPath(`dnskey-chain-${name}-${width}-${scheme}.png`),
            fullPage: true,
          });
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
          await expectNoAxeViolations(page);
        }
      }
    });
  }
});
