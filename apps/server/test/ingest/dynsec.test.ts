import { eq } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/app.ts';
import { deviceLicenses, organizations, telemetry } from '../../src/db/schema.ts';
import { seedDemoLicenses } from '../../src/services/license/demo.ts';
import { caller } from '../support/calls.ts';
import { testPreset } from '../support/devices.ts';
import { seedTenants } from '../support/fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { rptFor } from '../support/tokens.ts';
import { connectDevice, type DynsecMosquitto, startDynsecMosquitto } from './dynsec-mosquitto.ts';

/**
 * MQTT_URL + MQTT_DYNSEC: Debian's Mosquitto with its dynamic-security plugin holds the devices' credentials and topic
 * rights, and Edgeport keeps them as its database says. Every refusal below is Mosquitto's own.
 */
const REALM = 'dynsec';
const NOT_AUTHORIZED = 5;
let mosquitto: DynsecMosquitto;
let server: TestServer;
/** After the restart test, the app built anew on the same database. */
let restarted: App | undefined;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let rpt: string;
let presetId: string;
let keys: string[];
const open: MqttClient[] = [];

const call = () => caller(server, REALM);
const licences = () => `/svc/license/api/v1/organizations/${tenants.orgA.id}/deviceLicenses`;

async function activate(label: string) {
  const response = await call()('POST', `${licences()}/activate`, rpt, {
    activationKey: keys.shift(),
    label,
    presetId,
  });
  expect(response.statusCode, response.body).toBe(201);
  const body = response.json();
  return {
    deviceId: body.device.id as string,
    password: body.credentials.password as string,
    licenceId: body.license.id as string,
  };
}

async function connected(device: { deviceId: string; password: string }): Promise<MqttClient> {
  const client = await connectDevice(mosquitto.url, device);
  if (!('publishAsync' in client)) throw new Error(`refused with ${client.refused}`);
  client.on('error', () => undefined);
  open.push(client);
  return client;
}

const rowsOf = (deviceId: string) =>
  server.database.db.select().from(telemetry).where(eq(telemetry.deviceId, deviceId));

/** Whether Mosquitto lets the device sign in now (the connection is closed again). */
async function signsIn(device: { deviceId: string; password: string }): Promise<boolean> {
  const client = await connectDevice(mosquitto.url, device);
  if (!('endAsync' in client)) return false;
  await client.endAsync();
  return true;
}

/** The SUBACK's granted QoS per topic (128: refused). */
async function granted(client: MqttClient, topics: string[]): Promise<number[]> {
  return client.subscribeAsync(topics, { qos: 1 }).then(
    (grants) => grants.map((grant) => grant.qos),
    (error: { packet?: { granted?: number[] } }) => error.packet?.granted ?? [],
  );
}

beforeAll(async () => {
  mosquitto = await startDynsecMosquitto();
  server = await startTestServer({ mqttUrl: mosquitto.adminUrl, mqttDynsec: true });
  tenants = await seedTenants(server, REALM);
  rpt = (await rptFor(server, REALM, tenants.adminA.email, tenants.orgA.resourceId)).rpt;
  presetId = (await testPreset(server, tenants.orgA.id)).id;
  keys = await seedDemoLicenses(server.database.db, tenants.orgA.id, 10);
}, 60_000);
afterAll(async () => {
  await Promise.all(open.map((client) => client.endAsync(true)));
  await restarted?.close();
  await server?.close();
  await mosquitto?.close();
});

