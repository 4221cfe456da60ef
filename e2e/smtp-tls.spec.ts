import { expect, test, type Page } from '@playwright/test';
import { expectReadableAt, withConsentGiven } from './fixtures.ts';
import { labSubmission } from './lab-sites.ts';
import { signInThroughApi } from './session.ts';

test.beforeEach(async ({ page, request }) => {
  await withConsentGiven(page);
  await signInThroughApi(page, request, 'smtp-tls');
});

/** Fetches the lab submission server's certificate after STARTTLS on 587 and validates it with SRV discovery. */
async function validateLabSubmission(page: Page) {
  await page.goto('/tools/smtp-tls?tab=validator');
  const form = page.getByRole('form', { name: 'Validate a mail server certificate' });
  await form.getByLabel(/Server hostname/).fill(labSubmission.host);
  await form.getByLabel(/Email domain/).fill(labSubmission.domain);
  await form.getByLabel('The client finds the server through SRV records (RFC 6186)').check();
  await form.getByText('Fetch live').click();
  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByRole('heading', { name: 'Validation Passed' })).toBeVisible({ timeout: 20_000 });
}

test('a new user generates the names for a submission server, then validates the lab server live and a CN-only certificate', async ({
  page,
}) => {
  // a STARTTLS handshake with the lab and several requests: room for a busy machine
  test.setTimeout(60_000);
  await page.goto('/tools/smtp-tls');
  await expect(page.getByRole('heading', { name: 'The identity check' })).toBeVisible();

  await page.getByRole('tab', { name: 'Generator' }).click();
  const generator = page.getByRole('form', { name: 'Generate the certificate names and DNS records' });
  await generator.getByLabel(/Server hostname/).fill('mail.example.com');
  await generator.getByLabel(/Email domain/).fill('example.com');
  await page.getByRole('button', { name: 'Generate' }).click();
  await expect(
    page.getByText('_submission._tcp.example.com. 3600 IN SRV 0 1 587 mail.example.com.'),
  ).toBeVisible();
  await expect(
    page.getByText(/subjectAltName = DNS:mail\.example\.com, otherName:1\.3\.6\.1\.5\.5\.7\.8\.7/),
  ).toBeVisible();

  await validateLabSubmission(page);
  const summary = page.getByRole('region', { name: 'Validation summary' });
  await expect(summary.getByLabel('dnsIdCompliant: Yes')).toBeVisible();
  await expect(summary.getByLabel('srvIdCompliant: Yes')).toBeVisible();
  await expect(page.getByText(`fetched from ${labSubmission.host}:587`)).toBeVisible();

  // a certificate that names the server only in its CN: the RFC 6125 §6.4.4 fallback, with a warning
  const validator = page.getByRole('form', { name: 'Validate a mail server certificate' });
  await validator.getByText('Certificate names').click();
  await validator.getByLabel('Common name (CN)').fill(labSubmission.host);
  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByRole('heading', { name: 'Passed with Warnings' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Warnings' })).toContainText('RFC 7817 §3, RFC 6125 §6.4.4');

  await page.getByRole('tab', { name: 'Backend Info' }).click();
  await expect(page.getByRole('row', { name: /Pasted PEM/ })).toContainText('64 KiB');
});

for (const scheme of ['light', 'dark'] as const)
  for (const width of [1440, 390])
    test(`SMTP TLS pages at ${width} px in the ${scheme} theme: screenshots and accessibility`, async ({
      page,
    }, testInfo) => {
      test.setTimeout(120_000);
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('/tools/smtp-tls');
      await expect(page.getByRole('heading', { name: 'The identity check' })).toBeVisible();
      await page.screenshot({
        path: testInfo.outputPath(`smtp-tls-information-${width}-${scheme}.png`),
        fullPage: true,
      });
      await expectReadableAt(page, width);
      await validateLabSubmission(page);
      await page.screenshot({
        path: testInfo.outputPath(`smtp-tls-validator-${width}-${scheme}.png`),
        fullPage: true,
      });
      await expectReadableAt(page, width);
      await page.getByRole('tab', { name: 'Backend Info' }).click();
      // below 600 px the tables are stacked cards, without rows
      await expect(page.getByText('64 KiB', { exact: true })).toBeVisible();
      await page.screenshot({
        path: testInfo.outputPath(`smtp-tls-backend-info-${width}-${scheme}.png`),
        fullPage: true,
      });
      await expectReadableAt(page, width);
    });
