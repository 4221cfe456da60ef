import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { withConsentGiven } from './fixtures.ts';
import { labTlsHosts } from './lab-sites.ts';
import { signInThroughApi } from './session.ts';

test.beforeEach(async ({ page, request }) => {
  await withConsentGiven(page);
  await signInThroughApi(page, request, 'tls-cipher');
});

async function validate(page: Page, suite: string) {
  const field = page.getByLabel('Cipher suite', { exact: true });
  await field.fill(suite);
  await page.getByRole('button', { name: 'Validate' }).click();
}

async function loadApacheModern(page: Page) {
  await page.getByRole('tab', { name: 'Recommendations' }).click();
  await page.getByLabel('Profile', { exact: true }).selectOption('modern');
  await page.getByLabel('Server', { exact: true }).selectOption('apache');
  await page.getByRole('button', { name: 'Load Recommendations' }).click();
  await expect(page.getByRole('heading', { name: 'Apache httpd, Mozilla modern profile' })).toBeVisible();
}

test('a new user validates suites and copies a recommended configuration', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/welcome');
  await page.getByRole('navigation').getByRole('link', { name: 'TLS Cipher Suites' }).first().click();
  await expect(page).toHaveURL(/\/tools\/tls-cipher/);
  await expect(page.getByRole('tab', { name: 'Information' })).toHaveAttribute('aria-selected', 'true');
  // conformance/tls/README.md: 350 IANA-assigned suites
  await expect(page.getByTestId('suite-count-Cipher suites')).toHaveText('350');

  await page.getByRole('tab', { name: 'Validator' }).click();
  await validate(page, 'c02f');
  await expect(page.getByRole('heading', { name: 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256' })).toBeVisible();
  await expect(page.getByRole('row', { name: 'OpenSSL name' })).toContainText('ECDHE-RSA-AES128-GCM-SHA256');
  await expect(
    page.getByRole('region', { name: 'Validation result' }).getByLabel(/^Security level HIGH/),
  ).toBeVisible();

  await validate(page, 'TLS_NOT_A_SUITE');
  await expect(page.getByRole('heading', { name: 'UNKNOWN: TLS_NOT_A_SUITE' })).toBeVisible();
  await expect(page.getByText(/Not an IANA-registered TLS cipher suite/)).toBeVisible();

  await page.getByLabel('Cipher suite', { exact: true }).fill('');
  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByText('Please enter a cipher suite to validate')).toBeVisible();

  await loadApacheModern(page);
  const config = page.getByTestId('tls-config');
  await expect(config).toContainText('SSLProtocol -all +TLSv1.3');
  await page.getByRole('button', { name: 'Copy the Apache httpd configuration' }).click();
  const copied = String(await page.evaluate('navigator.clipboard.readText()'));
  expect(copied).toContain('SSLProtocol -all +TLSv1.3');
  expect(copied).toContain('SSLCipherSuite TLSv1.3 TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384');
  expect(copied).toBe(await config.textContent());
});

async function testTls(page: Page, host: string) {
  await page.getByRole('tab', { name: 'Tester' }).click();
  await page.getByLabel(/^Hostname/).fill(host);
  await page.getByRole('button', { name: 'Test TLS' }).click();
}

test('an admin scans a lab server, watches the progress and reads the grade, its caps and a fix', async ({
  page,
  context,
}) => {
  // a whole scan of two servers and the page's checks: more than the default 30 s on a busy machine
  test.setTimeout(90_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/tools/tls-cipher');
  await expect(page.getByRole('tab')).toHaveText(['Information', 'Tester', 'Validator', 'Recommendations']);
  await page.getByRole('tab', { name: 'Tester' }).click();
  await page.getByRole('button', { name: 'Test TLS' }).click();
  await expect(page.getByText('Hostname is required')).toBeVisible();

  // the progress bar from the moment the scan starts, whatever states a fast lab server leaves it time to show
  await page.evaluate(`(() => {
    window.progressSeen = [];
    new MutationObserver(() => {
      const bar = document.querySelector('[data-testid="tls-progress"]');
      const text = bar && bar.textContent;
      if (text && window.progressSeen.at(-1) !== text) window.progressSeen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  })()`);
  const answer = page.waitForResponse((response) => response.url().endsWith('/v1/tls-cipher/analyse'));
  await testTls(page, labTlsHosts.old);
  const stream = await answer;
  expect(stream.headers()['content-type']).toMatch(/^text\/event-stream/);
  const result = page.getByRole('region', { name: 'TLS test result' });
  await expect(result.getByRole('heading', { name: `${labTlsHosts.old}:443: grade C` })).toBeVisible({
    timeout: 60_000,
  });
  const events = (await stream.text()).split('\n\n').filter(Boolean);
  expect(events.at(-1)).toMatch(/^event: result\n/);
  expect(events.some((event) => event.startsWith('event: progress\ndata: {"phase":"suites"'))).toBe(true);
  expect(((await page.evaluate('window.progressSeen')) as string[]).length).toBeGreaterThan(0);

  // TLS 1.0 caps at B, 3DES with TLS 1.2 at C (SWEET32)
  const caps = result.getByRole('region', { name: 'What limits the grade' });
  await expect(caps.getByText(/64-bit block ciphers leak plaintext/)).toBeVisible();
  await expect(caps.getByText(/TLS 1.0 and 1.1 are deprecated/)).toBeVisible();
  const fix = 'Remove 3DES and other 64-bit block ciphers (OpenSSL: !3DES), at least for TLS 1.1 and newer';
  await caps.getByRole('button', { name: /Copy the fix: 64-bit block ciphers/ }).click();
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(fix);
  const suites = result.getByRole('region', { name: 'Protocol versions and cipher suites' });
  await expect(suites.getByRole('region', { name: 'TLS 1.2 cipher suites' })).toContainText('DES-CBC3-SHA');
  await expect(result.getByRole('region', { name: 'Vulnerabilities' })).toContainText('SWEET32');

  await testTls(page, labTlsHosts.current);
  await expect(result.getByRole('heading', { name: `${labTlsHosts.current}:443: grade A` })).toBeVisible({
    timeout: 60_000,
  });
  await expect(result.getByLabel('Grade A', { exact: true })).toBeVisible();
  // no HTTPS answer with headers came from this lab host: HSTS was not read, not 'not sent'
  await expect(
    result.getByText('HSTS (Strict-Transport-Security) could not be read, so it cannot count'),
  ).toBeVisible();
});

test('an admin scans a server with an ECDSA and an RSA certificate and reads both', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/tools/tls-cipher');
  await testTls(page, labTlsHosts.dual);
  const result = page.getByRole('region', { name: 'TLS test result' });
  await expect(result.getByRole('heading', { name: `${labTlsHosts.dual}:443: grade A` })).toBeVisible({
    timeout: 60_000,
  });
  const certificates = result.getByRole('region', { name: 'Certificates' });
  await expect(certificates.getByRole('region', { name: 'ECDSA certificate' })).toContainText(
    'Key: EC prime256v1',
  );
  await expect(certificates.getByRole('region', { name: 'RSA certificate' })).toContainText(
    'Key: RSA 2048 bits',
  );
  const vulnerabilities = result.getByRole('region', { name: 'Vulnerabilities' });
  await expect(vulnerabilities).toContainText('Certificate problems (ECDSA certificate)');
  await expect(vulnerabilities).toContainText('Certificate problems (RSA certificate)');
});

for (const width of [1440, 390]) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`screens at ${width} px, ${scheme}: screenshots, accessibility, no sideways scroll`, async ({
      page,
    }, testInfo) => {
      // seven screens (four whole scans, one of a server that stalls every probe), each with an axe
      // run: its own time budget, not the default 30 s
      test.setTimeout(360_000);
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('/tools/tls-cipher');
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      const shots: [string, () => Promise<void>, string?][] = [
        ['information', async () => {}],
        [
          'validator',
          async () => {
            await page.getByRole('tab', { name: 'Validator' }).click();
            await validate(page, 'DES-CBC3-SHA');
            await expect(
              page.getByRole('region', { name: 'Validation result' }).getByLabel(/^Security level LOW/),
            ).toBeVisible();
          },
          'Validation result',
        ],
        ['recommendations', () => loadApacheModern(page), 'Recommended configuration'],
        [
          'tester',
          async () => {
            await testTls(page, labTlsHosts.old);
            await expect(page.getByRole('button', { name: 'Test TLS' })).toBeEnabled({ timeout: 60_000 });
            await expect(page.getByRole('region', { name: 'TLS test result' })).toHaveAttribute(
              'data-state',
              'success',
            );
          },
          'TLS test result',
        ],
        [
          'tester-dual',
          async () => {
            await testTls(page, labTlsHosts.dual);
            await expect(page.getByRole('button', { name: 'Test TLS' })).toBeEnabled({ timeout: 60_000 });
            await expect(
              page
                .getByRole('region', { name: 'TLS test result' })
                .getByRole('region', { name: 'Certificates' }),
            ).toBeVisible();
          },
          'TLS test result',
        ],
        [
          'tester-f',
          async () => {
            await testTls(page, labTlsHosts.broken);
            await expect(page.getByRole('button', { name: 'Test TLS' })).toBeEnabled({ timeout: 60_000 });
            await expect(
              page.getByRole('region', { name: 'TLS test result' }).getByLabel('Grade F', { exact: true }),
            ).toBeVisible();
          },
          'TLS test result',
        ],
        [
          'tester-ungraded',
          async () => {
            await testTls(page, labTlsHosts.stalled);
            await expect(page.getByRole('button', { name: 'Test TLS' })).toBeEnabled({ timeout: 90_000 });
            const result = page.getByRole('region', { name: 'TLS test result' });
            await expect(
              result.getByRole('heading', { name: `${labTlsHosts.stalled}:443: not graded` }),
            ).toBeVisible();
            await expect(result.getByTestId('tls-not-graded')).toContainText(
              'The server sent no certificate we could read',
            );
            await expect(result.getByTestId('tls-grade')).toHaveCount(0);
            // a table at 1440 px, a list of cards at 390 px
            const groups = result
              .getByRole(width === 390 ? 'listitem' : 'row')
              .filter({ hasText: 'Groups (TLS 1.2 and below)' });
            await expect(groups).toContainText('not learnt');
          },
          'TLS test result',
        ],
      ];
      for (const [name, open, result] of shots) {
        await open();
        await page.waitForLoadState('networkidle');
        // the answer alone, at full size, besides the whole page
        if (result !== undefined)
          await page
            .getByRole('region', { name: result })
            .screenshot({ path: testInfo.outputPath(`tls-cipher-${name}-result-${width}-${scheme}.png`) });
        await page.screenshot({
          path: testInfo.outputPath(`tls-cipher-${name}-${width}-${scheme}.png`),
          fullPage: true,
        });
        // what sticks out past the window, outermost first, where the page scrolls sideways
        const overflow = String(
          await page.evaluate(`(() => {
            const width = window.innerWidth;
            if (document.documentElement.scrollWidth <= width) return '';
            const out = [...document.body.querySelectorAll('*')].filter(
              (e) => e.getBoundingClientRect().right > width + 0.5 && e.parentElement.getBoundingClientRect().right <= width + 0.5,
            );
            return out.map((e) => e.tagName + '.' + e.className + ' ' + (e.textContent || '').slice(0, 40)).join(' | ');
          })()`),
        );
        expect(overflow, name).toBe('');
        const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
        expect(
          axe.violations.map((v) => `${name} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
        ).toEqual([]);
      }
    });
  }
}
