import { defineConfig } from '@playwright/test';
import { assertChromium, chromiumArgs, chromiumPath } from './e2e/chromium.ts';
import { e2eDataDir, e2ePort } from './e2e/paths.ts';

assertChromium();

const port = e2ePort;
const dataDir = e2eDataDir;

export default defineConfig({
  testDir: 'e2e',
  // one folder per port, so runs on other ports do not clear this one's artefacts
  outputDir: process.env.E2E_PORT === undefined ? 'test-results/e2e' : `test-results/e2e-${port}`,
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list']],
  timeout: 30_000,
  // pages load lazily behind the session check; a busy two-core runner needs more than the 5 s default
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath,
      args: chromiumArgs,
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium', viewport: { width: 1280, height: 900 } } }],
  webServer: {
    // a fresh database each run; the web app must be built first (npm run test:e2e does)
    // the app's mail goes over SMTP to a loopback server started by e2e/serve.ts
    command: `rm -rf "${dataDir}" && node e2e/serve.ts`,
    url: `http://127.0.0.1:${port}/v1/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // Every test's browser comes from 127.0.0.1, so the whole suite shares one rate-limit bucket per
      // class (auth: 10 per 60 s). The accounts journeys alone sign up, verify, sign in and reset
      // several times a run; scaling the limits keeps them from tripping 429s meant for real clients.
      RATE_LIMIT_SCALE: '100',
      // mailed links (verification, reset) and the verify redirect must land on the origin the tests
      // browse, where their local storage lives; the default is http://localhost:PORT
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      // the browser plays a client behind a proxy on loopback, so a test can set CF-IPCountry
      TRUST_PROXY: 'loopback',
    },
  },
});
