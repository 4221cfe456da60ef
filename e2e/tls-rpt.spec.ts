import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { withConsentGiven } from './fixtures.ts';
import { publishTxt, publishedZone } from './lab-dns.ts';
import { signInThroughApi } from './session.ts';

// RFC 8460 Appendix B, the example report (a code component of the RFC, under its Simplified BSD
// licence), as the sender's mail attaches it: gzipped, as a .json.gz file
const appendixB = {
  'organization-name': 'Company-X',
  'date-range': { 'start-datetime': '2016-04-01T00:00:00Z', 'end-datetime': '2016-04-01T23:59:59Z' },
  'contact-info': 'sts-reporting@company-x.example',
  'report-id': '5065427c-23d3-47ca-b6e0-946ea0e8c4be',
  policies: [
    {
      policy: {
        'policy-type': 'sts',
        'policy-string': [
          'version: STSv1',
          'mode: testing',
          'mx: *.mail.company-y.example',
          'max_age: 86400',
        ],
        'policy-domain': 'company-y.example',
        'mx-host': ['*.mail.company-y.example'],
      },
      summary: { 'total-successful-session-count': 5326, 'total-failure-session-count': 303 },
      'failure-details': [
        {
          'result-type': 'certificate-expired',
          'sending-mta-ip': '2001:db8:abcd:0012::1',
          'receiving-mx-hostname': 'mx1.mail.company-y.example',
          'failed-session-count': 100,
        },
        {
          'result-type': 'starttls-not-supported',
          'sending-mta-ip': '2001:db8:abcd:0013::1',
          'receiving-mx-hostname': 'mx2.mail.company-y.example',
          'receiving-ip': '203.0.113.56',
          'failed-session-count': 200,
          'additional-information':
            'https://reports.company-x.example/report_info?id=5065427c-23d3#StarttlsNotSupported',
        },
        {
          'result-type': 'validation-failure',
          'sending-mta-ip': '198.51.100.62',
          'receiving-ip': '203.0.113.58',
          'receiving-mx-hostname': 'mx-backup.mail.company-y.example',
          'failed-session-count': 3,
          'failure-reason-code': 'X509_V_ERR_PROXY_PATH_LENGTH_EXCEEDED',
        },
      ],
    },
  ],
};

const reportFile = {
  name: 'company-x.example!company-y.example!1459468800!1459555199!001.json.gz',
  mimeType: 'application/tlsrpt+gzip',
  buffer: gzipSync(JSON.stringify(appendixB)),
};

async function uploadReport(page: Page) {
  // Mantine's FileInput opens this hidden input
  await page.locator('form[aria-label="TLS-RPT report viewer"] input[type="file"]').setInputFiles(reportFile);
  const summary = page.getByRole('region', { name: 'Report summary' });
  await expect(summary.getByRole('heading', { name: 'Valid report: 303 failed sessions' })).toBeVisible();
  return summary;
}

test.beforeEach(async ({ page, request }) => {
  await withConsentGiven(page);
  await signInThroughApi(page, request, 'tls-rpt');
});

test('generates a record, publishes it, validates the domain, and reads a gzipped report', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const domain = `tlsrpt-${randomBytes(4).toString('hex')}.${publishedZone}`;
  await page.goto('/tools/tls-rpt');
  await expect(page.getByRole('heading', { level: 1, name: 'TLS-RPT' })).toBeVisible();
  await expect(page.getByRole('tablist')).toHaveCount(0);

  const generator = page.getByRole('form', { name: 'TLS-RPT record generator' });
  await generator.getByRole('button', { name: 'Generate record' }).click();
  await expect(generator.getByRole('textbox', { name: /^Domain/ })).toHaveAccessibleDescription(
    /Domain is required/,
  );
  await generator.getByRole('textbox', { name: /^Domain/ }).fill(domain);
  await generator.getByRole('textbox', { name: 'Reporting URI 1' }).fill('mailto:tlsrpt@example.com');
  await generator.getByRole('button', { name: 'Add reporting URI' }).click();
  await generator.getByRole('textbox', { name: 'Reporting URI 2' }).fill('https://tlsrpt.example.com/v1');
  await generator.getByRole('button', { name: 'Generate record' }).click();
  const record = page.getByTestId('tlsrpt-record');
  await expect(record).toHaveText('v=TLSRPTv1; rua=mailto:tlsrpt@example.com,https://tlsrpt.example.com/v1');
  await publishTxt(`_smtp._tls.${domain}`, (await record.textContent()) ?? '');

  const validator = page.getByRole('form', { name: 'TLS-RPT record validator' });
  await validator.getByRole('textbox', { name: /^Domain/ }).fill(domain);
  await validator.getByRole('button', { name: 'Validate' }).click();
  const validation = page.getByRole('region', { name: 'Validation result' });
  await expect(validation.getByRole('heading', { name: 'Valid TLS-RPT record' })).toBeVisible();
  await expect(validation.getByRole('table', { name: /Reporting URIs/ })).toContainText('HTTPS POST');

  const sampleForm = page.getByRole('form', { name: 'Sample report builder' });
  await sampleForm.getByRole('textbox', { name: /^Domain/ }).fill(domain);
  await sampleForm.getByRole('button', { name: 'Build sample report' }).click();
  const sample = page.getByRole('region', { name: 'Sample report' });
  await expect(sample.getByTestId('tlsrpt-sample')).toContainText(`"policy-domain": "${domain}"`);
  await expect(sample.getByText(/no-policy-found/).first()).toBeVisible();

  const summary = await uploadReport(page);
  const byType = summary.getByRole('table', { name: 'Failures by result type' });
  await expect(byType.getByRole('row').nth(1)).toContainText('starttls-not-supported200');
  await expect(byType.getByRole('row').nth(2)).toContainText('certificate-expired100');
  await expect(byType.getByRole('row').nth(3)).toContainText('validation-failure3');
  const details = summary.getByRole('table', { name: 'Failure details' });
  await expect(details).toContainText('mx2.mail.company-y.example (203.0.113.56)');
  await expect(details).toContainText('198.51.100.62');
  await expect(summary).toContainText('5326 successful, 303 failed');

  // every section now shows a result: the generated record, the validation, the sample and the summary
  const axe = await new AxeBuilder({ page }).include('main').withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
    [],
  );
});

for (const scheme of ['light', 'dark'] as const) {
  test(`the page with a report read passes axe in the ${scheme} theme, at 1440 and 390 px`, async ({
    page,
  }, testInfo) => {
    test.setTimeout(60_000);
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/tools/tls-rpt');
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      // before a file is chosen the file field shows its placeholder, which must be readable too
      const empty = await new AxeBuilder({ page }).include('main').withTags(['wcag2a', 'wcag2aa']).analyze();
      expect(
        empty.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      ).toEqual([]);
      await uploadReport(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.screenshot({ path: testInfo.outputPath(`tls-rpt-${width}-${scheme}.png`), fullPage: true });
      const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
      expect(
        axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      ).toEqual([]);
    }
  });
}
