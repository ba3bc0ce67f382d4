import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PartitionOwner } from '../../src/cluster/partitions.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// PostgreSQL only: partitions are leased in a cluster's database (PGlite is one process that owns everything).
describe.runIf(process.env.TEST_DATABASE_URL)('an instance restarted within its leases’ lifetime', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('takes back the partitions its instance id still holds, instead of owning them only in the database', async () => {
    const { membership, bus, log, partitions } = server.app;
    if (!membership || !partitions) throw new Error('a PostgreSQL test server has membership and partitions');
    expect(partitions.owned()).toHaveLength(64);
    // The same instance id starting again while its leases live: what a SIGKILL and a quick restart leave behind.
    const restarted = new PartitionOwner({ db: server.database.db, membership, bus, log });
    const gained: number[] = [];
    restarted.onChange({ gained: async (set) => void gained.push(...set), lost: () => {} });
    await restarted.start();
    try {
      expect(restarted.owned()).toHaveLength(64);
      expect(gained).toHaveLength(64);
    } finally {
      await restarted.stop();
    }
  });
});
