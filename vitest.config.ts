import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Writes the migrated PGlite database test servers start from (see the file).
    globalSetup: ['apps/server/test/support/pglite-template.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Vitest's default is one worker fewer than the cores, which is one worker on the 2-core CI machine. Two workers
    // finish the suite in about 6 minutes instead of 7.5: much of a server test is waiting on its server and database.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          include: ['apps/server/**/*.test.ts'],
          // Server test files share a worker's module cache instead of importing the whole server again for each
          // file (that import was over a quarter of the run). They keep no state in modules: each file starts its
          // own server and database, and none mocks modules, fakes timers or changes the environment.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'units',
          include: [
            'packages/*/test/**/*.test.ts',
            'packages/*/src/**/*.test.ts',
            'apps/device-sim/**/*.test.ts',
            'apps/gateway-agent/**/*.test.ts',
            'apps/companion/**/*.test.ts',
            'apps/web/src/**/*.test.ts',
          ],
        },
      },
    ],
  },
});
