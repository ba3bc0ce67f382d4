import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { PASSWORD, seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import { auditLog, devices, gatewayLogs, gateways, vpnEndpoints } from '../../../db/schema.ts';
import {
  addDefaultRoles,
  addMember,
  createOrganization,
  createUser,
} from '../../core/organizations/provisioning.ts';
import { seedDemoLicenses } from '../../license/demo.ts';
import { type SeededGateway, seedGateway } from '../fixtures.ts';
import { endpointByName, gatewayByName } from './lookup.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let rptA: string;
let rptB: string;
let readerA: string;
let rptNoVpn: string;
let plant: SeededGateway;
let spare: SeededGateway;
let foreign: SeededGateway;
let noVpnGateway: SeededGateway;

const vpn2 = '/svc/vpn2/api/v1';
const gatewaysOf = (domain: string) => `${vpn2}/gateways/${domain}`;

async function gatewayRow(id: string) {
  const [row] = await server.database.db.select().from(gateways).where(eq(gateways.id, id));
  return row;
}
async function endpointRows(gatewayId: string) {
  return server.database.db
    .select()
    .from(vpnEndpoints)
    .where(eq(vpnEndpoints.gatewayId, gatewayId))
    .orderBy(vpnEndpoints.name);
}
/** A gateway with its endpoints, to assert a refused call changed nothing. */
async function state(id: string) {
  return { gateway: await gatewayRow(id), endpoints: await endpointRows(id) };
}
async function auditActions(organizationId: string) {
  const rows = await server.database.db
    .select({ action: auditLog.action })
    .from(auditLog)
    .where(eq(auditLog.organizationId, organizationId));
  return rows.map((row) => row.action);
}

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server);
  const { db } = server.database;
  const { orgA, orgB } = tenants;
  plant = await seedGateway(db, orgA.id, {
    name: 'Plant gateway',
    lanNetwork: '192.168.10.0/24',
    profile: { name: 'Operators', otpRequired: false },
    endpoints: [
      { name: 'HMI', address: '192.168.10.20', protocol: 'HTTP', port: 80 },
      { name: 'PLC', address: '192.168.10.30', protocol: 'TCP', port: 502 },
    ],
  });
  spare = await seedGateway(db, orgA.id, { name: 'Spare gateway', lanNetwork: '192.168.10.0/25' });
  foreign = await seedGateway(db, orgB.id, {
    name: 'B gateway',
    lanNetwork: '10.1.0.0/16',
    endpoints: [{ name: 'HMI', address: '10.1.0.5', protocol: 'HTTP', port: 80 }],
  });
  const noVpn = await createOrganization(db, {
    realm: 'acme',
    name: 'No VPN',
    resourceId: 'acme-novpn',
    vpnEnabled: false,
  });
  const rolesNoVpn = await addDefaultRoles(db, noVpn.id);
  const adminNoVpn = await createUser(db, {
    realm: 'acme',
    email: 'admin@acme-novpn.test',
    password: PASSWORD,
  });
  await addMember(db, noVpn.id, adminNoVpn.id, [rolesNoVpn.administrator.id]);
  noVpnGateway = await seedGateway(db, noVpn.id, { name: 'Hidden', lanNetwork: '10.2.0.0/24' });
  rptA = (await rptFor(server, 'acme', tenants.adminA.email, orgA.resourceId)).rpt;
  rptB = (await rptFor(server, 'acme', tenants.adminB.email, orgB.resourceId)).rpt;
  rptNoVpn = (await rptFor(server, 'acme', adminNoVpn.email, noVpn.resourceId)).rpt;
  const reader = await userWithRole(server, 'acme', orgA.id, 'reader@acme-a.test', [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'devices', scopes: ['READ'] },
  ]);
  readerA = (await rptFor(server, 'acme', reader.email, orgA.resourceId)).rpt;
});
afterAll(() => server.close());

