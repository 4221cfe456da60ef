import { createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { dkimSign } from 'mailauth/lib/dkim/sign.js';
import { withConsentGiven } from './fixtures.ts';
import { publishTxt, publishedZone } from './lab-dns.ts';
import { signInThroughApi } from './session.ts';

test.beforeEach(async ({ page, request }) => {
  await withConsentGiven(page);
  await signInThroughApi(page, request, 'dkim');
});

test('an Ed25519 key pair made in the browser, published in DNS, verifies a message it signs; the private key stays local', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const bodies: string[] = [];
  page.on('request', (request) => {
    const body = request.postData();
    if (body !== null) bodies.push(body);
  });
  // a selector of its own, so a rerun or a retry publishes at a fresh name
  const selector = `e2e-${randomBytes(4).toString('hex')}`;
  const dnsName = `${selector}._domainkey.${publishedZone}`;

  await page.goto('/tools/dkim?tab=generator');
  await page.getByRole('textbox', { name: /^Domain/ }).fill(publishedZone);
  await page.getByRole('textbox', { name: /^Selector/ }).fill(selector);
  await page.getByRole('radio', { name: /ed25519-sha256/ }).check();
  await page.getByRole('button', { name: 'Generate key pair' }).click();
  const publicKeyField = page.getByRole('textbox', { name: /^Public key/ });
  await expect(publicKeyField).not.toHaveValue('');
  const publicKey = await publicKeyField.inputValue();
  expect(Buffer.from(publicKey, 'base64')).toHaveLength(32);

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download private key (PEM)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`${selector}.${publishedZone}.key.pem`);
  const pem = (await readFile(await download.path())).toString('utf8');
  expect(pem).toMatch(/^-----BEGIN PRIVATE KEY-----\n[A-Za-z0-9+/=\n]+\n-----END PRIVATE KEY-----\n$/);
  await expect(page.getByRole('button', { name: 'Download private key (PEM)' })).toHaveCount(0);
  // the downloaded private key is the one whose public half the page shows
  const derivedPublic = createPublicKey(pem).export({ type: 'spki', format: 'der' }).subarray(-32);
  expect(derivedPublic.toString('base64')).toBe(publicKey);

  await page.getByRole('button', { name: 'Generate record' }).click();
  const result = page.getByRole('region', { name: 'Generated record' });
  await expect(result.getByText('DKIM record generated')).toBeVisible();
  await expect(result.getByText(dnsName, { exact: true })).toBeVisible();
  await result.getByRole('button', { name: 'Copy record' }).click();
  await expect(result.getByRole('button', { name: 'Copied!' })).toBeVisible();
  // the e2e project compiles without the DOM library: the page's clipboard, typed here
  const copied = await page.evaluate(() =>
    (navigator as unknown as { clipboard: { readText(): Promise<string> } }).clipboard.readText(),
  );
  expect(copied).toBe(`v=DKIM1; k=ed25519; h=sha256; s=email; p=${publicKey}`);

  await page.getByRole('tab', { name: 'Validator' }).click();
  await page.getByRole('textbox', { name: /^DKIM record/ }).fill(copied);
  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByRole('heading', { name: 'Valid DKIM key record' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Key record summary' })).toContainText('256 bits');

  await test.step('publish the record and find it in DNS', async () => {
    await publishTxt(dnsName, copied);
    await page.getByText('Look up in DNS', { exact: true }).click();
    await page.getByRole('textbox', { name: 'Domain' }).fill(publishedZone);
    await page.getByRole('textbox', { name: /^Selector/ }).fill(selector);
    await page.getByRole('button', { name: 'Validate' }).click();
    await expect(page.getByRole('heading', { name: 'Valid DKIM key published' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'DNS lookup' })).toContainText(dnsName);
    const summary = page.getByRole('table', { name: 'Key record summary' });
    await expect(summary).toContainText('ed25519');
    await expect(summary).toContainText('256 bits');
    await expect(page.getByLabel('Published record')).toContainText(publicKey);
  });

  await test.step('a message signed with the downloaded key verifies; a changed body fails', async () => {
    const message = [
      `From: Postmaster <postmaster@${publishedZone}>`,
      'To: Someone <someone@example.net>',
      'Subject: Signed with a key made in the browser',
      `Date: ${new Date().toUTCString()}`,
      `Message-ID: <${selector}@${publishedZone}>`,
      '',
      'Hello,',
      '',
      'this message is signed with an Ed25519 key (RFC 8463).',
      '',
    ].join('\r\n');
    // mailauth signs once per signatureData entry; the top-level fields only satisfy its types
    const signer = { signingDomain: publishedZone, selector, privateKey: pem };
    const signed = await dkimSign(message, {
      ...signer,
      canonicalization: 'relaxed/relaxed',
      strict: true,
      signatureData: [signer],
    });
    expect(signed.errors).toEqual([]);
    expect(signed.signatures).toContain('a=ed25519-sha256');

    await page.getByText('Verify a message', { exact: true }).click();
    const messageField = page.getByRole('textbox', { name: /^Message/ });
    const card = page.getByRole('region', { name: `Signature 1: ${dnsName}` });
    const details = card.getByRole('table', { name: `Signature 1: ${dnsName} details` });

    await messageField.fill(signed.signatures + message);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('heading', { name: 'DKIM signature verified' })).toBeVisible();
    await expect(card.getByText('pass', { exact: true })).toBeVisible();
    await expect(details.getByRole('row', { name: /^Domain \(d=\)/ })).toContainText(publishedZone);
    await expect(details.getByRole('row', { name: /^Selector \(s=\)/ })).toContainText(selector);
    await expect(details.getByRole('row', { name: /^Algorithm \(a=\)/ })).toContainText('ed25519-sha256');
    await expect(details.getByRole('row', { name: /^Body hash/ })).toContainText('matches bh=');

    // one character of the body changed after signing
    const tampered = signed.signatures + message.replace('Hello,', 'Hallo,');
    expect(tampered).not.toBe(signed.signatures + message);
    await messageField.fill(tampered);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('heading', { name: 'DKIM verification failed' })).toBeVisible();
    await expect(card.getByText('fail', { exact: true })).toBeVisible();
    await expect(card.getByText('body hash did not verify (RFC 6376 §6.1.3)')).toBeVisible();
    await expect(details.getByRole('row', { name: /^Body hash/ })).toContainText('does not match bh=');
  });

  // no request ever carried the private key, not the record's nor the message's
  const privateBase64 = pem.split('\n').slice(1, -2).join('');
  expect(bodies.length).toBeGreaterThan(0);
  for (const body of bodies) {
    expect(body).not.toContain(privateBase64);
    expect(body).not.toContain('PRIVATE KEY');
  }
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

test('a message with two signatures shows each verdict: a testing key passes, a missing key is a permerror', async ({
  page,
}) => {
  const selector = `e2e-${randomBytes(4).toString('hex')}`;
  const missing = `${selector}-gone`;
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const p = pair.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  // t=y: the domain says it is testing DKIM
  await publishTxt(`${selector}._domainkey.${publishedZone}`, `v=DKIM1; k=rsa; t=y; p=${p}`);
  const message = [
    `From: Lists <lists@${publishedZone}>`,
    'To: Someone <someone@example.net>',
    'Subject: Two signatures',
    `Date: ${new Date().toUTCString()}`,
    '',
    'One key is published, the other is not.',
    '',
  ].join('\r\n');
  const privateKey = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const signers = [selector, missing].map((s) => ({ signingDomain: publishedZone, selector: s, privateKey }));
  const signed = await dkimSign(message, {
    ...signers[0]!,
    canonicalization: 'relaxed/relaxed',
    signatureData: signers,
  });
  expect(signed.errors).toEqual([]);

  await page.goto('/tools/dkim?tab=validator');
  await page.getByText('Verify a message', { exact: true }).click();
  await page.getByRole('textbox', { name: /^Message/ }).fill(signed.signatures + message);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('heading', { name: 'DKIM signature verified' })).toBeVisible();
  await expect(page.getByText('1 of 2 signatures verified')).toBeVisible();

  const passing = page.getByRole('region', { name: `Signature 1: ${selector}._domainkey.${publishedZone}` });
  await expect(passing.getByText('pass', { exact: true })).toBeVisible();
  await expect(passing.getByText(/The key has t=y: .* is testing DKIM/)).toBeVisible();
  const gone = page.getByRole('region', { name: `Signature 2: ${missing}._domainkey.${publishedZone}` });
  await expect(gone.getByText('permerror', { exact: true })).toBeVisible();
  await expect(gone.getByText('no key for signature (NXDOMAIN) (RFC 6376 §6.1.2)')).toBeVisible();
  await expect(gone.getByRole('row', { name: /^Key/ })).toContainText(`none found at ${missing}._domainkey`);
  await expect(gone.getByRole('row', { name: /^Identity \(i=\)/ })).toContainText(`@${publishedZone}`);
});
