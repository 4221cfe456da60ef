import { expect, test } from '@playwright/test';
import { withConsentGiven } from './fixtures.ts';
import { signInThroughApi } from './session.ts';

// RFC 8080 §6.1 (Ed25519): a valid DNSKEY, so a 200 means the key got through, not a validation detail.
const RFC8080_DNSKEY = 'example.com. 3600 IN DNSKEY 257 3 15 l02Woi0iS8Aa25FQkUd9RMzZHJpBoRQwAQEX1SxZJA4=';

test('an admin creates an API key, a script uses it on a tool route, and revoking it locks the script out', async ({
  page,
  context,
  request,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await withConsentGiven(page);
  // a new account is the admin of its own organisation
  await signInThroughApi(page, request, 'api-keys');

  await page.goto('/dashboard');
  await page.getByRole('button', { name: /^Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'API keys' }).click();
  await expect(page).toHaveURL(/\/api-keys$/);
  await expect(page.getByRole('heading', { level: 1, name: 'API Keys' })).toBeVisible();
  await expect(page.getByText('No API keys yet. Create one above.')).toBeVisible();

  // the shared schema speaks before any call
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByText('Name is required')).toBeVisible();

  await page.getByLabel('Key name').fill('Nightly checks');
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByText('API key "Nightly checks" created successfully!')).toBeVisible();
  await expect(page.getByText('Store it now: it will not be shown again.')).toBeVisible();
  const shown = await page.getByRole('textbox', { name: 'New API key' }).inputValue();
  expect(shown).toMatch(/^rfk_[A-Za-z0-9_-]{43}$/);

  await page.getByRole('button', { name: 'Copy the new API key' }).click();
  await expect(page.getByRole('button', { name: 'Copied!' })).toBeVisible();
  // the e2e project compiles without the DOM library: the page's clipboard, typed here
  const key = await page.evaluate(() =>
    (navigator as unknown as { clipboard: { readText(): Promise<string> } }).clipboard.readText(),
  );
  expect(key).toBe(shown);

  const row = page.getByRole('row', { name: /Nightly checks/ });
  await expect(row).toContainText(key.slice(0, 12));
  await expect(row).toContainText('Active');
  await expect(row).toContainText('Never');
  // the list never carries the secret part
  await expect(page.getByRole('region', { name: 'API keys' })).not.toContainText(key.slice(12));

  // once dismissed, the key is gone from the page for good
  await page.getByRole('button', { name: 'I have stored the key' }).click();
  await expect(page.getByRole('textbox', { name: 'New API key' })).toHaveCount(0);
  await expect(page.getByText(key)).toHaveCount(0);

  const call = () =>
    request.post('/v1/dnskey/validate', {
      headers: { Authorization: `Bearer ${key}` },
      data: { record: RFC8080_DNSKEY },
    });
  const accepted = await call();
  expect(accepted.status(), await accepted.text()).toBe(200);
  expect(await accepted.json()).toMatchObject({ success: true, data: { valid: true } });
  // not an account credential
  const profile = await request.get('/v1/auth/profile', { headers: { Authorization: `Bearer ${key}` } });
  expect(profile.status()).toBe(401);

  // the use is recorded without holding up the call: look again until the list shows it
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole('row', { name: /Nightly checks/ })).not.toContainText('Never', {
      timeout: 1000,
    });
  }).toPass();

  await page.getByRole('button', { name: 'Revoke Nightly checks' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke API key' });
  await expect(dialog).toContainText('Nightly checks');
  // Cancel keeps the key
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  expect((await call()).status()).toBe(200);

  await page.getByRole('button', { name: 'Revoke Nightly checks' }).click();
  await page
    .getByRole('dialog', { name: 'Revoke API key' })
    .getByRole('button', { name: 'Revoke key' })
    .click();
  await expect(page.getByText('API key revoked successfully!')).toBeVisible();
  await expect(page.getByRole('row', { name: /Nightly checks/ })).toContainText('Revoked');
  await expect(page.getByRole('button', { name: 'Revoke Nightly checks' })).toHaveCount(0);

  const refused = await call();
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toMatchObject({ success: false, code: 'INVALID_API_KEY' });
});