describe('VPN activation', () => {
  it('creates the gateway of the device in the activation', async () => {
    const { orgA } = tenants;
    const [key] = await seedDemoLicenses(server.database.db, orgA.id, 1, { vpn: true });
    const activated = await call(
      'POST',
      `/svc/license/api/v1/organizations/${orgA.id}/deviceLicenses/vpn/activate`,
      rptA,
      {
        activationKey: key,
        label: 'Line 3/router',
      },
    );
    expect(activated.statusCode).toBe(201);
    const deviceId = activated.json().device.id as string;
    const gateway = await gatewayByName(server.database.db, orgA.id, 'Line 3-router');
    expect(gateway).toMatchObject({ deviceId, status: 'OFFLINE', lanNetwork: null, agentSecretHash: null });
    const answer = await call('GET', `${gatewaysOf(orgA.resourceId)}/Line 3-router`, rptA);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({
      deviceId,
      domain: orgA.resourceId,
      configured: false,
      networkSize: null,
    });
  });

  it('does not make a gateway for a plain device licence', async () => {
    const { orgA } = tenants;
    const [key] = await seedDemoLicenses(server.database.db, orgA.id, 1);
    const activated = await call(
      'POST',
      `/svc/license/api/v1/organizations/${orgA.id}/deviceLicenses/activate`,
      rptA,
      {
        activationKey: key,
        label: 'sensor-1',
      },
    );
    expect(activated.statusCode).toBe(201);
    expect(await gatewayByName(server.database.db, orgA.id, 'sensor-1')).toBeUndefined();
  });
});

