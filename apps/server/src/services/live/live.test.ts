import { eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { caller } from '../../../test/support/calls.ts';
import { activatedDevice, testPreset } from '../../../test/support/devices.ts';
import { seedTenants, userWithRole } from '../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { decodePayload, rptFor, signWith } from '../../../test/support/tokens.ts';
import { roles } from '../../db/schema.ts';
import { addMember, createRole } from '../core/organizations/provisioning.ts';

const REALM = 'live';
let server: TestServer;
let httpPort: number;
let mqttPort: number;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let device: { deviceId: string; password: string };
let adminRpt: string;

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server, REALM);
  const preset = await testPreset(server, tenants.orgA.id);
  device = await activatedDevice(server, tenants.orgA.id, 'Line 1', preset.id);
  mqttPort = await server.app.ingest.listen(0, '127.0.0.1');
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  httpPort = typeof address === 'object' && address ? address.port : 0;
  adminRpt = (await rptFor(server, REALM, tenants.adminA.email, tenants.orgA.resourceId)).rpt;
});
afterAll(() => server.close());

type Message = { type: string; [key: string]: unknown };

/** A browser-like live connection that collects what the server sends. */
async function liveConnection() {
  const socket = new WebSocket(`ws://127.0.0.1:${httpPort}/svc/live`, {
    headers: { host: `${REALM}.app.localhost` },
  });
  const received: Message[] = [];
  let closeCode: number | undefined;
  socket.on('message', (data) => received.push(JSON.parse(data.toString()) as Message));
  socket.on('close', (code) => {
    closeCode = code;
  });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return {
    socket,
    received,
    closeCode: () => closeCode,
    send: (message: unknown) => socket.send(JSON.stringify(message)),
    next: (type: string) =>
      expect.poll(() => received.find((message) => message.type === type), { timeout: 5000 }).toBeTruthy(),
  };
}

async function publish(values: Record<string, unknown>) {
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
    clientId: device.deviceId,
    username: device.deviceId,
    password: device.password,
    reconnectPeriod: 0,
  });
  await client.publishAsync(`devices/${device.deviceId}/data`, JSON.stringify({ values }), { qos: 1 });
  return client;
}

describe('live feed /svc/live', () => {
  it('sends a subscribed device its stored values and status changes', async () => {
    const live = await liveConnection();
    live.send({ type: 'auth', token: adminRpt, organization: tenants.orgA.id });
    await live.next('ready');
    live.send({ type: 'subscribe', deviceIds: [device.deviceId] });
    const client = await publish({ LineSpeed: 99.5, MotorTemp: 700 });
    await expect
      .poll(() =>
        live.received.find(
          (m) => m.type === 'values' && (m.values as Record<string, unknown>)['/line/speed'] === 99.5,
        ),
      )
      .toMatchObject({
        deviceId: device.deviceId,
        values: { '/line/speed': 99.5, '/motor/temperature': 70 },
      });
    await client.endAsync();
    await expect
      .poll(() => live.received.find((m) => m.type === 'status' && m.status === 'OFFLINE'))
      .toMatchObject({ deviceId: device.deviceId });
    live.socket.close();
  });

  it('refuses a socket without a valid token, and devices of another organization', async () => {
    const anonymous = await liveConnection();
    anonymous.send({ type: 'subscribe', deviceIds: [device.deviceId] });
    await expect.poll(() => anonymous.closeCode()).toBe(4401);

    const forged = await liveConnection();
    forged.send({ type: 'auth', token: 'not-a-token', organization: tenants.orgA.id });
    await expect.poll(() => forged.closeCode()).toBe(4401);

    const adminB = await rptFor(server, REALM, tenants.adminB.email, tenants.orgB.resourceId);
    const wrongOrg = await liveConnection();
    wrongOrg.send({ type: 'auth', token: adminB.rpt, organization: tenants.orgA.id });
    await expect.poll(() => wrongOrg.closeCode()).toBe(4403);

    const otherTenant = await liveConnection();
    otherTenant.send({ type: 'auth', token: adminB.rpt, organization: tenants.orgB.id });
    await otherTenant.next('ready');
    otherTenant.send({ type: 'subscribe', deviceIds: [device.deviceId] });
    await expect
      .poll(() => otherTenant.received.find((m) => m.type === 'error'))
      .toMatchObject({ deviceIds: [device.deviceId] });
    const client = await publish({ LineSpeed: 12 });
    await client.endAsync();
    expect(otherTenant.received.filter((m) => m.type === 'values')).toHaveLength(0);
    otherTenant.socket.close();
  });

  it('answers a malformed message with an error naming the problem', async () => {
    const live = await liveConnection();
    live.send({ type: 'subscribe', deviceIds: ['not-a-uuid'] });
    await expect.poll(() => live.received.find((m) => m.type === 'error')?.message).toMatch(/deviceIds/);
    live.socket.close();
  });
});

