import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { deviceLicenses } from '../db/schema.ts';
import { createOrganization } from '../services/core/organizations/provisioning.ts';
import { ensureDemoDevices } from './devices.ts';
import { seedDemoGateway } from './vpn.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('demo devices', () => {
  it('leave five spare activation keys for the walkthrough, once, although the plant gateway came first', async () => {
    const { db } = server.database;
    await server.app.realms.create('demo-keys', 'Demo');
    const org = await createOrganization(db, { realm: 'demo-keys', name: 'Demo' });
    // The demo seed makes the plant gateway (a device) before the packaging lines.
    await seedDemoGateway(db, org.id);
    const spare = async () =>
      (
        await db
          .select({ n: count() })
          .from(deviceLicenses)
          .where(and(eq(deviceLicenses.organizationId, org.id), eq(deviceLicenses.status, 'AVAILABLE')))
      )[0]?.n;
    const lines = await ensureDemoDevices(db, org.id);
    expect(lines).toHaveLength(6);
    expect(await spare()).toBe(5);
    // The next start finds the lines and adds no keys.
    expect(await ensureDemoDevices(db, org.id)).toEqual(lines);
    expect(await spare()).toBe(5);
  });
});
