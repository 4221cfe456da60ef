// One failure vocabulary (docs/architecture.md §6), as a new user meets it: when our side cannot
// get an answer (the lab DNS stays silent for a name, nothing listens at a site), SPF and
// security.txt say that we could not check, list what was tried, offer a retry, and show neither an
// internal address nor a fix; when the lab serves a bad record or file, the same tools say that
// the configuration fails, with the section and the fix. Each state is photographed light and
// dark, at 1440 and 390 px wide.
import { expect, test, type Locator, type Page, type TestInfo } from '@playwright/test';
import { withConsentGiven } from './fixtures.ts';
import { unreachableSite } from './lab-sites.ts';
import { signInThroughApi } from './session.ts';

test.beforeEach(async ({ page, request }) => {
  await withConsentGiven(page);
  await signInThroughApi(page, request, 'could-not-check');
});

/** Screenshots of the page as it is, in both themes, at desktop and phone widths. */
async function photograph(page: Page, testInfo: TestInfo, name: string) {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      // nothing is wider than a phone's screen
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.screenshot({ path: testInfo.outputPath(`${name}-${width}-${scheme}.png`), fullPage: true });
    }
  }
}

/** The could-not-check notice: neutral, what was tried, a retry, no fix and no address of ours. */
async function expectCouldNotCheck(page: Page, result: Locator, title: string) {
  const notice = result.getByRole('alert');
  await expect(notice).toContainText(`We could not check: ${title}`);
  await expect(notice).toContainText('This says nothing about your configuration');
  await expect(result.getByRole('button', { name: 'Retry' })).toBeVisible();
  await expect(result).not.toContainText(/Fix/);
  await expect(page.locator('body')).not.toContainText('127.0.0.1');
  await expect(page.locator('body')).not.toContainText(/ECONN/);
  return result.getByRole('list', { name: 'What we tried' });
}

test.describe('SPF', () => {
  async function validate(page: Page, domain: string) {
    await page.goto('/tools/spf?tab=validator');
    const form = page.getByRole('form', { name: 'SPF validator' });
    await form.getByLabel('Domain').fill(domain);
    await form.getByRole('button', { name: 'Validate' }).click();
    return page.getByRole('region', { name: 'Validation result' });
  }

  test('with no answer from our resolver, says that we could not check, and retries', async ({
    page,
  }, testInfo) => {
    // the lab DNS stays silent: two tries of the DNS client's timeout
    test.setTimeout(60_000);
    const result = await validate(page, 'spf-silent.example.test');
    const tried = await expectCouldNotCheck(page, result, 'Our DNS resolver did not answer');
    await expect(result).toContainText(
      'Our DNS resolver did not answer, so we could not look up spf-silent.example.test',
    );
    await expect(tried).toContainText('spf-silent.example.test: No answer from our DNS resolver');
    // the temperror of a lookup that never happened is not shown as the domain's
    await expect(result).not.toContainText('temperror');
    await photograph(page, testInfo, 'spf-could-not-check');

    await result.getByRole('button', { name: 'Retry' }).click();
    await expect(result).toContainText('Looking up the SPF record of spf-silent.example.test');
    await expect(result.getByRole('alert')).toContainText('We could not check', { timeout: 20_000 });
  });

  test('with a bad record, says that the configuration fails, with the section and the fix', async ({
    page,
  }, testInfo) => {
    const result = await validate(page, 'spf-broken.example.test');
    await expect(
      result.getByRole('heading', { name: 'SPF permerror: receivers fail this record' }),
    ).toBeVisible();
    const errors = result.getByRole('region', { name: 'Errors' });
    await expect(errors).toContainText('RFC 7208');
    await expect(errors).toContainText('Fix');
    await expect(result).not.toContainText('We could not check');
    await photograph(page, testInfo, 'spf-configuration-fails');
  });
});

test.describe('security.txt', () => {
  async function fetchSite(page: Page, site: string) {
    await page.goto('/tools/security-txt?tab=validator');
    await page.getByText('Fetch from a site', { exact: true }).click();
    await page.getByRole('textbox', { name: 'Site' }).fill(site);
    await page.getByRole('button', { name: 'Fetch and validate' }).click();
    return page.getByRole('region', { name: 'Fetch result' });
  }

  test('with nothing answering at the site, says that we could not check, listing every place', async ({
    page,
  }, testInfo) => {
    const result = await fetchSite(page, unreachableSite);
    const tried = await expectCouldNotCheck(page, result, 'Nothing answered');
    await expect(result).toContainText(`Nothing answered on port 443 at ${unreachableSite}`);
    await expect(tried.getByRole('listitem')).toHaveText([
      `https://${unreachableSite}/.well-known/security.txt: Nothing answered on port 443 at ${unreachableSite}`,
      `https://${unreachableSite}/security.txt: Not tried: Nothing answered on port 443 at ${unreachableSite}`,
      `http://${unreachableSite}/.well-known/security.txt: Nothing answered on port 80 at ${unreachableSite}`,
      `http://${unreachableSite}/security.txt: Not tried: Nothing answered on port 80 at ${unreachableSite}`,
    ]);
    await photograph(page, testInfo, 'security-txt-could-not-check');
  });

  test('with an expired file, says that the file fails, with the section and the fix', async ({
    page,
  }, testInfo) => {
    const result = await fetchSite(page, 'securitytxt-expired.example.test');
    await expect(result.getByRole('heading', { name: 'Invalid security.txt' })).toBeVisible();
    const errors = result.getByRole('region', { name: 'Errors' });
    await expect(errors).toContainText('RFC 9116');
    await expect(errors).toContainText('Fix');
    await expect(result).not.toContainText('We could not check');
    await photograph(page, testInfo, 'security-txt-configuration-fails');
  });
});
