import { expect, test, type Page } from '@playwright/test';
import { expectReadableAt, withConsentGiven } from './fixtures.ts';
import { labInspectorDomain, labInspectorMx } from './lab-sites.ts';
import { signInThroughApi } from './session.ts';

test.beforeEach(async ({ page, request }) => {
  await withConsentGiven(page);
  await signInThroughApi(page, request, 'smtp-inspector');
});

/** Looks up the lab domain's MX hosts and inspects the one named `host`. */
async function inspectFromMx(page: Page, host: string) {
  await page.goto('/tools/smtp-session-inspector?tab=inspector');
  await page.getByRole('textbox', { name: 'Domain' }).fill(labInspectorDomain);
  await page.getByRole('button', { name: 'Look up MX' }).click();
  const hosts = page.getByRole('list', { name: 'MX hosts by preference' });
  await expect(hosts.getByRole('listitem')).toHaveCount(2, { timeout: 20_000 });
  await expect(hosts.getByRole('listitem').first()).toContainText(labInspectorMx.good);
  // the host's button fills the field and starts the session
  await page.getByRole('button', { name: `Inspect ${host}` }).click();
  await expect(page.getByRole('textbox', { name: 'Hostname' })).toHaveValue(host);
}

test('an admin lists a domain’s MX hosts and watches a session with each', async ({ page }) => {
  // two sessions with a TLS handshake: room for a busy machine
  test.setTimeout(60_000);
  await inspectFromMx(page, labInspectorMx.good);
  await expect(
    page.getByRole('heading', { name: `${labInspectorMx.good} port 25: session completed` }),
  ).toBeVisible({
    timeout: 30_000,
  });
  const transcript = page.getByRole('list', { name: `SMTP transcript of ${labInspectorMx.good} port 25` });
  await expect(transcript).toContainText('C: STARTTLS');
  await expect(transcript).toContainText('S: 220 Ready to start TLS');
  await expect(page.getByRole('region', { name: 'TLS' })).toContainText('TLSv1.3');

  await inspectFromMx(page, labInspectorMx.refusing);
  await expect(
    page.getByRole('heading', { name: `${labInspectorMx.refusing} port 25: the session did not complete` }),
  ).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByRole('region', { name: 'Deviations' })).toContainText('answered it with 454');
});

test('?host= and ?port= in the address run the session at once', async ({ page }) => {
  await page.goto(`/tools/smtp-session-inspector?tab=inspector&host=${labInspectorMx.good}&port=25`);
  await expect(
    page.getByRole('heading', { name: `${labInspectorMx.good} port 25: session completed` }),
  ).toBeVisible({
    timeout: 30_000,
  });
});

for (const scheme of ['light', 'dark'] as const)
  for (const width of [1440, 390])
    test(`SMTP session inspector at ${width} px in the ${scheme} theme: screenshots and accessibility`, async ({
      page,
    }, testInfo) => {
      test.setTimeout(90_000);
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('/tools/smtp-session-inspector');
      await page.screenshot({
        path: testInfo.outputPath(`smtp-inspector-info-${width}-${scheme}.png`),
        fullPage: true,
      });
      await expectReadableAt(page, width);
      for (const [name, host, title] of [
        ['good', labInspectorMx.good, 'session completed'],
        ['refusing', labInspectorMx.refusing, 'the session did not complete'],
      ] as const) {
        await inspectFromMx(page, host);
        await expect(page.getByRole('heading', { name: `${host} port 25: ${title}` })).toBeVisible({
          timeout: 30_000,
        });
        await page.screenshot({
          path: testInfo.outputPath(`smtp-inspector-${name}-${width}-${scheme}.png`),
          fullPage: true,
        });
        await expectReadableAt(page, width);
      }
    });
