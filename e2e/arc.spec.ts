import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { withConsentGiven } from './fixtures.ts';
import { arcLabDomain, arcLabKeyFile, arcLabSelector } from './lab-sites.ts';
import { e2eDataDir } from './paths.ts';
import { signInThroughApi } from './session.ts';

const message = [
  'From: Alice <alice@example.com>',
  'To: list@arc.example.test',
  'Subject: ARC journey',
  'Date: Mon, 23 Nov 2026 08:00:00 +0000',
  'Message-ID: <arc-journey@example.com>',
  '',
  'Hello list.',
  '',
].join('\n');

test.beforeEach(async ({ page, request }) => {
  await withConsentGiven(page);
  await signInThroughApi(page, request, 'arc');
});

/** WCAG 2 A and AA violations on the page as it is now. */
async function axeViolations(page: Page): Promise<string[]> {
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  return axe.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
}

/** The text of a field of the seal result, as the page shows it. */
async function shown(page: Page, label: string): Promise<string> {
  const text = await page
    .getByRole('region', { name: 'Seal result' })
    .getByLabel(label, { exact: true })
    .textContent();
  return text ?? '';
}

test('the page is listed as draft, and its preview follows the settings as they are typed', async ({
  page,
}) => {
  await page.goto('/tools/arc');
  await expect(
    page.getByRole('navigation', { name: 'Tools' }).getByRole('link', { name: /^ARC/ }),
  ).toContainText('draft');
  await expect(page.getByRole('heading', { level: 1, name: 'ARC' })).toBeVisible();
  // mermaid draws the flow: the drawing, not its fallback
  await expect(
    page.getByRole('img', { name: /How ARC carries authentication results/ }).locator('svg'),
  ).toBeVisible();
  await expect(page.getByRole('region', { name: 'ARC-Seal tags' })).toContainText('cv=');

  await page.getByRole('tab', { name: 'Generator' }).click();
  const preview = page.getByRole('region', { name: 'Live preview' });
  const seal = preview.getByLabel('ARC-Seal preview');
  const signature = preview.getByLabel('ARC-Message-Signature preview');
  await expect(preview).toContainText('Domain and selector are required');
  await page.getByRole('button', { name: 'Seal message' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Domain and selector are required' })).toBeVisible();

  await page.getByRole('textbox', { name: /^Domain/ }).fill('lists.example.org');
  await expect(seal).toContainText('d=lists.example.org');
  await page.getByRole('textbox', { name: /^Selector/ }).fill('arc2026');
  await expect(seal).toContainText('s=arc2026');
  await expect(signature).toContainText('c=relaxed/relaxed');
  await expect(signature).toContainText('h=from:to:subject:date');
  await expect(page.getByRole('button', { name: 'Seal message' })).toBeEnabled();

  await page.getByRole('textbox', { name: /^Instance/ }).fill('3');
  await page.getByRole('textbox', { name: /^Body length/ }).fill('500');
  await page.getByRole('radio', { name: /ed25519-sha256/ }).check();
  await expect(seal).toContainText('i=3');
  await expect(signature).toContainText('l=500');
  await expect(signature).toContainText('a=ed25519-sha256');
  await expect(preview.getByLabel('ARC-Authentication-Results preview')).toContainText(
    'i=3; lists.example.org',
  );

  await page.getByRole('radio', { name: /rsa-sha1/ }).check();
  await expect(page.getByRole('alert', { name: 'rsa-sha1 MUST NOT be used' })).toBeVisible();
});

test('one input rule: a signed header field is checked on blur, a blank domain on submit, nothing sent', async ({
  page,
}) => {
  const bodies: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/v1/arc/generate')) bodies.push(request.postData() ?? '');
  });
  await page.goto('/tools/arc?tab=generator');
  const form = page.getByRole('form', { name: 'ARC generator' });
  const headers = form.getByRole('combobox', { name: /^Signed header fields/ });
  await headers.fill('x-ünïcode');
  await headers.press('Enter');
  await headers.blur();
  await expect(headers).toHaveAccessibleDescription(
    /A header name may only hold printable ASCII other than the colon/,
  );
  await expect(headers).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByRole('alert')).toHaveCount(0);

  const seal = form.getByRole('button', { name: 'Seal message' });
  await expect(seal).toBeEnabled();
  await seal.click();
  await expect(headers).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('heading', { name: /^Message sealed/ })).toHaveCount(0);
  expect(bodies).toEqual([]);
});

