import { defineConfig } from '@playwright/test';

/**
 * Browser tests of the web app against the real server (started once by the global setup) in Debian's Chromium.
 * Build the web app first: `npm run build -w @edgeport/web`.
 */
export default defineConfig({
  testDir: 'apps/web/e2e',
  globalSetup: './apps/web/e2e/support/global-setup.ts',
  outputDir: 'test-results',
  fullyParallel: false,
  // Two workers (files in parallel; every test seeds its own organization): all 99 tests took 6.9, 7.3 and 7.6 min in
  // three runs on this 2-core machine; one worker took 9.3 min the same day (and 10.5 in a clean-clone run). Much of a
  // browser test is waiting for the server, the broker or a timer.
  workers: 2,
  retries: 0,
  reporter: 'line',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    headless: true,
    // Recording a trace made the browser tests about 19 % slower (4 files: 194 s with, 157 s without), and CI's
    // artifacts cannot be fetched. To see a failure, rerun it locally with `--trace retain-on-failure`.
    trace: 'off',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        browserName: 'chromium',
        launchOptions: {
          executablePath: '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      },
    },
  ],
});
