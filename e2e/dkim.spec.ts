import { generateKeyPairSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { withConsentGiven } from './fixtures.ts';
import { signInThroughApi } from './session.ts';

test.beforeEach(async ({ page, request }) => {
  await withConsentGiven(page);
  await signInThroughApi(page, request, 'dkim');
});

test('an Ed25519 key pair made in the browser gives a record that validates; the private key stays local', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const bodies: string[] = [];
  page.on('request', (request) => {
    const body = request.postData();
    if (body !== null) bodies.push(body);
  });

  await page.goto('/tools/dkim?tab=generator');
  await page.getByRole('textbox', { name: /^Domain/ }).fill('example.com');
  await page.getByRole('radio', { name: /ed25519-sha256/ }).check();
  await page.getByRole('button', { name: 'Generate key pair' }).click();
  const publicKeyField = page.getByRole('textbox', { name: /^Public key/ });
  await expect(publicKeyField).not.toHaveValue('');
  const publicKey = await publicKeyField.inputValue();
  expect(Buffer.from(publicKey, 'base64')).toHaveLength(32);

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download private key (PEM)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('default.example.com.key.pem');
  const pem = (await readFile(await download.path())).toString('utf8');
  expect(pem).toMatch(/^-----BEGIN PRIVATE KEY-----\n[A-Za-z0-9+/=\n]+\n-----END PRIVATE KEY-----\n$/);
  await expect(page.getByRole('button', { name: 'Download private key (PEM)' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Generate record' }).click();
  const result = page.getByRole('region', { name: 'Generated record' });
  await expect(result.getByText('DKIM record generated')).toBeVisible();
  await expect(result.getByText('default._domainkey.example.com', { exact: true })).toBeVisible();
  await result.getByRole('button', { name: 'Copy record' }).click();
  await expect(result.getByRole('button', { name: 'Copied!' })).toBeVisible();
  // the e2e project compiles without the DOM library: the page's clipboard, typed here
  const copied = await page.evaluate(() =>
    (navigator as unknown as { clipboard: { readText(): Promise<string> } }).clipboard.readText(),
  );
  expect(copied).toBe(`v=DKIM1; k=ed25519; h=sha256; s=email; p=${publicKey}`);

  // no request ever carried the private key
  const privateBase64 = pem.split('\n').slice(1, -2).join('');
  expect(bodies.length).toBeGreaterThan(0);
  for (const body of bodies) {
    expect(body).not.toContain(privateBase64);
    expect(body).not.toContain('PRIVATE KEY');
  }

  await page.getByRole('tab', { name: 'Validator' }).click();
  await page.getByRole('textbox', { name: /^DKIM record/ }).fill(copied);
  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByRole('heading', { name: 'Valid DKIM key record' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Key record summary' })).toContainText('256 bits');
});

test('a 512-bit RSA record fails with the RFC 8301 reason', async ({ page }) => {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 512 });
  const p = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');

  await page.goto('/tools/dkim?tab=validator');
  await page.getByRole('textbox', { name: /^DKIM record/ }).fill(`v=DKIM1; k=rsa; p=${p}`);
  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByRole('heading', { name: 'Invalid DKIM key record' })).toBeVisible();
  const finding = page.locator('[data-code="DKIM_RSA_TOO_SHORT"]');
  await expect(finding).toContainText('512 bits');
  await expect(finding).toContainText('RFC 8301 §3.2');
  await expect(finding.locator('[data-requirement="MUST NOT"]')).toBeVisible();
});

test('DNS mode validates a published key and finds the selectors of a domain', async ({ page }) => {
  await page.goto('/tools/dkim?tab=validator');
  // the segmented control hides its radio inputs behind their labels: a user clicks the label
  await page.getByText('Look up in DNS', { exact: true }).click();
  await expect(page.getByRole('radio', { name: 'Look up in DNS' })).toBeChecked();
  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByText('Domain and selector are required')).toBeVisible();

  // the Ed25519 key of RFC 8463 Appendix A.2, served by the e2e lab DNS (e2e/lab-sites.ts)
  await page.getByRole('textbox', { name: 'Domain' }).fill('dkim.example.test');
  await page.getByRole('textbox', { name: /^Selector/ }).fill('brisbane');
  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByRole('heading', { name: 'Valid DKIM key published' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'DNS lookup' })).toContainText(
    'brisbane._domainkey.dkim.example.test',
  );
  await expect(page.getByRole('table', { name: 'Key record summary' })).toContainText('256 bits');
  await expect(page.getByLabel('Published record')).toContainText(
    '11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=',
  );

  await page.getByRole('textbox', { name: /^Selector/ }).fill('missing');
  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByRole('heading', { name: 'No DKIM key found' })).toBeVisible();
  await expect(page.locator('[data-code="DKIM_DNS_NXDOMAIN"]')).toBeVisible();

  await page.getByRole('button', { name: 'Find selectors' }).click();
  const found = page.getByRole('region', { name: 'Selectors found' });
  await expect(found).toContainText(/1 of \d+ common selectors have a key at dkim\.example\.test/);
  await found.getByRole('button', { name: 'google (rsa 2048 bits)' }).click();
  await expect(page.getByRole('textbox', { name: /^Selector/ })).toHaveValue('google');
  await expect(page.getByRole('heading', { name: 'Valid DKIM key published' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'DNS lookup' })).toContainText('2 character-strings joined');
  await expect(page.getByRole('table', { name: 'Key record summary' })).toContainText('2048 bits');
});
