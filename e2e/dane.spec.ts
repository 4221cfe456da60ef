import { expect, test, type Page } from '@playwright/test';
import { expectReadableAt, withConsentGiven } from './fixtures.ts';
import { hasProgram } from '@rfckit/testlab';
import { labDaneDomains, labDaneMx, labTlsHosts } from './lab-sites.ts';
import { signInThroughApi } from './session.ts';

test.beforeEach(async ({ page, request }) => {
  await withConsentGiven(page);
  await signInThroughApi(page, request, 'dane');
});

/** Fetches the lab server's chain into the generator and generates its records. */
async function generateFromLab(page: Page) {
  await page.goto('/tools/dane?tab=generator');
  const fetchForm = page.getByRole('form', { name: 'Fetch a certificate chain from a server' });
  await fetchForm.getByLabel('Server').fill(labTlsHosts.current);
  await fetchForm.getByLabel('Port').fill('443');
  await page.getByRole('button', { name: 'Fetch certificate' }).click();
  await expect(
    page.getByRole('heading', { name: `${labTlsHosts.current}:443 presented 2 certificates` }),
  ).toBeVisible({
    timeout: 20_000,
  });
  const generator = page.getByRole('form', { name: 'Generate TLSA records' });
  await expect(generator.getByLabel('Certificate chain')).toHaveValue(/^-----BEGIN CERTIFICATE-----/);
  await expect(generator.getByLabel('Host', { exact: true })).toHaveValue(labTlsHosts.current);
  await page.getByRole('button', { name: 'Generate' }).click();
  // the answer takes the focus the disabled button dropped
  await expect(
    page.getByRole('heading', { name: `TLSA records for _443._tcp.${labTlsHosts.current}.` }),
  ).toBeFocused();
}

/** Regenerates the fetched chain's records for SMTP on port 25 with usage 1, which RFC 7672 §3.1.3 makes unusable. */
async function generatePkixForSmtp(page: Page) {
  const generator = page.getByRole('form', { name: 'Generate TLSA records' });
  await generator.getByLabel('Port', { exact: true }).fill('25');
  await generator.getByLabel('Usage', { exact: true }).selectOption('1');
  await page.getByRole('button', { name: 'Generate' }).click();
  await expect(
    page.getByRole('heading', { name: `TLSA records for _25._tcp.${labTlsHosts.current}.` }),
  ).toBeFocused();
}

test('a new user builds TLSA records from a fetched lab certificate and checks one against the chain', async ({
  page,
}) => {
  // a TLS handshake with the lab, then two requests: room for a busy machine
  test.setTimeout(60_000);
  await generateFromLab(page);
  const zone = page.getByTestId('tlsa-zone-file');
  await expect(zone).toContainText(`_443._tcp.${labTlsHosts.current}. IN TLSA 3 1 1 `);
  await expect(zone).toContainText('IN TLSA 2 1 1 ');
  await expect(page.getByTestId(/^tlsa-\d-\d-\d$/)).toHaveCount(24);
  const record = /IN TLSA 3 1 1 [0-9a-f]{64}/.exec((await zone.textContent()) ?? '')?.[0] ?? '';
  const chain = await page
    .getByRole('form', { name: 'Generate TLSA records' })
    .getByLabel('Certificate chain')
    .inputValue();

  await page.getByRole('tab', { name: 'Validator' }).click();
  await page
    .getByRole('textbox', { name: 'TLSA record' })
    .fill(`_443._tcp.${labTlsHosts.current}. ${record}`);
  await page.getByRole('textbox', { name: 'Certificate chain (optional)' }).fill(chain);
  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByRole('heading', { name: 'Valid TLSA record that matches the chain' })).toBeVisible();
  await expect(
    page.getByRole('list', { name: 'Certificate chain' }).getByText('Matches the record'),
  ).toBeVisible();

  // a digest that matches nothing is an error with its fix
  await page.getByRole('textbox', { name: 'TLSA record' }).fill(`3 1 1 ${'ab'.repeat(32)}`);
  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(
    page.getByRole('heading', { name: 'Valid TLSA record that matches no certificate of the pasted chain' }),
  ).toBeFocused();
  await expect(page.getByText(/No certificate of the pasted chain \(2\) matches/)).toBeVisible();

  // on port 25 the PKIX usages are marked and, when chosen, warned of
  await page.getByRole('tab', { name: 'Generator' }).click();
  await generatePkixForSmtp(page);
  await expect(page.getByRole('alert')).toContainText('Publish 3 1 1 for the server key instead');
  await expect(page.getByTestId('tlsa-1-1-1')).toContainText('Unusable for SMTP (RFC 7672 §3.1.3)');
  await expect(page.getByTestId('tlsa-0-1-1')).toContainText('Unusable for SMTP (RFC 7672 §3.1.3)');
  await expect(page.getByTestId('tlsa-3-1-1')).not.toContainText('Unusable');
});

