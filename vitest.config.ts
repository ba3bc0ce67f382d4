import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'packages/*/test/**/*.test.ts',
      'packages/*/src/**/*.test.ts',
      'apps/server/**/*.test.ts',
      'apps/device-sim/**/*.test.ts',
      'apps/web/src/**/*.test.ts',
    ],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
