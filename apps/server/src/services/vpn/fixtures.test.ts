import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { deviceLicenses, gateways, users, vpnActions, vpnEndpoints } from '../../db/schema.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ testFixtures: true });
});
afterAll(() => server.close());

const seed = (payload: unknown) =>
  server.app.inject({
    method: 'POST',
    url: '/test-support/tenants',
    payload: payload as Record<string, unknown>,
  });

describe('remote-access test fixture', () => {
  it('seeds gateways with licence, LAN, profile, endpoints and applications, and TOTP secrets', async () => {
    const response = await seed({
      realm: 'vpn-fixture',
      organizations: [
        { key: 'plant', name: 'Plant', iotEnabled: false },
        { key: 'other', name: 'Other' },
      ],
      users: [
        {
          key: 'op',
          email: 'op@plant.test',
          password: 'a-long-password',
          totpSecret: 'JBSWY3DPEHPK3PXP',
          memberships: [{ org: 'plant', permissions: [{ rsname: 'devices', scopes: ['READ'] }] }],
        },
      ],
      gateways: [
        {
          name: 'Plant gateway',
          lanNetwork: '10.213.0.0/24',
          profile: { name: 'Secure', otpRequired: true },
          ipFilter: ['127.0.0.1/32'],
          endpoints: [
            { name: 'web', address: '10.213.0.1', protocol: 'HTTP', port: 8081 },
            { name: 'ssh', address: '10.213.0.1', protocol: 'TCP', port: 22 },
          ],
          actions: [{ name: 'Web', protocol: 'HTTP', port: 8081, path: '/' }],
        },
        { org: 'other', name: 'Other gateway' },
      ],
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    const plant = body.gateways['Plant gateway'];
    expect(plant).toMatchObject({
      name: 'Plant gateway',
      id: expect.any(String),
      deviceId: expect.any(String),
    });
    expect(plant.activationKey).toMatch(/^EP(-[2-9A-HJKMNP-TV-Z]{4}){3}$/);
    const { db } = server.database;
    const [gateway] = await db.select().from(gateways).where(eq(gateways.id, plant.id));
    expect(gateway).toMatchObject({
      organizationId: body.organizations.plant.id,
      lanNetwork: '10.213.0.0/24',
      ipFilter: ['127.0.0.1/32'],
      profileId: plant.profileId,
    });
    const [licence] = await db
      .select()
      .from(deviceLicenses)
      .where(eq(deviceLicenses.activationKey, plant.activationKey));
    expect(licence).toMatchObject({ vpn: true, status: 'ACTIVE', deviceId: plant.deviceId });
    const endpoints = await db.select().from(vpnEndpoints).where(eq(vpnEndpoints.gatewayId, plant.id));
    expect(endpoints.map((row) => row.name).sort()).toEqual(['ssh', 'web']);
    const [action] = await db.select().from(vpnActions).where(eq(vpnActions.name, 'Web'));
    expect(action?.profileId).toBe(plant.profileId);
    expect(body.gateways['Other gateway']).toMatchObject({ name: 'Other gateway' });
    const [other] = await db
      .select()
      .from(gateways)
      .where(eq(gateways.id, body.gateways['Other gateway'].id));
    expect(other?.organizationId).toBe(body.organizations.other.id);
    const [user] = await db.select().from(users).where(eq(users.email, 'op@plant.test'));
    expect(user?.totpSecret).toBe('JBSWY3DPEHPK3PXP');
  });

  it('refuses endpoints outside the LAN and unknown organizations', async () => {
    const base = { organizations: [{ key: 'plant', name: 'Plant' }], users: [] };
    const outside = await seed({
      ...base,
      realm: 'vpn-fixture-bad',
      gateways: [
        {
          name: 'Bad',
          lanNetwork: '10.213.0.0/24',
          endpoints: [{ name: 'x', address: '127.0.0.1', protocol: 'TCP', port: 22 }],
        },
      ],
    });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().message).toContain('forbidden range');
    const unknown = await seed({
      ...base,
      realm: 'vpn-fixture-bad2',
      gateways: [{ org: 'nope', name: 'X' }],
    });
    expect(unknown.statusCode).toBe(400);
  });
});
