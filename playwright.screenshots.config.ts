import { defineConfig } from '@playwright/test';
import base from './playwright.config.ts';

/**
 * `npm run screenshots`: every page of the app, light and dark, desktop and phone, into
 * screenshots/<project>/ for reviewers. Not part of `npm test` (its files end in .shots.ts).
 */
export default defineConfig({
  ...base,
  testDir: 'e2e/review',
  testMatch: '**/*.shots.ts',
  outputDir: 'test-results/screenshots',
  // a page of results takes a while on a busy two-core machine
  timeout: 90_000,
  projects: [
    { name: 'desktop-1440x900-light', use: { viewport: { width: 1440, height: 900 }, colorScheme: 'light' } },
    { name: 'desktop-1440x900-dark', use: { viewport: { width: 1440, height: 900 }, colorScheme: 'dark' } },
    { name: 'phone-390x844-light', use: { viewport: { width: 390, height: 844 }, colorScheme: 'light' } },
    { name: 'phone-390x844-dark', use: { viewport: { width: 390, height: 844 }, colorScheme: 'dark' } },
  ],
});