describe('re-authentication of an open socket', () => {
  /** The values messages received since the `ready` numbered `readyIndex` (0 = the first). */
  function valuesSince(received: Message[], readyIndex: number) {
    const readies = received.flatMap((message, index) => (message.type === 'ready' ? [index] : []));
    const from = readies[readyIndex];
    if (from === undefined) return [];
    return received
      .slice(from)
      .filter((message) => message.type === 'values')
      .map((message) => message.values as Record<string, unknown>);
  }

  it("uses the refreshed token the browser sends over the open socket: its expiry, the user's data roles now", async () => {
    const email = 'refresher@live.test';
    const user = await userWithRole(server, REALM, tenants.orgA.id, email, [
      { rsname: 'portal', scopes: ['ACCESS'] },
      { rsname: 'devices', scopes: ['READ'] },
    ]);
    const { rpt } = await rptFor(server, REALM, email, tenants.orgA.resourceId);
    const key = (await server.app.realms.get(REALM))?.signingKey ?? {};
    const claims = decodePayload(rpt);
    const nowSeconds = () => Math.floor(Date.now() / 1000);
    // The permission token the socket opens with runs out in 4 to 5 s.
    const expiring = await signWith(key, claims, nowSeconds() + 5);

    const refreshing = await liveConnection();
    const control = await liveConnection();
    for (const session of [refreshing, control]) {
      session.send({ type: 'auth', token: expiring, organization: tenants.orgA.id });
      await session.next('ready');
    }
    refreshing.send({ type: 'subscribe', deviceIds: [device.deviceId] });
    let client = await publish({ LineSpeed: 201, MotorTemp: 701 });
    await client.endAsync();
    // No data role yet: every path.
    await expect
      .poll(() => valuesSince(refreshing.received, 0).find((values) => values['/line/speed'] === 201))
      .toMatchObject({ '/motor/temperature': 70.1 });

    // The user is given a data role that reads only /line; the browser refreshes its permission token and sends it.
    const dataRole = await createRole(server.database.db, tenants.orgA.id, 'Refresher lines', []);
    await server.database.db
      .update(roles)
      .set({ kind: 'data', modelPathPermissions: [{ path: '/line', read: true, write: false }] })
      .where(eq(roles.id, dataRole.id));
    await addMember(server.database.db, tenants.orgA.id, user.id, [dataRole.id]);
    const refreshed = await signWith(key, claims, nowSeconds() + 300);
    refreshing.send({ type: 'auth', token: refreshed, organization: tenants.orgA.id });
    await expect
      .poll(() => refreshing.received.filter((message) => message.type === 'ready'))
      .toEqual([
        { type: 'ready', organizationId: tenants.orgA.id },
        { type: 'ready', organizationId: tenants.orgA.id },
      ]);

    // The subscription stays; the values now carry only the paths the data role reads.
    client = await publish({ LineSpeed: 202, MotorTemp: 702 });
    await client.endAsync();
    await expect
      .poll(() => valuesSince(refreshing.received, 1).find((values) => values['/line/speed'] === 202))
      .toBeTruthy();
    expect(valuesSince(refreshing.received, 1).filter((values) => '/motor/temperature' in values)).toEqual(
      [],
    );

    // The first token's expiry closes the socket that kept it, not the one that sent the refreshed token.
    await expect.poll(() => control.closeCode(), { timeout: 8_000, interval: 100 }).toBe(4401);
    expect(refreshing.closeCode()).toBeUndefined();
    client = await publish({ LineSpeed: 203 });
    await client.endAsync();
    await expect
      .poll(() => valuesSince(refreshing.received, 1).find((values) => values['/line/speed'] === 203))
      .toBeTruthy();

    // A token sent later is checked like the first: an expired one closes the socket (4401).
    refreshing.send({
      type: 'auth',
      token: await signWith(key, claims, nowSeconds() - 60),
      organization: tenants.orgA.id,
    });
    await expect.poll(() => refreshing.closeCode()).toBe(4401);
  });
});

