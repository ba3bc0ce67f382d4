import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/index.ts';
import { devices, models, modelVersions, presets, realms, telemetry } from '../../src/db/schema.ts';
import { createDevice } from '../../src/services/core/devices/provisioning.ts';
import { createOrganization } from '../../src/services/core/organizations/provisioning.ts';
import { issueDeviceCredentials } from '../../src/services/license/device-credentials.ts';
import { TEST_MAPPINGS, TEST_PATHS } from '../support/devices.ts';

const MAIN = path.join(import.meta.dirname, '../../src/main.ts');
const dataDir = mkdtempSync(path.join(tmpdir(), 'edgeport-crash-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** The real server (`node src/main.ts`) on the PGlite data directory, resolved once MQTT accepts connections. */
async function startServer(httpPort: number, mqttPort: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      PORT: String(httpPort),
      MQTT_PORT: String(mqttPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      EDGEPORT_DEMO: 'false',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let attempt = 0; attempt < 300; attempt++) {
    const ready = await fetch(`http://127.0.0.1:${httpPort}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return child;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error('server did not start');
}

/** A realm, organization, preset and activated device written straight into the data directory. */
async function provision() {
  const database = await openDatabase({ dataDir });
  const { db } = database;
  await db.insert(realms).values({ name: 'crash', displayName: 'Crash' });
  const org = await createOrganization(db, { realm: 'crash', name: 'Crash test', resourceId: 'crash-org' });
  const [model] = await db.insert(models).values({ organizationId: org.id, name: 'M' }).returning();
  if (!model) throw new Error('no model');
  await db.insert(modelVersions).values({ modelId: model.id, version: 1, paths: TEST_PATHS });
  const [preset] = await db
    .insert(presets)
    .values({
      organizationId: org.id,
      name: 'P',
      modelId: model.id,
      modelVersion: 1,
      mappings: TEST_MAPPINGS,
    })
    .returning();
  const device = await createDevice(db, org.id, 'Crash device');
  await db.update(devices).set({ presetId: preset?.id }).where(eq(devices.id, device.id));
  const credentials = await issueDeviceCredentials(db, device.id);
  await database.close();
  return { deviceId: device.id, password: credentials.password };
}

describe('killing the server during ingest', () => {
  it('loses no value whose QoS 1 publish was acknowledged', async () => {
    const device = await provision();
    const [httpPort, mqttPort] = [await freePort(), await freePort()];
    const server = await startServer(httpPort, mqttPort);
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
      clientId: device.deviceId,
      username: device.deviceId,
      password: device.password,
      reconnectPeriod: 0,
    });
    client.on('error', () => undefined);
    const acknowledged: number[] = [];
    let sequence = 0;
    const publishOne = () => {
      const batch = ++sequence;
      client.publish(
        `devices/${device.deviceId}/data`,
        JSON.stringify({ values: { Batch: batch, LineSpeed: batch / 10 } }),
        { qos: 1 },
        (error) => {
          if (error) return;
          acknowledged.push(batch);
          if (!client.disconnecting && client.connected) publishOne();
        },
      );
    };
    for (let i = 0; i < 50; i++) publishOne();
    await expect.poll(() => acknowledged.length, { timeout: 20_000 }).toBeGreaterThan(2000);

    server.kill('SIGKILL');
    await new Promise((resolve) => server.once('exit', resolve));
    client.end(true);
    const ackedBeforeKill = [...acknowledged];

    // Restart on the same data directory: the server comes up again and every acknowledged value is there.
    const restarted = await startServer(httpPort, mqttPort);
    restarted.kill('SIGTERM');
    await new Promise((resolve) => restarted.once('exit', resolve));
    const database = await openDatabase({ dataDir });
    const rows = await database.db
      .select({ batch: sql<number>`(${telemetry.values}->>'/batch/count')::int` })
      .from(telemetry)
      .where(eq(telemetry.deviceId, device.deviceId));
    await database.close();
    const stored = new Set(rows.map((row) => row.batch));
    const lost = ackedBeforeKill.filter((batch) => !stored.has(batch));
    expect(ackedBeforeKill.length).toBeGreaterThan(2000);
    expect(lost).toEqual([]);
  }, 90_000);
});
