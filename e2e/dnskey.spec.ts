import { expect, test } from '@playwright/test';
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
