import { describe, expect, it } from 'vitest';
import { claimPeriod } from '../../src/cluster/periodic.ts';
import { openDatabase } from '../../src/db/index.ts';
import { startTestServer } from '../support/server.ts';

// Instances of a cluster whose timers fire at the same moment: one runs the period's work.
describe.runIf(process.env.TEST_DATABASE_URL)('timed work once per period across instances', () => {
  it('gives a period to exactly one of many instances claiming it at once', async () => {
    const server = await startTestServer();
    const { databaseUrl } = server;
    const instances = await Promise.all([0, 1, 2, 3].map(() => openDatabase({ databaseUrl })));
    try {
      for (const period of ['first', 'second', 'third']) {
        const claims = await Promise.all(
          instances.flatMap(({ db }) => [0, 1, 2].map(() => claimPeriod(db, `together ${period}`, 60_000))),
        );
        expect(claims.filter(Boolean)).toHaveLength(1);
      }
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
      await server.close();
    }
  });
});