for (const scheme of ['light', 'dark'] as const)
  for (const width of [1440, 390])
    test(`DANE pages at ${width} px in the ${scheme} theme: screenshots and accessibility`, async ({
      page,
    }, testInfo) => {
      // three full-page shots and two axe runs: more than the default 30 s on a busy machine
      test.setTimeout(120_000);
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('/tools/dane');
      await expect(page.getByRole('figure').first().locator('svg')).toBeVisible({ timeout: 15_000 });
      await page.screenshot({
        path: testInfo.outputPath(`dane-information-${width}-${scheme}.png`),
        fullPage: true,
      });
      await generateFromLab(page);
      await page.screenshot({
        path: testInfo.outputPath(`dane-generator-${width}-${scheme}.png`),
        fullPage: true,
      });
      await expectReadableAt(page, width);
      await generatePkixForSmtp(page);
      await page.screenshot({
        path: testInfo.outputPath(`dane-generator-smtp-pkix-${width}-${scheme}.png`),
        fullPage: true,
      });
      await expectReadableAt(page, width);
    });

// e2e/serve.ts signs the DANE domains into the lab only where dnssec-signzone runs (CI installs it)
const daneLab = hasProgram('dnssec-signzone') || process.env.CI === 'true';
/** A name the signed lab zone proves absent with its NSEC records. */
const nonexistentDomain = 'nope.secure.test';

/** Runs the live check of a lab mail domain and waits for its verdict. */
async function liveCheck(page: Page, domain: string, verdict: string) {
  await page.goto('/tools/dane?tab=live');
  await page.getByLabel('Mail domain').fill(domain);
  await page.getByRole('button', { name: 'Check' }).click();
  await expect(page.getByRole('heading', { name: `${verdict} for ${domain}` })).toBeVisible({
    timeout: 30_000,
  });
}

test('a new user checks a mail domain live: its MX host passes with 3 1 1, another fails with the fix', async ({
  page,
}) => {
  test.skip(!daneLab, 'the DANE records need dnssec-signzone (bind9-utils)');
  // each check validates several chains from the root and opens STARTTLS sessions
  test.setTimeout(60_000);
  await liveCheck(page, labDaneDomains.pass, 'DANE passes');
  const mx = labDaneMx(labDaneDomains.pass);
  const endpoint = page.getByRole('region', { name: `${mx}:25` });
  await expect(endpoint.getByLabel(`${mx}:25 verdict: pass`)).toBeVisible();
  await expect(endpoint.getByLabel('TLSA at _25._tcp.' + mx + ' DNSSEC status: DNSSEC secure')).toBeVisible();
  await expect(endpoint.getByLabel('Record: matches')).toBeVisible();
  await expect(
    endpoint.getByRole('list', { name: 'Certificate chain' }).getByText('Matches the record'),
  ).toBeVisible();

  // the chain behind the TLSA answer, in the DNSKEY tool
  await endpoint.getByRole('link', { name: `Chain of trust of _25._tcp.${mx} TLSA` }).click();
  await expect(page).toHaveURL(/\/tools\/dnskey\?tab=chain/);

  await liveCheck(page, labDaneDomains.fail, 'DANE fails');
  const failing = page.getByRole('region', { name: `${labDaneMx(labDaneDomains.fail)}:25` });
  await expect(failing.getByLabel('Record: no match')).toBeVisible();
  await expect(failing.getByText(/must not deliver/)).toBeVisible();
  await expect(failing.getByText(/Generate the record again/).first()).toBeVisible();

  // a domain that does not exist: said so, with the proof, and no host checked
  await liveCheck(page, nonexistentDomain, 'DANE does not apply');
  await expect(
    page.getByText(`${nonexistentDomain} does not exist (NXDOMAIN)`, { exact: false }).first(),
  ).toBeVisible();
  await expect(page.getByText(/^NXDOMAIN: nope\.secure\.test does not exist \(secure denial/)).toBeVisible();
  await expect(page.getByRole('region', { name: /:25$/ })).toHaveCount(0);
});

for (const scheme of ['light', 'dark'] as const)
  for (const width of [1440, 390])
    test(`DANE live check at ${width} px in the ${scheme} theme: screenshots and accessibility`, async ({
      page,
    }, testInfo) => {
      test.skip(!daneLab, 'the DANE records need dnssec-signzone (bind9-utils)');
      // three checks, each with a full-page shot and an axe run
      test.setTimeout(120_000);
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      for (const [name, domain, verdict] of [
        ['pass', labDaneDomains.pass, 'DANE passes'],
        ['fail', labDaneDomains.fail, 'DANE fails'],
        ['nxdomain', nonexistentDomain, 'DANE does not apply'],
      ] as const) {
        await liveCheck(page, domain, verdict);
        await page.screenshot({
          path: testInfo.outputPath(`dane-live-${name}-${width}-${scheme}.png`),
          fullPage: true,
        });
        await expectReadableAt(page, width);
      }
    });