describe('latest values and set-points', () => {
  const call = () => caller(server, REALM);

  it('lists the latest values with their model type, unit and whether they are writable', async () => {
    const client = await publish({ SpeedSetpoint: 80, LineSpeed: 101 });
    await client.endAsync();
    const response = await call()(
      'GET',
      `/svc/platform/api/v1/organizations/${tenants.orgA.id}/devices/${device.deviceId}/values`,
      adminRpt,
    );
    expect(response.statusCode).toBe(200);
    const values = response.json().values as { path: string; unit: string | null; writable: boolean }[];
    expect(values.find((v) => v.path === '/line/speed')).toMatchObject({ unit: 'pcs/min', writable: false });
    expect(values.find((v) => v.path === '/setpoints/speed')).toMatchObject({ writable: true });
  });

  it('sends a set-point to the device on its own topic', async () => {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
      clientId: device.deviceId,
      username: device.deviceId,
      password: device.password,
      reconnectPeriod: 0,
    });
    await client.subscribeAsync(`devices/${device.deviceId}/setpoints`, { qos: 1 });
    const received = new Promise<Record<string, unknown>>((resolve) =>
      client.once('message', (_topic, payload) => resolve(JSON.parse(payload.toString()))),
    );
    const response = await call()(
      'POST',
      `/svc/platform/api/v1/organizations/${tenants.orgA.id}/devices/${device.deviceId}/values`,
      adminRpt,
      { path: '/setpoints/speed', value: 150 },
    );
    expect(response.statusCode).toBe(202);
    expect(response.json()).toMatchObject({ tag: 'SpeedSetpoint', deviceOnline: true });
    expect(await received).toMatchObject({ tag: 'SpeedSetpoint', path: '/setpoints/speed', value: 150 });
    await client.endAsync();
  });

  it('refuses read-only paths, out-of-range and mistyped values, and other tenants', async () => {
    const url = `/svc/platform/api/v1/organizations/${tenants.orgA.id}/devices/${device.deviceId}/values`;
    const readOnly = await call()('POST', url, adminRpt, { path: '/line/speed', value: 1 });
    expect(readOnly.statusCode).toBe(400);
    expect(readOnly.json().message).toContain("'/line/speed' is not writable");
    expect(
      (await call()('POST', url, adminRpt, { path: '/setpoints/speed', value: 500 })).json().message,
    ).toBe('body/value must be <= 200');
    expect(
      (await call()('POST', url, adminRpt, { path: '/setpoints/speed', value: 'fast' })).statusCode,
    ).toBe(400);
    // A boolean stays a boolean: the value schema is one type list, so type coercion cannot turn true into 1.
    expect((await call()('POST', url, adminRpt, { path: '/setpoints/speed', value: true })).statusCode).toBe(
      400,
    );
    const adminB = await rptFor(server, REALM, tenants.adminB.email, tenants.orgB.resourceId);
    const foreign = `/svc/platform/api/v1/organizations/${tenants.orgB.id}/devices/${device.deviceId}/values`;
    expect(
      (await call()('POST', foreign, adminB.rpt, { path: '/setpoints/speed', value: 1 })).statusCode,
    ).toBe(404);
  });

  it('lets a data role without write on the path read but not write it', async () => {
    const operator = await userWithRole(server, REALM, tenants.orgA.id, 'operator@live.test', [
      { rsname: 'portal', scopes: ['ACCESS'] },
      { rsname: 'devices', scopes: ['READ', 'UPDATE'] },
    ]);
    const dataRole = await createRole(server.database.db, tenants.orgA.id, 'Line readers', []);
    await server.database.db
      .update(roles)
      .set({ kind: 'data', modelPathPermissions: [{ path: '/line', read: true, write: false }] })
      .where(eq(roles.id, dataRole.id));
    await addMember(server.database.db, tenants.orgA.id, operator.id, [dataRole.id]);
    const { rpt } = await rptFor(server, REALM, 'operator@live.test', tenants.orgA.resourceId);
    const url = `/svc/platform/api/v1/organizations/${tenants.orgA.id}/devices/${device.deviceId}/values`;
    const read = await call()('GET', url, rpt);
    expect(read.statusCode).toBe(200);
    expect((read.json().values as { path: string }[]).map((v) => v.path).sort()).toEqual(['/line/speed']);
    const write = await call()('POST', url, rpt, { path: '/setpoints/speed', value: 10 });
    expect(write.statusCode).toBe(403);
  });
});

