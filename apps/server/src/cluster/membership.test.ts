import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { clusterInstances } from '../db/schema.ts';
import { ClusterMembership, LIVE_WITHIN_MS } from './membership.ts';

let server: TestServer;
const log = { warn: () => {} };

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('cluster membership', () => {
  it('lists live instances with their internal address, forgets silent ones, and removes one that leaves', async () => {
    const { db } = server.database;
    const a = await ClusterMembership.join(db, { instanceId: 'a', internalUrl: 'http://10.0.0.1:8080' }, log);
    const b = await ClusterMembership.join(db, { instanceId: 'b', internalUrl: 'http://10.0.0.2:8080' }, log);
    try {
      expect((await a.liveInstances()).map((member) => member.instanceId)).toEqual(['a', 'b']);
      expect(await a.internalUrlOf('b')).toBe('http://10.0.0.2:8080');
      // b stops renewing (killed): its heartbeat ages past the live window.
      await db
        .update(clusterInstances)
        .set({ heartbeatAt: sql`now() - ${`${LIVE_WITHIN_MS + 1000} milliseconds`}::interval` })
        .where(eq(clusterInstances.instanceId, 'b'));
      expect((await a.liveInstances()).map((member) => member.instanceId)).toEqual(['a']);
      expect(await a.internalUrlOf('b')).toBeUndefined();
      await b.heartbeat();
      expect(await a.internalUrlOf('b')).toBe('http://10.0.0.2:8080');
      await b.leave();
      expect((await a.liveInstances()).map((member) => member.instanceId)).toEqual(['a']);
    } finally {
      await a.leave();
      await b.leave();
    }
  });
});
