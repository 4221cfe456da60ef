/// <reference lib="dom" />
// (the callbacks given to page.evaluate run in the browser, with its DOM)
// The geometry of Mantine controls as the browser lays them out. A component stylesheet missing
// from apps/web/src/app/styles.ts leaves a control working but broken to the eye (a check icon as
// wide as the list, a menu without a frame, a password box inside a box, a progress bar of no
// width, bullets doubled in a tree): each assertion below fails without its sheet.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { withConsentGiven } from './fixtures.ts';
import { accountPassword, signInThroughApi } from './session.ts';

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error('the element has no layout box');
  return found;
}

function css(locator: Locator, property: string): Promise<string> {
  return locator.evaluate((element, name) => getComputedStyle(element).getPropertyValue(name), property);
}

function isTransparent(colour: string): boolean {
  return colour === 'transparent' || colour === 'rgba(0, 0, 0, 0)';
}

async function useScheme(page: Page, scheme: 'light' | 'dark') {
  await page.emulateMedia({ colorScheme: scheme });
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`in the ${scheme} theme`, () => {
    test.beforeEach(async ({ page }) => {
      await withConsentGiven(page);
      await useScheme(page, scheme);
    });

    test('password inputs are one bordered box and the strength bar has width', async ({ page }) => {
      await page.goto('/login');
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      const password = page.getByRole('textbox', { name: 'Password', exact: true });
      await expect(password).toBeVisible();
      // the inner input draws no border of its own; the wrapper around it and the toggle does
      expect(await css(password, 'border-top-width')).toBe('0px');
      const wrapper = page.locator('.mantine-PasswordInput-input').first();
      expect(Number.parseFloat(await css(wrapper, 'border-top-width'))).toBeGreaterThan(0);
      // the wrapper holds the inner input: one box, not two side by side
      const outer = await box(wrapper);
      const inner = await box(password);
      expect(inner.x).toBeGreaterThanOrEqual(outer.x);
      expect(inner.x + inner.width).toBeLessThanOrEqual(outer.x + outer.width + 1);

      await page.goto('/register');
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill(accountPassword);
      const bar = page.getByRole('progressbar', { name: 'Password strength' });
      await expect(bar).toBeVisible();
      expect((await box(bar)).width).toBeGreaterThan(10);
      expect((await box(bar)).height).toBeGreaterThan(2);
      expect(isTransparent(await css(bar, 'background-color'))).toBe(false);
    });

    test('select options, the account menu, the SPF tree and tag pills are laid out', async ({
      page,
      request,
    }) => {
      await signInThroughApi(page, request, `controls-${scheme}`);

      // Select: the selected option's check icon stays icon-sized
      await page.goto('/tools/dkim?tab=generator');
      await page.getByRole('combobox', { name: 'Key type' }).click();
      const listbox = page.getByRole('listbox');
      await expect(listbox).toBeVisible();
      const check = listbox.locator('[aria-selected="true"] svg').first();
      await expect(check).toBeVisible();
      const icon = await box(check);
      expect(icon.width).toBeLessThanOrEqual(16);
      expect(icon.height).toBeLessThanOrEqual(16);
      const dropdown = page.locator('.mantine-Select-dropdown').filter({ visible: true });
      expect(isTransparent(await css(dropdown, 'background-color'))).toBe(false);
      await page.keyboard.press('Escape');

      // Menu: a framed dropdown of menu items
      await page.getByRole('button', { name: /^Account menu/ }).click();
      const menu = page.getByRole('menu');
      await expect(menu).toBeVisible();
      expect(isTransparent(await css(menu, 'background-color'))).toBe(false);
      expect(Number.parseFloat(await css(menu, 'border-top-width'))).toBeGreaterThan(0);
      const item = menu.getByRole('menuitem', { name: 'Profile' });
      expect((await box(item)).height).toBeGreaterThan(20);
      // items fill the dropdown's width, as a menu's rows do
      expect((await box(item)).width).toBeGreaterThan((await box(menu)).width * 0.8);
      // padded rows with the label beside any icon, and a drawn divider before Logout
      expect(Number.parseFloat(await css(item, 'padding-left'))).toBeGreaterThanOrEqual(8);
      expect(await css(item, 'display')).toBe('flex');
      const divider = menu.locator('.mantine-Menu-divider');
      expect(Number.parseFloat(await css(divider, 'border-top-width'))).toBeGreaterThan(0);
      await page.keyboard.press('Escape');
      await expect(menu).toHaveCount(0);

      // Tree: no list bullets of the browser's own beside the tree's; the lookup bar has width
      await page.goto('/tools/spf?tab=validator');
      const form = page.getByRole('form', { name: 'SPF validator' });
      await form.getByLabel('Domain').fill('spf-over.example.test');
      await form.getByRole('button', { name: 'Validate' }).click();
      const tree = page.getByRole('tree', { name: 'Include tree' });
      await expect(tree.getByRole('treeitem')).toHaveCount(13);
      // every node, nested ones too, draws no marker of its own
      const markers = await tree
        .getByRole('treeitem')
        .evaluateAll((items) => items.map((item) => getComputedStyle(item).listStyleType));
      expect(markers).toEqual(Array.from({ length: 13 }, () => 'none'));
      const budget = page.getByRole('region', { name: 'Validation result' }).getByTestId('lookup-budget');
      const lookups = budget.getByRole('progressbar');
      expect((await box(lookups)).width).toBeGreaterThan(10);
      expect((await box(lookups)).height).toBeGreaterThan(2);

      // TagsInput: each tag is a pill with a background
      await page.goto('/tools/arc?tab=generator');
      const pill = page.locator('.mantine-TagsInput-pill').first();
      await expect(pill).toBeVisible();
      expect(isTransparent(await css(pill, 'background-color'))).toBe(false);
      expect((await box(pill)).height).toBeGreaterThan(10);
      // the typing field sits inside the one bordered box, without a border of its own
      const field = page.locator('.mantine-TagsInput-inputField').first();
      expect(await css(field, 'border-top-width')).toBe('0px');
      expect(isTransparent(await css(field, 'background-color'))).toBe(true);
    });
  });
}