describe('live alarm changes', () => {
  it('sends every alarm change of the organization to its sessions, without a subscription', async () => {
    const call = caller(server, REALM);
    const rule = await call('POST', `/svc/alarms/api/v1/rules?organization=${tenants.orgA.id}`, adminRpt, {
      name: 'Live hot',
      deviceId: device.deviceId,
      condition: { kind: 'threshold', path: '/motor/temperature', operator: '>', value: 90 },
      severity: 'CRITICAL',
      ackRequired: true,
    });
    expect(rule.statusCode, rule.body).toBe(201);
    const speedRule = await call(
      'POST',
      `/svc/alarms/api/v1/rules?organization=${tenants.orgA.id}`,
      adminRpt,
      {
        name: 'Live fast',
        deviceId: device.deviceId,
        condition: { kind: 'threshold', path: '/line/speed', operator: '>', value: 500 },
        severity: 'MINOR',
      },
    );
    expect(speedRule.statusCode, speedRule.body).toBe(201);

    const live = await liveConnection();
    live.send({ type: 'auth', token: adminRpt, organization: tenants.orgA.id });
    await live.next('ready');
    // A member whose data role reads only /line: no alarm on /motor reaches them.
    const lineReader = await userWithRole(server, REALM, tenants.orgA.id, 'line-reader@live.test', [
      { rsname: 'portal', scopes: ['ACCESS'] },
      { rsname: 'devices', scopes: ['READ'] },
    ]);
    const dataRole = await createRole(server.database.db, tenants.orgA.id, 'Line only', []);
    await server.database.db
      .update(roles)
      .set({ kind: 'data', modelPathPermissions: [{ path: '/line', read: true, write: false }] })
      .where(eq(roles.id, dataRole.id));
    await addMember(server.database.db, tenants.orgA.id, lineReader.id, [dataRole.id]);
    const restricted = await liveConnection();
    restricted.send({
      type: 'auth',
      token: (await rptFor(server, REALM, 'line-reader@live.test', tenants.orgA.resourceId)).rpt,
      organization: tenants.orgA.id,
    });
    await restricted.next('ready');
    const adminB = await rptFor(server, REALM, tenants.adminB.email, tenants.orgB.resourceId);
    const otherTenant = await liveConnection();
    otherTenant.send({ type: 'auth', token: adminB.rpt, organization: tenants.orgB.id });
    await otherTenant.next('ready');

    const client = await publish({ MotorTemp: 990, LineSpeed: 600 });
    await client.endAsync();
    await expect
      .poll(
        () =>
          live.received.find(
            (m) =>
              m.type === 'alarm' && m.event === 'RAISED' && (m.alarm as { name: string }).name === 'Live hot',
          ),
        {
          timeout: 5000,
        },
      )
      .toMatchObject({
        alarm: {
          deviceId: device.deviceId,
          deviceLabel: 'Line 1',
          severity: 'CRITICAL',
          status: 'ACTIVE',
          ack: 'REQUIRED',
          open: true,
          value: 99,
        },
      });
    const raised = live.received.find(
      (m) => m.type === 'alarm' && (m.alarm as { name: string }).name === 'Live hot',
    );
    const alarmId = (raised?.alarm as { id: string } | undefined)?.id;
    const ack = await call(
      'POST',
      `/svc/alarms/api/v1/alarms/action/ack?organization=${tenants.orgA.id}`,
      adminRpt,
      {
        ids: [alarmId],
      },
    );
    expect(ack.json()).toEqual({ affected: 1 });
    await expect
      .poll(() => live.received.find((m) => m.type === 'alarm' && m.event === 'ACKNOWLEDGED'))
      .toMatchObject({ alarm: { id: alarmId, ack: 'DONE' } });
    await expect
      .poll(() =>
        restricted.received.filter((m) => m.type === 'alarm').map((m) => (m.alarm as { name: string }).name),
      )
      .toContain('Live fast');
    await server.app.alarms.settled();
    expect(
      restricted.received.filter(
        (m) => m.type === 'alarm' && (m.alarm as { name: string }).name === 'Live hot',
      ),
    ).toHaveLength(0);
    expect(otherTenant.received.filter((m) => m.type === 'alarm')).toHaveLength(0);
    for (const session of [live, restricted, otherTenant]) session.socket.close();
  });
});
