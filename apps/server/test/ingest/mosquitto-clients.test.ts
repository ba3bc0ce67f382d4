import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { telemetry } from '../../src/db/schema.ts';
import { activatedDevice, testPreset } from '../support/devices.ts';
import { seedTenants } from '../support/fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const run = promisify(execFile);

/**
 * Debian's mosquitto_pub / mosquitto_sub — MQTT clients this project did not write — against the embedded broker:
 * an activated device publishes and receives set-points; wrong credentials and foreign topics are refused.
 */
let server: TestServer;
let port: number;
let device: { deviceId: string; password: string };
let other: { deviceId: string; password: string };

beforeAll(async () => {
  server = await startTestServer();
  const tenants = await seedTenants(server, 'mosquitto');
  const preset = await testPreset(server, tenants.orgA.id);
  device = await activatedDevice(server, tenants.orgA.id, 'Mosquitto line', preset.id);
  other = await activatedDevice(server, tenants.orgA.id, 'Neighbour', preset.id);
  port = await server.app.ingest.listen(0, '127.0.0.1');
});
afterAll(() => server.close());

function publish(credentials: { deviceId: string; password: string }, topic: string, message: string) {
  return run('mosquitto_pub', [
    ...['-h', '127.0.0.1', '-p', String(port), '-q', '1', '-V', 'mqttv311'],
    ...['-i', credentials.deviceId, '-u', credentials.deviceId, '-P', credentials.password],
    ...['-t', topic, '-m', message],
  ]);
}

const rowsOf = (deviceId: string) =>
  server.database.db.select().from(telemetry).where(eq(telemetry.deviceId, deviceId));

describe('Debian mosquitto clients against the embedded broker', () => {
  it('mosquitto_pub publishes as an activated device and the value is stored', async () => {
    await publish(device, `devices/${device.deviceId}/data`, JSON.stringify({ values: { LineSpeed: 42.5 } }));
    expect((await rowsOf(device.deviceId)).map((row) => row.values)).toContainEqual({ '/line/speed': 42.5 });
  });

  it('mosquitto_pub with a wrong password is refused', async () => {
    const refused = publish({ ...device, password: 'eps_wrong' }, `devices/${device.deviceId}/data`, '{}');
    await expect(refused).rejects.toMatchObject({
      stderr: expect.stringMatching(/not authori[sz]ed|bad user/i),
    });
  });

  it("mosquitto_pub to another device's topic is dropped and nothing is stored", async () => {
    const refused = publish(
      device,
      `devices/${other.deviceId}/data`,
      JSON.stringify({ values: { LineSpeed: 1 } }),
    );
    await expect(refused).rejects.toBeTruthy();
    expect(await rowsOf(other.deviceId)).toHaveLength(0);
  });

  it('mosquitto_sub receives a set-point on its own topic', async () => {
    let subscribed = false;
    server.app.ingest.broker?.once('subscribe', () => {
      subscribed = true;
    });
    const subscriber = spawn('mosquitto_sub', [
      ...['-h', '127.0.0.1', '-p', String(port), '-q', '1', '-C', '1', '-V', 'mqttv311'],
      ...['-i', `${device.deviceId}-sub`, '-u', device.deviceId, '-P', device.password],
      ...['-t', `devices/${device.deviceId}/setpoints`],
    ]);
    let output = '';
    subscriber.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise((resolve) => subscriber.once('exit', resolve));
    await expect.poll(() => subscribed).toBe(true);
    await server.app.ingest.sendSetpoint(device.deviceId, {
      id: 'sp-1',
      tag: 'SpeedSetpoint',
      path: '/setpoints/speed',
      value: 90,
    });
    await exited;
    expect(JSON.parse(output)).toMatchObject({ tag: 'SpeedSetpoint', value: 90 });
  });
});
