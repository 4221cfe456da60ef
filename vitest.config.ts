import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'standards',
          root: 'packages/standards',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'testlab',
          root: 'packages/testlab',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
          // fails any test that reaches for an address outside 127.0.0.0/8 and ::1
          setupFiles: ['test/helpers/connect-guard-setup.ts'],
          // integration suites share one lab per file; keep files parallel but bounded
          maxWorkers: 2,
          testTimeout: 20_000,
        },
      },
      'apps/web/vite.config.ts',
      {
        test: {
          name: 'tooling',
          include: [
            'eslint/**/*.test.js',
            'conformance/*.test.ts',
            'apps/web/build-checks/*.test.ts',
            'scripts/*.test.ts',
          ],
          environment: 'node',
        },
      },
    ],
  },
});
