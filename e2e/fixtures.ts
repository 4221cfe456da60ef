import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export const consentKey = 'rfckit.cookie-consent';
export const themeKey = 'rfckit.theme';

/** Stores a necessary-only consent before any page script runs, so the banner stays out of the way. */
export async function withConsentGiven(page: Page): Promise<void> {
  await page.addInitScript((key) => {
    if (!localStorage.getItem(key)) {
      localStorage.setItem(
        key,
        JSON.stringify({
          necessary: true,
          analytics: false,
          functionality: false,
          marketing: false,
          date: new Date().toISOString(),
        }),
      );
    }
  }, consentKey);
}

export async function readJson(page: Page, key: string): Promise<unknown> {
  const raw = await page.evaluate((k) => localStorage.getItem(k), key);
  return raw === null ? null : JSON.parse(raw);
}

/** No sideways scroll at `width`, and no WCAG 2 A/AA violation axe can see. */
export async function expectReadableAt(page: Page, width: number): Promise<void> {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(width);
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(
    axe.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
  ).toEqual([]);
}
