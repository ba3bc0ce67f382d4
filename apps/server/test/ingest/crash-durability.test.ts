import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/index.ts';
import { telemetry } from '../../src/db/schema.ts';
import { provisionDataDir, startServerProcess } from '../support/server-process.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'edgeport-crash-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('killing the server during ingest', () => {
  it('loses no value whose QoS 1 publish was acknowledged', async () => {
    const [device] = (await provisionDataDir(dataDir, 1, 'crash')).devices;
    if (!device) throw new Error('no device');
    const server = await startServerProcess(dataDir);
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${server.mqttPort}`, {
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

    server.child.kill('SIGKILL');
    await server.exited;
    client.end(true);
    const ackedBeforeKill = [...acknowledged];

    // Restart on the same data directory: the server comes up again and every acknowledged value is there.
    const restarted = await startServerProcess(dataDir);
    restarted.child.kill('SIGTERM');
    await restarted.exited;
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
