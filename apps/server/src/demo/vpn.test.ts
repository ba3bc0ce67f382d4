import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { gateways, vpnActions, vpnEndpoints } from '../db/schema.ts';
import { createOrganization } from '../services/core/organizations/provisioning.ts';
import { seedDemoGateway } from './vpn.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('demo remote access', () => {
  it('gives the demo organization a plant gateway with an HMI, a PLC, a profile and two applications', async () => {
    const { db } = server.database;
    await server.app.realms.create('demo-vpn', 'Demo');
    const org = await createOrganization(db, { realm: 'demo-vpn', name: 'Demo' });
    const seeded = await seedDemoGateway(db, org.id);
    const [gateway] = await db.select().from(gateways).where(eq(gateways.id, seeded.id));
    expect(gateway).toMatchObject({ name: 'Plant gateway', lanNetwork: '192.168.10.0/24' });
    expect(gateway?.profileId).not.toBeNull();
    const endpoints = await db.select().from(vpnEndpoints).where(eq(vpnEndpoints.gatewayId, seeded.id));
    expect(endpoints.map((row) => [row.name, row.address, row.protocol, row.port]).sort()).toEqual([
      ['HMI', '192.168.10.20', 'HTTP', 80],
      ['PLC', '192.168.10.30', 'TCP', 502],
    ]);
    const actions = await db.select().from(vpnActions).where(eq(vpnActions.organizationId, org.id));
    expect(actions.map((row) => row.name).sort()).toEqual(['HMI web page', 'Modbus TCP']);
    expect(actions.every((row) => row.profileId === gateway?.profileId)).toBe(true);
  });
});