describe('device clients on Mosquitto (MQTT_DYNSEC)', () => {
  it('an activated device signs in to Mosquitto and its values are stored; a wrong secret or client id is refused', async () => {
    const device = await activate('Dynsec line 1');
    const client = await connected(device);
    await client.publishAsync(
      `devices/${device.deviceId}/data`,
      JSON.stringify({ values: { LineSpeed: 12.5 } }),
      {
        qos: 1,
      },
    );
    await expect
      .poll(async () => (await rowsOf(device.deviceId)).map((row) => row.values))
      .toContainEqual({
        '/line/speed': 12.5,
      });

    expect(await connectDevice(mosquitto.url, { ...device, password: `${device.password}x` })).toEqual({
      refused: NOT_AUTHORIZED,
    });
    expect(await connectDevice(mosquitto.url, device, { clientId: `${device.deviceId}-other` })).toEqual({
      refused: NOT_AUTHORIZED,
    });
    expect(
      await connectDevice(mosquitto.url, { deviceId: crypto.randomUUID(), password: device.password }),
    ).toEqual({ refused: NOT_AUTHORIZED });
  });

  it('a device publishes only to its own topics and subscribes to nothing but its set-points', async () => {
    const device = await activate('Dynsec line 2');
    const other = await activate('Dynsec neighbour');
    const client = await connected(device);
    // MQTT 3.1.1 has no negative PUBACK: Mosquitto acknowledges and drops it.
    await client.publishAsync(
      `devices/${other.deviceId}/data`,
      JSON.stringify({ values: { LineSpeed: 1 } }),
      {
        qos: 1,
      },
    );
    expect(
      await granted(client, [
        'edgeport/internal/#',
        `edgeport/internal/${tenants.orgA.id}/live`,
        'devices/+/data',
        `devices/${other.deviceId}/setpoints`,
        `$share/steal/devices/+/data`,
        '#',
        `devices/${device.deviceId}/setpoints`,
      ]),
    ).toEqual([128, 128, 128, 128, 128, 128, 1]);
    const setpoint = new Promise<string>((resolve) =>
      client.once('message', (_topic, payload) => resolve(`${payload}`)),
    );
    await server.app.ingest.sendSetpoint(device.deviceId, {
      id: 's',
      tag: 'SpeedSetpoint',
      path: '/setpoints/speed',
      value: 3,
    });
    expect(JSON.parse(await setpoint)).toMatchObject({ value: 3 });
    await client.publishAsync(
      `devices/${device.deviceId}/data`,
      JSON.stringify({ values: { LineSpeed: 2 } }),
      {
        qos: 1,
      },
    );
    await expect.poll(async () => (await rowsOf(device.deviceId)).length).toBe(1);
    expect(await rowsOf(other.deviceId)).toHaveLength(0);
  });

  it('deleting the device licence disconnects the device and Mosquitto refuses it from then on', async () => {
    const device = await activate('Dynsec deleted licence');
    const client = await connected(device);
    const closed = new Promise((resolve) => client.once('close', () => resolve(undefined)));
    const deleted = await call()('DELETE', `${licences()}/${device.licenceId}`, rpt);
    expect(deleted.statusCode, deleted.body).toBe(204);
    await closed;
    await expect.poll(() => connectDevice(mosquitto.url, device)).toEqual({ refused: NOT_AUTHORIZED });
  });

  it('an expired licence disables the device on Mosquitto', async () => {
    const device = await activate('Dynsec expiring');
    const client = await connected(device);
    const closed = new Promise((resolve) => client.once('close', () => resolve(undefined)));
    server.app.clock.advance(366 * 24 * 3600 * 1000);
    await server.app.licenseExpiry.sweep();
    await closed;
    await expect.poll(() => connectDevice(mosquitto.url, device)).toEqual({ refused: NOT_AUTHORIZED });
  });

  it('a renewed licence lets its expired device sign in again', async () => {
    const { db } = server.database;
    // Organization A deals licences to its sub-organization A1, which holds one with a device.
    await db.update(organizations).set({ dealer: true }).where(eq(organizations.id, tenants.orgA.id));
    const dealer = `/svc/license/api/v1/organizations/${tenants.orgA.id}`;
    const holder = `/svc/license/api/v1/organizations/${tenants.orgA1.id}`;
    const product = await call()('POST', `${dealer}/products`, rpt, {
      code: 'DYN',
      name: 'Device licence',
      resourceType: 'devices',
      quantity: 1,
      termDays: 30,
      priceMinor: 100,
      currency: 'EUR',
    });
    expect(product.statusCode, product.body).toBe(201);
    const issued = await call()('POST', `${dealer}/clients/${tenants.orgA1.id}/licenses`, rpt, {
      productId: product.json().id,
      quantity: 1,
      activate: true,
    });
    expect(issued.statusCode, issued.body).toBe(201);
    const licenceId = issued.json().license.id as string;
    const [key] = await db.select().from(deviceLicenses).where(eq(deviceLicenses.licenseId, licenceId));
    const rptA1 = (await rptFor(server, REALM, tenants.adminA.email, tenants.orgA1.resourceId)).rpt;
    const activation = await call()('POST', `${holder}/deviceLicenses/activate`, rptA1, {
      activationKey: key?.activationKey,
      label: 'Dynsec renewed',
    });
    expect(activation.statusCode, activation.body).toBe(201);
    const device = {
      deviceId: activation.json().device.id,
      password: activation.json().credentials.password,
    };
    await connected(device);
    server.app.clock.advance(31 * 24 * 3600 * 1000);
    await server.app.licenseExpiry.sweep();
    await expect.poll(() => connectDevice(mosquitto.url, device)).toEqual({ refused: NOT_AUTHORIZED });
    const renewed = await call()('POST', `${holder}/licenses/${licenceId}/renew`, rptA1);
    expect(renewed.statusCode, renewed.body).toBe(200);
    await expect.poll(() => signsIn(device)).toBe(true);
  });

  it('deleting the device removes its client', async () => {
    const device = await activate('Dynsec deleted device');
    await connected(device);
    const deleted = await call()(
      'DELETE',
      `/svc/mappings/api/v1/organizations/${tenants.orgA.id}/devices/${device.deviceId}`,
      rpt,
    );
    expect(deleted.statusCode, deleted.body).toBe(204);
    await expect.poll(() => connectDevice(mosquitto.url, device)).toEqual({ refused: NOT_AUTHORIZED });
  });

  it('a broker that lost its state gets every device client back at the next start, and nothing stale', async () => {
    const kept = await activate('Dynsec kept');
    await server.app.close();
    await mosquitto.restart({ forget: true });
    expect(await connectDevice(mosquitto.url, kept)).toEqual({ refused: NOT_AUTHORIZED });
    // A client of a device Edgeport no longer has, left from before.
    const stale = crypto.randomUUID();
    await dynsec([
      { command: 'createRole', rolename: `edgeport-device-${stale}` },
      { command: 'createClient', username: stale, password: 'x', textname: 'edgeport device' },
    ]);

    restarted = await buildApp({ config: server.config, database: server.database });
    await restarted.ready();
    const client = await connected(kept);
    await client.publishAsync(`devices/${kept.deviceId}/data`, JSON.stringify({ values: { LineSpeed: 7 } }), {
      qos: 1,
    });
    await expect.poll(async () => (await rowsOf(kept.deviceId)).length).toBe(1);
    const [clients, roles] = await dynsec([{ command: 'listClients' }, { command: 'listRoles' }]);
    expect(clients?.data?.clients).toContain(kept.deviceId);
    expect(clients?.data?.clients).not.toContain(stale);
    expect(roles?.data?.roles).toContain(`edgeport-device-${kept.deviceId}`);
    expect(roles?.data?.roles).not.toContain(`edgeport-device-${stale}`);
  });
});

/** Commands to the dynamic-security API as the broker's admin, and their answers. */
async function dynsec(commands: Record<string, unknown>[]) {
  const admin = await mqtt.connectAsync(mosquitto.adminUrl, { reconnectPeriod: 0 });
  try {
    await admin.subscribeAsync('$CONTROL/dynamic-security/v1/response');
    const answer = new Promise<string>((resolve) =>
      admin.once('message', (_topic, payload) => resolve(`${payload}`)),
    );
    await admin.publishAsync('$CONTROL/dynamic-security/v1', JSON.stringify({ commands }));
    return (
      JSON.parse(await answer) as {
        responses: { error?: string; data?: { clients?: string[]; roles?: string[] } }[];
      }
    ).responses;
  } finally {
    await admin.endAsync();
  }
}