describe('gateways', () => {
  it('lists the gateways of a domain with the Date header, pages and searches', async () => {
    const { orgA } = tenants;
    const answer = await call('GET', `${gatewaysOf(orgA.resourceId)}?pageSize=50`, readerA);
    expect(answer.statusCode).toBe(200);
    const date = answer.headers.date;
    expect(typeof date).toBe('string');
    expect(Math.abs(Date.parse(String(date)) - Date.now())).toBeLessThan(60_000);
    const page = answer.json();
    const names = page.items.map((gateway: { name: string }) => gateway.name);
    expect(names).toContain('Plant gateway');
    expect(names).not.toContain('B gateway');
    const plantView = page.items.find((gateway: { name: string }) => gateway.name === 'Plant gateway');
    expect(plantView).toMatchObject({
      lanNetwork: '192.168.10.0/24',
      networkSize: 254,
      endpointCount: 2,
      otpRequired: false,
      profileId: plant.profileId,
      status: 'OFFLINE',
      configured: false,
    });
    const searched = (await call('GET', `${gatewaysOf(orgA.id)}?search=spare&pageSize=1`, rptA)).json();
    expect(searched).toMatchObject({ total: 1, pageSize: 1, items: [{ name: 'Spare gateway' }] });
    const online = (await call('GET', `${gatewaysOf(orgA.id)}?status=ONLINE`, rptA)).json();
    expect(online.total).toBe(0);
  });

  it('refuses unknown domains and gateways, another tenant and a VPN-disabled organization', async () => {
    const { orgA, orgB } = tenants;
    expect((await call('GET', gatewaysOf('nowhere'), rptA)).statusCode).toBe(404);
    const unknown = await call('GET', `${gatewaysOf(orgA.id)}/nope`, rptA);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toContain("gateway 'nope'");
    expect([403, 404]).toContain((await call('GET', gatewaysOf(orgB.id), rptA)).statusCode);
    expect([403, 404]).toContain(
      (await call('GET', `${gatewaysOf(orgA.id)}/Plant gateway`, rptB)).statusCode,
    );
    // B's admin naming B's domain cannot reach A's gateway by name.
    expect((await call('GET', `${gatewaysOf(orgB.id)}/Plant gateway`, rptB)).statusCode).toBe(404);
    const off = await call('GET', gatewaysOf('acme-novpn'), rptNoVpn);
    expect(off.statusCode).toBe(403);
    expect(off.json().message).toBe('VPN is not enabled for this organization');
    expect((await call('GET', `${gatewaysOf('acme-novpn')}/Hidden`, rptNoVpn)).statusCode).toBe(403);
    expect((await call('GET', gatewaysOf(orgA.id))).statusCode).toBe(401);
  });

  it("sets the position on the gateway's device", async () => {
    const { orgA } = tenants;
    const url = `${gatewaysOf(orgA.id)}/Plant gateway/position?latitude=48.1&longitude=11.5`;
    const answer = await call('POST', url, rptA);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ latitude: 48.1, longitude: 11.5 });
    const [device] = await server.database.db.select().from(devices).where(eq(devices.id, plant.deviceId));
    expect(device).toMatchObject({ latitude: 48.1, longitude: 11.5 });
    const bad = await call(
      'POST',
      `${gatewaysOf(orgA.id)}/Plant gateway/position?latitude=91&longitude=0`,
      rptA,
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('latitude');
    expect((await call('POST', url.replace('48.1', '10'), readerA)).statusCode).toBe(403);
    expect([403, 404]).toContain((await call('POST', url.replace('48.1', '10'), rptB)).statusCode);
    const [after] = await server.database.db.select().from(devices).where(eq(devices.id, plant.deviceId));
    expect(after?.latitude).toBe(48.1);
    expect(await auditActions(orgA.id)).toContain('gateways.position');
  });

  it('patches description, LAN, profile and IP filter', async () => {
    const { orgA } = tenants;
    const url = `${gatewaysOf(orgA.id)}/Spare gateway`;
    const answer = await call('PATCH', url, rptA, {
      description: 'Backup line',
      lanNetwork: '192.168.20.7/24',
      profileId: plant.profileId,
      ipFilter: ['203.0.113.0/24', '2001:db8::/32'],
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({
      description: 'Backup line',
      lanNetwork: '192.168.20.0/24',
      networkSize: 254,
      profileId: plant.profileId,
      ipFilter: ['203.0.113.0/24', '2001:db8::/32'],
    });
    const cleared = await call('PATCH', url, rptA, { profileId: null, ipFilter: [] });
    expect(cleared.json()).toMatchObject({ profileId: null, ipFilter: [] });
    const logs = await server.database.db
      .select()
      .from(gatewayLogs)
      .where(eq(gatewayLogs.gatewayId, spare.id));
    expect(logs.some((line) => line.message.startsWith('configuration changed'))).toBe(true);
  });

  it('refuses bad patches naming the field, and changes nothing', async () => {
    const { orgA, orgB } = tenants;
    const url = `${gatewaysOf(orgA.id)}/Plant gateway`;
    const before = await state(plant.id);
    const cases: [unknown, number, string][] = [
      [{ lanNetwork: '192.168.10.0/33' }, 400, 'body/lanNetwork'],
      [{ lanNetwork: '127.0.0.0/8' }, 400, 'body/lanNetwork'],
      [{ lanNetwork: 'lan' }, 400, 'body/lanNetwork'],
      [{ ipFilter: ['10.0.0.0/8', 'not-an-ip'] }, 400, 'body/ipFilter/1'],
      [{ profileId: '00000000-0000-4000-8000-000000000000' }, 404, 'body/profileId'],
      [{ profileId: 'x' }, 400, 'profileId'],
      [{ secret: 1 }, 400, 'secret'],
      [{}, 400, 'body'],
      // The HMI and PLC would lie outside this LAN.
      [{ lanNetwork: '10.5.0.0/16' }, 409, "'HMI', 'PLC'"],
      [{ lanNetwork: null }, 409, 'lanNetwork'],
    ];
    for (const [body, status, field] of cases) {
      const answer = await call('PATCH', url, rptA, body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(status);
      expect(answer.json().message).toContain(field);
    }
    // Another tenant's profile is not found.
    const foreignProfile = await seedGateway(server.database.db, orgB.id, {
      name: 'B other',
      profile: { name: 'B profile' },
    });
    const crossProfile = await call('PATCH', url, rptA, { profileId: foreignProfile.profileId });
    expect(crossProfile.statusCode).toBe(404);
    expect((await call('PATCH', url, readerA, { description: 'x' })).statusCode).toBe(403);
    expect([403, 404]).toContain((await call('PATCH', url, rptB, { description: 'x' })).statusCode);
    expect(
      (await call('PATCH', `${gatewaysOf(orgB.id)}/Plant gateway`, rptB, { description: 'x' })).statusCode,
    ).toBe(404);
    expect(await state(plant.id)).toEqual(before);
  });

  it('clones profile, IP filter and the endpoints that fit onto the target', async () => {
    const { orgA, orgB } = tenants;
    const { db } = server.database;
    await db
      .update(gateways)
      .set({ ipFilter: ['198.51.100.0/24'] })
      .where(eq(gateways.id, plant.id));
    await db
      .update(vpnEndpoints)
      .set({ address: '192.168.10.200' })
      .where(and(eq(vpnEndpoints.gatewayId, plant.id), eq(vpnEndpoints.name, 'PLC')));
    const target = await seedGateway(db, orgA.id, { name: 'Clone target', lanNetwork: '192.168.10.0/25' });
    const answer = await call('POST', `${gatewaysOf(orgA.id)}/Plant gateway/clone/Clone target`, rptA);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({
      name: 'Clone target',
      profileId: plant.profileId,
      ipFilter: ['198.51.100.0/24'],
      endpointCount: 1,
    });
    // 192.168.10.200 lies outside the target's /25: only the HMI is copied.
    expect((await endpointRows(target.id)).map((row) => [row.name, row.address])).toEqual([
      ['HMI', '192.168.10.20'],
    ]);
    expect(await auditActions(orgA.id)).toContain('gateways.clone');
    // Refusals: unknown target, itself, another tenant's target or caller, a reader.
    const targetBefore = await state(target.id);
    expect((await call('POST', `${gatewaysOf(orgA.id)}/Plant gateway/clone/nope`, rptA)).statusCode).toBe(
      404,
    );
    expect(
      (await call('POST', `${gatewaysOf(orgA.id)}/Plant gateway/clone/B gateway`, rptA)).statusCode,
    ).toBe(404);
    expect(
      (await call('POST', `${gatewaysOf(orgA.id)}/Plant gateway/clone/Plant gateway`, rptA)).statusCode,
    ).toBe(400);
    expect(
      (await call('POST', `${gatewaysOf(orgA.id)}/Plant gateway/clone/Clone target`, readerA)).statusCode,
    ).toBe(403);
    expect([403, 404]).toContain(
      (await call('POST', `${gatewaysOf(orgA.id)}/Plant gateway/clone/Clone target`, rptB)).statusCode,
    );
    expect((await call('POST', `${gatewaysOf(orgB.id)}/B gateway/clone/Clone target`, rptB)).statusCode).toBe(
      404,
    );
    expect(await state(target.id)).toEqual(targetBefore);
    expect((await endpointRows(foreign.id)).length).toBe(1);
  });
});

describe('edge configuration file', () => {
  it('issues a new agent secret with every file', async () => {
    const { orgA } = tenants;
    const disconnect = vi.spyOn(server.app.tunnels, 'disconnect');
    const url = `${gatewaysOf(orgA.id)}/Plant gateway/edge-config-file`;
    const first = await call('POST', url, rptA, { activationKey: plant.activationKey });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-disposition']).toBe(
      'attachment; filename="edgeport-gateway-Plant_gateway.json"',
    );
    const file = first.json();
    expect(file).toMatchObject({
      version: 1,
      server: 'http://localhost:8080',
      tunnelUrl: 'ws://localhost:8080/tunnel',
      gatewayId: plant.id,
      name: 'Plant gateway',
      domain: orgA.resourceId,
      lanNetwork: '192.168.10.0/24',
    });
    const sha = (secret: string) => createHash('sha256').update(secret).digest('hex');
    expect((await gatewayRow(plant.id))?.agentSecretHash).toBe(sha(file.secret));
    expect(disconnect).toHaveBeenCalledWith(plant.id, expect.any(String));
    const second = (await call('POST', url, rptA, { activationKey: plant.activationKey })).json();
    expect(second.secret).not.toBe(file.secret);
    expect((await gatewayRow(plant.id))?.agentSecretHash).toBe(sha(second.secret));
    expect((await call('GET', `${gatewaysOf(orgA.id)}/Plant gateway`, rptA)).json().configured).toBe(true);
    const audit = await server.database.db
      .select({ detail: auditLog.detail })
      .from(auditLog)
      .where(eq(auditLog.action, 'gateways.edgeConfig'));
    expect(JSON.stringify(audit)).not.toContain(second.secret);
    disconnect.mockRestore();
  });

  it('refuses a malformed key (400), a key of another device (404), a reader and another tenant', async () => {
    const { orgA, orgB } = tenants;
    const url = `${gatewaysOf(orgA.id)}/Plant gateway/edge-config-file`;
    const before = (await gatewayRow(plant.id))?.agentSecretHash;
    const malformed = await call('POST', url, rptA, { activationKey: 'EP-1234' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toContain('activationKey');
    const other = await call('POST', url, rptA, { activationKey: spare.activationKey });
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe('activationKey: not the activation key of this gateway');
    expect((await call('POST', url, rptA, { activationKey: foreign.activationKey })).statusCode).toBe(404);
    expect((await call('POST', url, readerA, { activationKey: plant.activationKey })).statusCode).toBe(403);
    expect([403, 404]).toContain(
      (await call('POST', url, rptB, { activationKey: plant.activationKey })).statusCode,
    );
    expect(
      (
        await call('POST', `${gatewaysOf(orgB.id)}/Plant gateway/edge-config-file`, rptB, {
          activationKey: plant.activationKey,
        })
      ).statusCode,
    ).toBe(404);
    expect((await gatewayRow(plant.id))?.agentSecretHash).toBe(before);
  });
});

describe('gateway logs', () => {
  it('filters system lines and the time range, newest first, with a limit', async () => {
    const { orgA } = tenants;
    const { db } = server.database;
    const base = Date.UTC(2030, 0, 1);
    await db.insert(gatewayLogs).values(
      Array.from({ length: 6 }, (_, index) => ({
        organizationId: orgA.id,
        gatewayId: spare.id,
        at: new Date(base + index * 1000),
        message: `line ${index}`,
        system: index % 2 === 1,
      })),
    );
    const logsUrl = `${gatewaysOf(orgA.id)}/Spare gateway/logs`;
    const range = `fromTimestamp=${base}&toTimestamp=${base + 5000}`;
    const visible = (await call('GET', `${logsUrl}?${range}`, readerA)).json();
    expect(visible.items.map((line: { message: string }) => line.message)).toEqual([
      'line 4',
      'line 2',
      'line 0',
    ]);
    const all = (await call('GET', `${logsUrl}?${range}&showSystem=true`, readerA)).json();
    expect(all.items.map((line: { message: string }) => line.message)).toEqual([
      'line 4',
      'line 3',
      'line 2',
      'line 1',
      'line 0',
    ]);
    const limited = (await call('GET', `${logsUrl}?${range}&showSystem=true&limit=2`, readerA)).json();
    expect(limited.items.map((line: { message: string }) => line.message)).toEqual(['line 4', 'line 3']);
    const everything = (await call('GET', logsUrl, readerA)).json();
    expect(everything.items[0].message).toBe('line 4');
    expect((await call('GET', `${logsUrl}?limit=1001`, readerA)).statusCode).toBe(400);
    expect(
      (await call('GET', `${logsUrl}?fromTimestamp=${base + 10}&toTimestamp=${base}`, readerA)).statusCode,
    ).toBe(400);
    expect([403, 404]).toContain((await call('GET', logsUrl, rptB)).statusCode);
  });
});

describe('reset VPN connection', () => {
  it('drops the tunnel, logs and audits it', async () => {
    const { orgA, orgB } = tenants;
    const disconnect = vi.spyOn(server.app.tunnels, 'disconnect').mockReturnValue(true);
    const answer = await call(
      'GET',
      `${vpn2}/gateways/Plant gateway/${orgA.resourceId}/resetVpnConnection`,
      rptA,
    );
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ gateway: 'Plant gateway', reset: true });
    expect(disconnect).toHaveBeenCalledWith(plant.id, `reset by ${tenants.adminA.email}`);
    const lines = await server.database.db
      .select()
      .from(gatewayLogs)
      .where(eq(gatewayLogs.gatewayId, plant.id));
    expect(lines.some((line) => line.message === `VPN connection reset by ${tenants.adminA.email}`)).toBe(
      true,
    );
    expect(await auditActions(orgA.id)).toContain('gateways.reset');
    disconnect.mockClear();
    const url = `${vpn2}/gateways/Plant gateway/${orgA.resourceId}/resetVpnConnection`;
    expect((await call('GET', url, readerA)).statusCode).toBe(403);
    expect([403, 404]).toContain((await call('GET', url, rptB)).statusCode);
    expect(
      (await call('GET', `${vpn2}/gateways/Plant gateway/${orgB.resourceId}/resetVpnConnection`, rptB))
        .statusCode,
    ).toBe(404);
    expect(
      (await call('GET', `${vpn2}/gateways/Hidden/acme-novpn/resetVpnConnection`, rptNoVpn)).statusCode,
    ).toBe(403);
    expect(disconnect).not.toHaveBeenCalled();
    disconnect.mockRestore();
    expect(noVpnGateway.name).toBe('Hidden');
  });
});

describe('endpoints', () => {
  it('lists the endpoints of a domain or one gateway', async () => {
    const { orgA } = tenants;
    const all = await call('POST', `${vpn2}/endpoints`, readerA, { domain: orgA.resourceId });
    expect(all.statusCode).toBe(200);
    const names = all
      .json()
      .items.map((item: { gateway: string; name: string }) => `${item.gateway}/${item.name}`);
    expect(names).toContain('Plant gateway/HMI');
    expect(names).not.toContain('B gateway/HMI');
    const one = (
      await call('POST', `${vpn2}/endpoints`, readerA, { domain: orgA.id, gateway: 'Plant gateway' })
    ).json();
    expect(one.items.map((item: { name: string }) => item.name)).toEqual(['HMI', 'PLC']);
    expect(one.items[0]).toMatchObject({
      domain: orgA.resourceId,
      source: 'PORTAL',
      protocol: 'HTTP',
      port: 80,
    });
    const searched = (
      await call('POST', `${vpn2}/endpoints`, readerA, { domain: orgA.id, search: 'hm' })
    ).json();
    expect(
      searched.items.map((item: { gateway: string; name: string }) => `${item.gateway}/${item.name}`),
    ).toEqual(['Clone target/HMI', 'Plant gateway/HMI']);
    expect(
      (await call('POST', `${vpn2}/endpoints`, readerA, { domain: orgA.id, gateway: 'nope' })).statusCode,
    ).toBe(404);
    expect([403, 404]).toContain(
      (await call('POST', `${vpn2}/endpoints`, rptB, { domain: orgA.id })).statusCode,
    );
  });

  it('creates an endpoint inside the LAN, refusing bad addresses, duplicates and foreign callers', async () => {
    const { orgA, orgB } = tenants;
    const create = (token: string, body: Record<string, unknown>) =>
      call('POST', `${vpn2}/endpoints/`, token, body);
    const body = {
      domain: orgA.resourceId,
      gateway: 'Plant gateway',
      name: 'VNC',
      address: '192.168.10.40',
      protocol: 'TCP',
      port: 5900,
    };
    const before = await state(plant.id);
    const refused: [Record<string, unknown>, number, string][] = [
      [{ ...body, address: '192.168.11.4' }, 400, "body/address: 192.168.11.4 is outside the gateway's LAN"],
      [{ ...body, address: '127.0.0.1' }, 400, 'body/address: 127.0.0.1 is in a forbidden range'],
      [{ ...body, address: '169.254.169.254' }, 400, 'body/address: 169.254.169.254 is in a forbidden range'],
      [
        { ...body, address: '192.168.10.255' },
        400,
        'body/address: 192.168.10.255 is the network or broadcast',
      ],
      [{ ...body, address: '192.168.010.4' }, 400, 'body/address'],
      [{ ...body, port: 70000 }, 400, 'body/port'],
      [{ ...body, protocol: 'UDP' }, 400, 'body/protocol'],
      [{ ...body, name: 'HMI' }, 409, 'name'],
      [{ ...body, gateway: 'nope' }, 404, "gateway 'nope'"],
      [{ ...body, domain: 'nowhere' }, 404, 'nowhere'],
      [{ ...body, gateway: 'B gateway' }, 404, "gateway 'B gateway'"],
    ];
    for (const [input, status, message] of refused) {
      const answer = await create(rptA, input);
      expect(answer.statusCode, JSON.stringify(input)).toBe(status);
      expect(answer.json().message).toContain(message);
    }
    expect((await create(readerA, body)).statusCode).toBe(403);
    expect([403, 404]).toContain((await create(rptB, body)).statusCode);
    expect((await create(rptB, { ...body, domain: orgB.resourceId })).statusCode).toBe(404);
    expect(await state(plant.id)).toEqual(before);
    // A gateway without a LAN takes no endpoints yet.
    const noLan = await create(rptA, { ...body, gateway: 'Line 3-router' });
    expect(noLan.statusCode).toBe(400);
    expect(noLan.json().message).toContain('set lanNetwork first');

    const created = await create(rptA, body);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      name: 'VNC',
      gateway: 'Plant gateway',
      address: '192.168.10.40',
      port: 5900,
    });
    expect(await endpointByName(server.database.db, plant.id, 'VNC')).toBeDefined();
    expect(await auditActions(orgA.id)).toContain('vpnEndpoints.create');
    // The list route and the create route differ by the trailing slash.
    expect((await call('POST', `${vpn2}/endpoints`, rptA, body)).statusCode).toBe(400);
  });

  it('deletes an endpoint; unknown names 404, foreign callers and readers are refused', async () => {
    const { orgA, orgB } = tenants;
    const url = (endpoint: string, gateway: string, domain: string) =>
      `${vpn2}/endpoints/${endpoint}/${gateway}/${domain}`;
    expect((await call('DELETE', url('nope', 'Plant gateway', orgA.id), rptA)).statusCode).toBe(404);
    expect((await call('DELETE', url('VNC', 'nope', orgA.id), rptA)).statusCode).toBe(404);
    expect((await call('DELETE', url('VNC', 'Plant gateway', orgA.id), readerA)).statusCode).toBe(403);
    expect([403, 404]).toContain(
      (await call('DELETE', url('VNC', 'Plant gateway', orgA.id), rptB)).statusCode,
    );
    expect((await call('DELETE', url('HMI', 'Plant gateway', orgB.id), rptB)).statusCode).toBe(404);
    expect((await call('DELETE', url('HMI', 'B gateway', orgA.id), rptA)).statusCode).toBe(404);
    expect(await endpointByName(server.database.db, plant.id, 'VNC')).toBeDefined();
    expect((await endpointRows(foreign.id)).length).toBe(1);
    const deleted = await call('DELETE', url('VNC', 'Plant gateway', orgA.resourceId), rptA);
    expect(deleted.statusCode).toBe(204);
    expect(await endpointByName(server.database.db, plant.id, 'VNC')).toBeUndefined();
    expect(await auditActions(orgA.id)).toContain('vpnEndpoints.delete');
  });
});
