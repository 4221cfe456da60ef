import { afterEach, describe, expect, it, vi } from 'vitest';

import themeInit from '../../public/theme-init.js?raw';

// Runs the pre-paint script the way the browser does: as a classic script against this document.
function runThemeInit(): string | null {
  new Function(themeInit)();
  return document.documentElement.getAttribute('data-mantine-color-scheme');
}

describe('public/theme-init.js', () => {
  afterEach(() => document.documentElement.removeAttribute('data-mantine-color-scheme'));

  it('applies the stored theme in the format Mantine writes', () => {
    window.localStorage.setItem('rfckit.theme', 'dark');
    expect(runThemeInit()).toBe('dark');
    window.localStorage.setItem('rfckit.theme', 'light');
    expect(runThemeInit()).toBe('light');
  });

  it('follows the system preference when nothing is stored', () => {
    expect(runThemeInit()).toBe('light');
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) =>
        ({ matches: query === '(prefers-color-scheme: dark)', media: query }) as MediaQueryList,
    );
    expect(runThemeInit()).toBe('dark');
  });

  it('ignores values it does not know', () => {
    window.localStorage.setItem('rfckit.theme', 'auto');
    expect(runThemeInit()).toBe('light');
  });
});
