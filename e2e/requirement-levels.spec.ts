import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { withConsentGiven } from './fixtures.ts';
import { signInThroughApi } from './session.ts';

test.beforeEach(async ({ page, request }) => {
  await withConsentGiven(page);
  await signInThroughApi(page, request, 'requirement-levels');
});

test('the Requirement levels popover opens from the keyboard, explains every badge and closes on Escape', async ({
  page,
}) => {
  await page.goto('/tools/dmarc');
  const button = page.getByRole('button', { name: 'Requirement levels' });
  // the button follows the last Standards link in the tab order
  await page.getByRole('link', { name: 'RFC 9989' }).focus();
  await page.keyboard.press('Tab');
  await expect(button).toBeFocused();
  await page.keyboard.press('Enter');

  const popover = page.getByRole('dialog', { name: 'Requirement levels' });
  await expect(popover).toBeVisible();
  const levels = popover.getByLabel('Requirement levels');
  for (const word of [
    'MUST',
    'REQUIRED',
    'SHALL',
    'MUST NOT',
    'SHOULD',
    'RECOMMENDED',
    'NOT RECOMMENDED',
    'MAY',
    'OPTIONAL',
  ]) {
    await expect(levels.locator('dt').filter({ hasText: new RegExp(`^${word}$`) })).toHaveCount(1);
  }
  await expect(popover.getByLabel('Finding badges')).toContainText('Warning');
  // the DMARC page's own badges: the destination check the tags table repeats
  await expect(popover.getByLabel('Result badges')).toContainText('Not authorised: no reports');
  expect((await new AxeBuilder({ page }).include('[role="dialog"]').analyze()).violations).toEqual([]);

  await page.keyboard.press('Escape');
  await expect(popover).toBeHidden();
  await expect(button).toBeFocused();
});

for (const where of ['top', 'bottom'] as const) {
  test(`on a phone the popover stays inside the screen with its button at the ${where}`, async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/tools/dmarc');
    const button = page.getByRole('button', { name: 'Requirement levels' });
    await button.evaluate(
      (element, block: ScrollLogicalPosition) => element.scrollIntoView({ block }),
      where === 'top' ? 'start' : 'end',
    );
    await button.click();
    const popover = page.getByRole('dialog', { name: 'Requirement levels' });
    await expect(popover).toBeVisible();
    // the popover settles where its placement puts it
    await expect
      .poll(async () => {
        const box = await popover.boundingBox();
        return box === null
          ? false
          : box.y >= 0 && box.y + box.height <= 844 && box.x >= 0 && box.x + box.width <= 390;
      })
      .toBe(true);
    // what does not fit scrolls inside the popover, reachable from the keyboard
    const scrolls = await popover.evaluate((element) => element.scrollHeight > element.clientHeight);
    if (scrolls) await expect(popover).toHaveAttribute('tabindex', '0');
  });
}