test('sealing with a fresh key shows the three fields and offers the key once', async ({ page }) => {
  const bodies: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/v1/arc/generate')) bodies.push(request.postData() ?? '');
  });
  await page.goto('/tools/arc?tab=generator');
  await page.getByRole('textbox', { name: /^Domain/ }).fill('lists.example.org');
  await page.getByRole('textbox', { name: /^Selector/ }).fill('fresh');
  await page.getByRole('textbox', { name: /^Message/ }).fill(message);
  await page.getByRole('button', { name: 'Seal message' }).click();

  const result = page.getByRole('region', { name: 'Seal result' });
  await expect(result.getByRole('heading', { name: 'Message sealed: ARC set i=1, cv=none' })).toBeVisible();
  expect(JSON.parse(bodies[0] ?? '{}')).not.toHaveProperty('privateKey');
  expect(await shown(page, 'ARC-Seal')).toMatch(/cv=none; d=lists\.example\.org; i=1; s=fresh/);
  expect(await shown(page, 'ARC-Message-Signature')).toMatch(/bh=[A-Za-z0-9+/]{43}=/);
  expect(await shown(page, 'ARC-Authentication-Results')).toMatch(/^i=1; lists\.example\.org/);
  const sealedMessage = await shown(page, 'Sealed message');
  expect(sealedMessage).toContain('ARC-Seal: ');
  expect(sealedMessage).toContain('Hello list.');
  expect(await shown(page, 'DNS name (TXT)')).toBe('fresh._domainkey.lists.example.org');
  const record = await shown(page, 'DKIM key record');
  expect(record).toMatch(/^v=DKIM1; k=rsa;.* p=MII[A-Za-z0-9+/=]+$/);

  expect(await axeViolations(page)).toEqual([]);

  const downloading = page.waitForEvent('download');
  await result.getByRole('button', { name: 'Download private key (PEM)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('fresh.lists.example.org.key.pem');
  const pem = (await readFile(await download.path())).toString('utf8');
  expect(pem).toMatch(/^-----BEGIN PRIVATE KEY-----\n[A-Za-z0-9+/=\n]+\n-----END PRIVATE KEY-----\n?$/);
  await expect(result.getByRole('button', { name: 'Download private key (PEM)' })).toHaveCount(0);
  await expect(result.getByRole('status')).toContainText('Private key downloaded');
});

test('a message sealed with the lab key validates; with its body changed it fails with the reason', async ({
  page,
}) => {
  // e2e/serve.ts made this key at start and serves its public half at arc._domainkey.arc.example.test
  const privateKey = await readFile(arcLabKeyFile(e2eDataDir), 'utf8');
  await page.goto('/tools/arc?tab=generator');
  await page.getByRole('textbox', { name: /^Domain/ }).fill(arcLabDomain);
  await page.getByRole('textbox', { name: /^Selector/ }).fill(arcLabSelector);
  await page.getByRole('textbox', { name: /^Message/ }).fill(message);
  await page.getByRole('textbox', { name: /^Private key/ }).fill(privateKey);
  await page.getByRole('button', { name: 'Seal message' }).click();
  const result = page.getByRole('region', { name: 'Seal result' });
  await expect(result.getByRole('heading', { name: 'Message sealed: ARC set i=1, cv=none' })).toBeVisible();
  // a key that was given is not offered back
  await expect(result.getByRole('button', { name: 'Download private key (PEM)' })).toHaveCount(0);
  const sealedMessage = await shown(page, 'Sealed message');

  await page.getByRole('tab', { name: 'Validator' }).click();
  const validator = page.getByRole('tabpanel', { name: 'Validator' });
  await validator.getByRole('button', { name: 'Validate' }).click();
  await expect(validator.getByRole('alert')).toHaveText('Domain and ARC headers are required');

  await validator.getByRole('textbox', { name: /^Domain/ }).fill(arcLabDomain);
  await validator.getByRole('textbox', { name: /^ARC headers or message/ }).fill(sealedMessage);
  await validator.getByRole('button', { name: 'Validate' }).click();
  await expect(validator.getByRole('heading', { name: 'ARC chain passes' })).toBeVisible();
  const sets = validator.getByRole('region', { name: 'ARC sets' });
  const first = sets.getByRole('row').nth(1);
  await expect(first).toContainText(arcLabDomain);
  await expect(first).toContainText('matches');
  await expect(first).toContainText('2048');
  await expect(first.locator('[data-result="pass"]')).toHaveCount(2);

  // the body a list footer would change: the AMS body hash no longer matches
  await validator
    .getByRole('textbox', { name: /^ARC headers or message/ })
    .fill(sealedMessage.replace('Hello list.', 'Hello list, with a footer.'));
  await validator.getByRole('button', { name: 'Validate' }).click();
  await expect(validator.getByRole('heading', { name: 'ARC chain fails' })).toBeVisible();
  const verdict = validator.getByRole('table', { name: 'Chain verdict' });
  await expect(verdict.getByRole('row', { name: /^Reason/ })).toContainText(/body/i);
  await expect(sets.getByRole('row').nth(1)).toContainText('does not match');
  expect(await axeViolations(page)).toEqual([]);
});

for (const scheme of ['light', 'dark'] as const) {
  for (const tab of ['information', 'generator', 'validator'] as const) {
    test(`the ${tab} tab in the ${scheme} theme: screenshot and accessibility`, async ({
      page,
    }, testInfo) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(tab === 'information' ? '/tools/arc' : `/tools/arc?tab=${tab}`);
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      const panel = page.getByRole('tabpanel');
      await expect(panel).toBeVisible();
      if (tab === 'information') await expect(panel.getByRole('img').locator('svg')).toBeVisible();
      if (tab === 'generator') await panel.getByRole('radio', { name: /rsa-sha1/ }).check();
      await page.screenshot({ path: testInfo.outputPath(`arc-${tab}-${scheme}.png`), fullPage: true });
      expect(await axeViolations(page)).toEqual([]);
    });
  }
}
