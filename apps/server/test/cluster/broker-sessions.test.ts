import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alarms, telemetry } from '../../src/db/schema.ts';
import { connectDevice, type DynsecMosquitto, startDynsecMosquitto } from '../ingest/dynsec-mosquitto.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { provisionDataDir, type ServerProcess, startServerProcess } from '../support/server-process.ts';

// An instance consuming Mosquitto is killed (SIGKILL: no DISCONNECT, nothing flushed) while a device keeps publishing
// QoS 1; Mosquitto acknowledges those messages to the device. Once the instance is back (same data directory, so the
// same instance id and the same persistent sessions) every acknowledged value must be stored.
describe.runIf(process.env.TEST_DATABASE_URL)('killing an instance that consumes the external broker', () => {
  let mosquitto: DynsecMosquitto;
  let database: TestServer;
  let dataDir: string;
  let instance: ServerProcess | undefined;
  let client: MqttClient | undefined;

  beforeAll(async () => {
    mosquitto = await startDynsecMosquitto();
    // The test server only holds the database (and reads it); the instance under test is a process of its own.
    database = await startTestServer();
    dataDir = mkdtempSync(path.join(tmpdir(), 'edgeport-sessions-'));
  }, 60_000);
  afterAll(async () => {
    await client?.endAsync(true);
    instance?.child.kill('SIGKILL');
    await instance?.exited;
    await database?.close();
    await mosquitto?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses no message Mosquitto acknowledged while the instance was down, and judges them by its rules', async () => {
    const { devices, organizationId, apiKey } = await provisionDataDir(
      dataDir,
      1,
      'sessions',
      database.databaseUrl,
    );
    const [device] = devices;
    if (!device) throw new Error('no device');
    const env = {
      DATABASE_URL: database.databaseUrl ?? '',
      MQTT_URL: mosquitto.adminUrl,
      MQTT_DYNSEC: 'true',
    };
    instance = await startServerProcess(dataDir, env);
    // The instance gave the device its client on Mosquitto at start (provisioning wrote only the database).
    const connected = await connectDevice(mosquitto.url, device, { reconnectPeriod: 500 });
    if (!('publishAsync' in connected)) throw new Error(`device refused: ${connected.refused}`);
    client = connected;
    client.on('error', () => undefined);
    const rule = await fetch(
      `http://127.0.0.1:${instance.httpPort}/svc/alarms/api/v1/rules?organization=${organizationId}`,
      {
        method: 'POST',
        headers: {
          host: 'sessions.app.localhost',
          authorization: `Bearer ${apiKey}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          name: 'Hot while down',
          deviceId: device.deviceId,
          condition: { kind: 'threshold', path: '/motor/temperature', operator: '>', value: 90 },
          severity: 'MAJOR',
        }),
      },
    );
    expect(rule.status, await rule.text()).toBe(201);

    const acknowledged: number[] = [];
    let sequence = 0;
    let publishing = true;
    const publishOne = () => {
      if (!publishing) return;
      const batch = ++sequence;
      client?.publish(
        `devices/${device.deviceId}/data`,
        JSON.stringify({ values: { Batch: batch } }),
        { qos: 1 },
        (error) => {
          if (error) return;
          acknowledged.push(batch);
          setTimeout(publishOne, 2);
        },
      );
    };
    for (let i = 0; i < 10; i++) publishOne();
    await expect.poll(() => acknowledged.length, { timeout: 20_000 }).toBeGreaterThan(300);

    instance.child.kill('SIGKILL');
    await instance.exited;
    const atKill = acknowledged.length;
    // The device goes on while no instance consumes: the broker acknowledges and keeps these for the sessions.
    await expect.poll(() => acknowledged.length - atKill, { timeout: 10_000 }).toBeGreaterThan(300);
    publishing = false;
    await new Promise((resolve) => setTimeout(resolve, 200));
    const sent = [...acknowledged];
    // The one crossing of the rule is in what waits on the broker: the restarted instance must judge it too.
    await client.publishAsync(
      `devices/${device.deviceId}/data`,
      JSON.stringify({ values: { MotorTemp: 990 } }),
      {
        qos: 1,
      },
    );

    instance = await startServerProcess(dataDir, env);
    const storedBatches = async () => {
      const rows = await database.database.db
        .select({ batch: sql<number>`(${telemetry.values}->>'/batch/count')::int` })
        .from(telemetry)
        .where(eq(telemetry.deviceId, device.deviceId));
      return new Set(rows.map((row) => row.batch));
    };
    const missing = async () => {
      const stored = await storedBatches();
      return sent.filter((batch) => !stored.has(batch));
    };
    try {
      await expect.poll(missing, { timeout: 60_000, interval: 500 }).toEqual([]);
    } catch (error) {
      console.error(
        `acknowledged ${sent.length}, at the kill ${atKill}; the broker's log:\n${mosquitto.log().slice(-6000)}`,
      );
      throw error;
    }
    const raised = () =>
      database.database.db.select().from(alarms).where(eq(alarms.deviceId, device.deviceId));
    await expect
      .poll(async () => (await raised()).map((alarm) => alarm.name), { timeout: 10_000 })
      .toEqual(['Hot while down']);
  }, 180_000);
});
