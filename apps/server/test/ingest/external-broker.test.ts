import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices, telemetry } from '../../src/db/schema.ts';
import { activatedDevice, testPreset } from '../support/devices.ts';
import { seedTenants } from '../support/fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { freePort } from '../support/server-process.ts';
import { connectWhenUp } from './dynsec-mosquitto.ts';

/** MQTT_URL: Debian's Mosquitto is the broker; the server consumes from it with shared subscriptions. */
let mosquitto: ChildProcess;
let dir: string;
let url: string;
let server: TestServer;
let device: { deviceId: string };
let client: MqttClient;

beforeAll(async () => {
  const port = await freePort();
  dir = mkdtempSync(path.join(tmpdir(), 'edgeport-mosquitto-'));
  writeFileSync(path.join(dir, 'mosquitto.conf'), `listener ${port} 127.0.0.1\nallow_anonymous true\n`);
  mosquitto = spawn('mosquitto', ['-c', path.join(dir, 'mosquitto.conf')], { stdio: 'ignore' });
  url = `mqtt://127.0.0.1:${port}`;
  client = await connectWhenUp(url);
  server = await startTestServer({ mqttUrl: url });
  const tenants = await seedTenants(server, 'external');
  const preset = await testPreset(server, tenants.orgA.id);
  device = await activatedDevice(server, tenants.orgA.id, 'External line', preset.id);
});
afterAll(async () => {
  await client?.endAsync();
  await server?.close();
  mosquitto?.kill();
  rmSync(dir, { recursive: true, force: true });
});

describe('device data through an external broker (MQTT_URL)', () => {
  it('stores values published to the external broker and follows reported status', async () => {
    await client.publishAsync(`devices/${device.deviceId}/status`, 'online', { qos: 1 });
    await client.publishAsync(
      `devices/${device.deviceId}/data`,
      JSON.stringify({ values: { LineSpeed: 77.5, Batch: 3 } }),
      { qos: 1 },
    );
    await expect
      .poll(async () =>
        (
          await server.database.db.select().from(telemetry).where(eq(telemetry.deviceId, device.deviceId))
        ).map((row) => row.values),
      )
      .toContainEqual({ '/line/speed': 77.5, '/batch/count': 3 });
    await expect
      .poll(
        async () =>
          (await server.database.db.select().from(devices).where(eq(devices.id, device.deviceId)))[0]?.status,
      )
      .toBe('ONLINE');
  });

  it('sends set-points through the external broker', async () => {
    await client.subscribeAsync(`devices/${device.deviceId}/setpoints`, { qos: 1 });
    const received = new Promise<string>((resolve) =>
      client.once('message', (_topic, payload) => resolve(payload.toString())),
    );
    await server.app.ingest.sendSetpoint(device.deviceId, {
      id: 'x',
      tag: 'SpeedSetpoint',
      path: '/setpoints/speed',
      value: 5,
    });
    expect(JSON.parse(await received)).toMatchObject({ tag: 'SpeedSetpoint', value: 5 });
  });
});
