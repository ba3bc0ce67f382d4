import { defineConfig } from '@playwright/test';
import browserTests from '../../playwright.config.ts';

/**
 * The dashboard benchmarks run with the browser tests' set-up (real server, Debian's Chromium) but
 * from its own folder, so `npm test` never runs it: `npx playwright test --config bench/dashboards/playwright.config.ts`.
 */
export default defineConfig({
  ...browserTests,
  testDir: '.',
  testMatch: '*.bench.ts',
  globalSetup: '../../apps/web/e2e/support/global-setup.ts',
  outputDir: '../../test-results/bench',
  // No trace: its DOM snapshots around every action ran inside the measured windows (17–65 ms on some undo steps).
  use: { ...browserTests.use, trace: 'off' },
});
