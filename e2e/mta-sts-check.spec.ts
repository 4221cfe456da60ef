import { expect, test } from '@playwright/test';
import { mtaStsLabDomains } from '@rfckit/testlab';
import { expectReadableAt, withConsentGiven } from './fixtures.ts';
import { signInThroughApi } from './session.ts';

// e2e/serve.ts serves the lab's MTA-STS domains: policy hosts on the lab web server, lab SMTP
// servers for their MX hosts (mx2 of the enforce domain with a certificate for another name)

test.beforeEach(async ({ page, request }) => {
  await withConsentGiven(page);
  await signInThroughApi(page, request, 'mta-sts-check');
});

test('a new user checks a mail domain live and learns that mail to mx2 would fail, and why', async ({
  page,
}) => {
  // three SMTP sessions with TLS handshakes and a policy fetch: room for a busy machine
  test.setTimeout(60_000);
  const domain = mtaStsLabDomains.enforce;
  const mx2 = `mx2.${domain}`;
  await page.goto('/tools/mta-sts');
  await page.getByRole('tab', { name: 'Live check' }).click();
  await expect(page).toHaveURL(/tab=check/);
  await page.getByLabel(/^Mail domain/).fill(domain);
  await page.getByRole('button', { name: 'Check', exact: true }).click();

  await expect(page.getByRole('heading', { name: `MTA-STS fails for ${domain}` })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByLabel('Verdict: fail')).toBeVisible();
  await expect(page.getByText(`Enforce mode: mail to ${mx2} would fail`)).toBeVisible();
  await expect(page.getByLabel('Policy as fetched')).toContainText('mode: enforce');
  await expect(page.getByLabel(`${mx2} result: mail would fail`)).toBeVisible();
  await expect(page.getByLabel(`mx1.${domain} result: delivers`)).toBeVisible();
  const why = page.getByRole('list', { name: `Why, for ${mx2}` });
  await expect(why).toContainText('RFC 8461 §4.2');
  await expect(why).toContainText(`Install on ${mx2} a certificate`);
  await expect(
    page.getByTestId(`mx-${mx2}`).getByRole('link', { name: 'Inspect the SMTP session' }),
  ).toHaveAttribute('href', `/tools/smtp-session-inspector?tab=inspector&domain=${domain}&host=${mx2}`);
  // the check is in the address, to share and to come back to
  await expect(page).toHaveURL(`/tools/mta-sts?tab=check&domain=${domain}`);

  // the link opens the Inspector tab and runs the session with that host
  await page.getByTestId(`mx-${mx2}`).getByRole('link', { name: 'Inspect the SMTP session' }).click();
  await expect(page.getByRole('tab', { name: 'Inspector' })).toHaveAttribute('aria-selected', 'true');
  await expect(
    page
      .getByRole('region', { name: 'SMTP session result' })
      .getByRole('heading', { name: new RegExp(`^${mx2} port 25`) }),
  ).toBeVisible({ timeout: 30_000 });
  await page.goBack();
  await expect(page.getByRole('heading', { name: `MTA-STS fails for ${domain}` })).toBeVisible({
    timeout: 30_000,
  });
});

test('a redirected policy is refused with RFC 8461 §3.3, from a link that runs the check', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const domain = mtaStsLabDomains.redirect;
  await page.goto(`/tools/mta-sts?tab=check&domain=${domain}`);
  await expect(page.getByRole('heading', { name: `MTA-STS fails for ${domain}` })).toBeVisible({
    timeout: 30_000,
  });
  const policy = page.getByRole('list', { name: 'About the policy' });
  await expect(policy).toContainText('redirect');
  await expect(policy).toContainText('RFC 8461 §3.3');
});

for (const scheme of ['light', 'dark'] as const)
  for (const width of [1440, 390])
    test(`MTA-STS live check at ${width} px in the ${scheme} theme: screenshots and accessibility`, async ({
      page,
    }, testInfo) => {
      // three checks, each with a full-page shot and an axe run
      test.setTimeout(120_000);
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      for (const [name, domain, title] of [
        ['enforce', mtaStsLabDomains.enforce, 'MTA-STS fails'],
        ['testing', mtaStsLabDomains.testing, 'MTA-STS works with warnings'],
        ['none', mtaStsLabDomains.none, 'No MTA-STS'],
      ] as const) {
        await page.goto(`/tools/mta-sts?tab=check&domain=${domain}`);
        await expect(page.getByRole('heading', { name: `${title} for ${domain}` })).toBeVisible({
          timeout: 30_000,
        });
        await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
        await page.screenshot({
          path: testInfo.outputPath(`mta-sts-live-${name}-${width}-${scheme}.png`),
          fullPage: true,
        });
        await expectReadableAt(page, width);
      }
    });
