import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const apiTarget = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    // The theme bootstrap in public/ must stay a separate file: the CSP forbids inline scripts.
    modulePreload: { polyfill: false },
    // mermaid's lazily loaded diagram engines are large by nature; the first screen has its own
    // budget (≤ 180 KB gzip), so only warn about chunks beyond those engines' size
    chunkSizeWarningLimit: 1600,
    rolldownOptions: {
      treeshake: {
        // @rfckit/standards is pure (docs/architecture.md §1): a module of it whose exports are unused can be
        // dropped whole, so importing the registry does not pull validators or zod schemas along.
        moduleSideEffects: [{ test: /packages[\\/]standards[\\/]src[\\/]/, sideEffects: false }],
      },
    },
  },
  server: {
    proxy: {
      '/v1': apiTarget,
      '/api': apiTarget,
      '/docs': apiTarget,
    },
  },
  preview: {
    proxy: {
      '/v1': apiTarget,
      '/api': apiTarget,
      '/docs': apiTarget,
    },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    css: false,
    restoreMocks: true,
    // typing and rendering in jsdom take seconds on a busy two-core machine: not the 5 s default
    testTimeout: 30_000,
  },
});
