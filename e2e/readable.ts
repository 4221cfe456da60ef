import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** No sideways scroll at `width`, and no WCAG 2 A/AA violation axe can see. */
export async function expectReadableAt(page: Page, width: number) {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(width);
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(
    axe.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
  ).toEqual([]);
}
