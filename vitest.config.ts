import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'packages/*/test/**/*.test.ts',
      'packages/*/src/**/*.test.ts',
      'apps/server/**/*.test.ts',
      'apps/device-sim/**/*.test.ts',
      'apps/gateway-agent/**/*.test.ts',
      'apps/companion/**/*.test.ts',
      'apps/web/src/**/*.test.ts',
    ],
    // Writes the migrated PGlite database test servers start from (see the file).
    globalSetup: ['apps/server/test/support/pglite-template.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
