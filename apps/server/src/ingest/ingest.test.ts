import { eq } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import mqttPacket from 'mqtt-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activatedDevice, testPreset } from '../../test/support/devices.ts';
import { seedTenants } from '../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { deviceIngestStats, deviceStatusHistory, devices, telemetry } from '../db/schema.ts';

let server: TestServer;
let port: number;
let device: { deviceId: string; password: string };
let other: { deviceId: string; password: string };

beforeAll(async () => {
  server = await startTestServer();
  const tenants = await seedTenants(server, 'ingest');
  const preset = await testPreset(server, tenants.orgA.id);
  device = await activatedDevice(server, tenants.orgA.id, 'Line 1', preset.id);
  other = await activatedDevice(server, tenants.orgB.id, 'Other tenant device', preset.id);
  port = await server.app.ingest.listen(0, '127.0.0.1');
});
afterAll(() => server.close());

function connect(credentials: { deviceId: string; password: string }, clientId = credentials.deviceId) {
  return mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
    clientId,
    username: credentials.deviceId,
    password: credentials.password,
    reconnectPeriod: 0,
    connectTimeout: 5000,
  });
}

async function storedRows(deviceId: string) {
  return server.database.db.select().from(telemetry).where(eq(telemetry.deviceId, deviceId));
}

async function counters(deviceId: string) {
  await server.app.ingest.flush();
  const [row] = await server.database.db
    .select()
    .from(deviceIngestStats)
    .where(eq(deviceIngestStats.deviceId, deviceId));
  return row;
}

function closed(client: MqttClient) {
  return new Promise<void>((resolve) => client.once('close', () => resolve()));
}

describe('MQTT ingest', () => {
  it('stores a QoS 1 value, mapped through the preset, before acknowledging it', async () => {
    const client = await connect(device);
    const ts = Date.now();
    await client.publishAsync(
      `devices/${device.deviceId}/data`,
      JSON.stringify({
        ts,
        values: { LineSpeed: 118.5, Running: true, MotorTemp: 655, StatusText: 'running' },
      }),
      { qos: 1 },
    );
    // The PUBACK came back: the row must already be there, without waiting for any flush.
    const rows = await storedRows(device.deviceId);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.ts.getTime()).toBe(ts);
    expect(rows[0]?.values).toEqual({
      '/line/speed': 118.5,
      '/line/running': true,
      '/motor/temperature': 65.5,
      '/status/message': 'running',
    });
    const latest = await server.app.ingest.latestValues(device.deviceId);
    expect(latest.find((entry) => entry.path === '/motor/temperature')?.value).toBe(65.5);
    await client.endAsync();
  });

  it("turns off mqtt-packet's cache of 65,536 number buffers (about 9 MB of idle heap)", () => {
    // The cache itself is shared by every test file of a worker (one may have filled it before any server started), so
    // the setting that keeps mqtt-packet from making it is what is checked.
    expect(mqttPacket.writeToStream.cacheNumbers).toBe(false);
  });

  it('records ONLINE on connect and OFFLINE on disconnect, with history', async () => {
    const client = await connect(device);
    await expect.poll(async () => (await statusOf(device.deviceId)).status).toBe('ONLINE');
    await client.endAsync();
    await expect.poll(async () => (await statusOf(device.deviceId)).status).toBe('OFFLINE');
    const history = await server.database.db
      .select()
      .from(deviceStatusHistory)
      .where(eq(deviceStatusHistory.deviceId, device.deviceId));
    expect(history.map((entry) => entry.status)).toEqual(expect.arrayContaining(['ONLINE', 'OFFLINE']));
  });

  it('refuses a wrong password, an unknown device and a client id of another device', async () => {
    await expect(connect({ ...device, password: 'eps_wrong' })).rejects.toThrow(/Bad username or password/i);
    await expect(connect({ deviceId: crypto.randomUUID(), password: device.password })).rejects.toThrow(
      /Bad username or password/i,
    );
    await expect(connect(device, other.deviceId)).rejects.toThrow(/Not authorized/i);
  });

  it("disconnects a device publishing to another device's topic and stores nothing", async () => {
    const client = await connect(device);
    const gone = closed(client);
    client.publish(`devices/${other.deviceId}/data`, JSON.stringify({ values: { LineSpeed: 1 } }), {
      qos: 1,
    });
    await gone;
    expect(await storedRows(other.deviceId)).toHaveLength(0);
    client.end(true);
  });

  it("refuses a subscription to another device's set-points and to wildcards", async () => {
    const client = await connect(device);
    for (const topic of [`devices/${other.deviceId}/setpoints`, 'devices/+/setpoints', '#']) {
      // mqtt.js turns a SUBACK failure (0x80) into this error.
      await expect(client.subscribeAsync(topic)).rejects.toThrow(/Subscribe error/);
    }
    const [own] = await client.subscribeAsync(`devices/${device.deviceId}/setpoints`);
    expect(own?.qos).toBe(0);
    expect(client.connected).toBe(true);
    await client.endAsync();
  });

  it('counts malformed messages, unknown tags and wrong types per device; keeps the good values', async () => {
    const before = (await storedRows(device.deviceId)).length;
    const client = await connect(device);
    const topic = `devices/${device.deviceId}/data`;
    await client.publishAsync(topic, 'not json', { qos: 1 });
    await client.publishAsync(topic, JSON.stringify({ values: [1, 2] }), { qos: 1 });
    await client.publishAsync(topic, JSON.stringify({ ts: 'yesterday', values: { LineSpeed: 1 } }), {
      qos: 1,
    });
    await client.publishAsync(
      topic,
      JSON.stringify({ values: { LineSpeed: 'fast', Batch: 1.5, Nope: 3, Running: false } }),
      { qos: 1 },
    );
    expect(client.connected).toBe(true);
    const rows = await storedRows(device.deviceId);
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)?.values).toEqual({ '/line/running': false });
    const stats = await counters(device.deviceId);
    expect(stats).toMatchObject({ malformed: 3, unknownPath: 1, wrongType: 2 });
    expect(stats?.lastError).toBeTruthy();
    await client.endAsync();
  });

  it('stores nothing for a device without a preset, and lists what it reported as its data tags', async () => {
    const tenants = {
      orgId: (await server.database.db.select().from(devices).where(eq(devices.id, device.deviceId)))[0]
        ?.organizationId,
    };
    const bare = await activatedDevice(server, tenants.orgId ?? '', 'No preset yet');
    const client = await connect(bare);
    await client.publishAsync(
      `devices/${bare.deviceId}/data`,
      JSON.stringify({ values: { Pressure: 2.5 } }),
      {
        qos: 1,
      },
    );
    expect(await storedRows(bare.deviceId)).toHaveLength(0);
    expect((await counters(bare.deviceId))?.unknownPath).toBe(1);
    await client.endAsync();
  });
});

async function statusOf(deviceId: string) {
  const [row] = await server.database.db.select().from(devices).where(eq(devices.id, deviceId));
  if (!row) throw new Error('device gone');
  return row;
}
