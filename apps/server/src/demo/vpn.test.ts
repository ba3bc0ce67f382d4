import { once } from 'node:events';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { gateways, vpnActions, vpnEndpoints } from '../db/schema.ts';
import { createOrganization } from '../services/core/organizations/provisioning.ts';
import { startDemoPlant } from './plant.ts';
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

  it('runs the simulated plant: the agent brings the gateway online and the HMI and PLC answer through the tunnel', async () => {
    const { db } = server.database;
    await server.app.realms.create('demo-plant', 'Demo plant');
    const org = await createOrganization(db, { realm: 'demo-plant', name: 'Demo plant' });
    const seeded = await seedDemoGateway(db, org.id);
    const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
    const stop = await startDemoPlant(db, org.id, address);
    try {
      await expect.poll(() => server.app.tunnels.isOnline(seeded.id), { timeout: 10_000 }).toBe(true);
      const hmi = await server.app.tunnels.openStream(seeded.id, { host: '192.168.10.20', port: 80 });
      hmi.end('GET / HTTP/1.0\r\nHost: hmi\r\n\r\n');
      let page = '';
      for await (const chunk of hmi) page += String(chunk);
      expect(page).toContain('Packaging hall — operator panel');

      const plc = await server.app.tunnels.openDataConnection(seeded.id, {
        host: '192.168.10.30',
        port: 502,
      });
      const [banner] = (await once(plc, 'data')) as [Buffer];
      expect(banner.toString()).toContain('PLC line controller (simulated)');
      plc.destroy();

      await expect(
        server.app.tunnels.openStream(seeded.id, { host: '192.168.10.40', port: 80 }),
        'a machine the demo plant does not have',
      ).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      await stop();
    }
    await expect.poll(() => server.app.tunnels.isOnline(seeded.id)).toBe(false);
  });
});
