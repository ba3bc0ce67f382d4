import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDevice, type DynsecMosquitto, startDynsecMosquitto } from '../ingest/dynsec-mosquitto.ts';
import { emptyTestDatabase } from '../support/server.ts';
import { provisionDataDir, type ServerProcess, startServerProcess } from '../support/server-process.ts';

// Three instances start at the same moment on a Mosquitto initialised as an operator does (`mosquitto_ctrl dynsec
// init`: the admin user has no server role yet). Giving the role disconnects every connection of that user, so
// instances that each gave it kicked the others' connections in the middle of their start-up; they take turns now.
const adminUrl = process.env.TEST_DATABASE_URL;

/** How often the broker's log shows the server role given to the admin user. */
const givings = (log: string) => log.match(/addClientRole \| username=edgeport-admin/g)?.length ?? 0;

describe.runIf(adminUrl)('instances starting together on a fresh Mosquitto with dynamic security', () => {
  const dirs = [0, 1, 2].map(() => mkdtempSync(path.join(tmpdir(), 'edgeport-brokerstart-')));
  let databaseUrl = '';
  let dropDatabase = async () => {};
  let mosquitto: DynsecMosquitto;
  const instances: ServerProcess[] = [];

  beforeAll(async () => {
    ({ url: databaseUrl, drop: dropDatabase } = await emptyTestDatabase('edgeport_brokerstart'));
    mosquitto = await startDynsecMosquitto();
  });
  afterAll(async () => {
    for (const instance of instances) instance.child.kill('SIGKILL');
    await Promise.all(instances.map((instance) => instance.exited));
    await mosquitto?.close();
    await dropDatabase();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('all come up, stay up, and consume what a device publishes', { timeout: 120_000 }, async () => {
    const { devices } = await provisionDataDir(dirs[0] as string, 1, 'brokerstart', databaseUrl);
    const exits: number[] = [];
    instances.push(
      ...(await Promise.all(
        dirs.map((dir, index) =>
          startServerProcess(dir, {
            DATABASE_URL: databaseUrl,
            MQTT_URL: mosquitto.adminUrl,
            MQTT_DYNSEC: 'true',
            MQTT_PORT: '0',
            INSTANCE_ID: `brokerstart-${index}`,
          }),
        ),
      )),
    );
    for (const [index, instance] of instances.entries()) instance.child.once('exit', () => exits.push(index));
    const [device] = devices;
    if (!device) throw new Error('no device provisioned');
    const client = await connectDevice(mosquitto.url, device);
    if (!('publishAsync' in client)) throw new Error(`device refused: ${client.refused}`);
    try {
      for (let i = 0; i < 30; i++)
        await client.publishAsync(
          `devices/${device.deviceId}/data`,
          JSON.stringify({ values: { LineSpeed: i } }),
          {
            qos: 1,
          },
        );
    } finally {
      await client.endAsync();
    }
    const stored = async () => {
      const db = new pg.Client({ connectionString: databaseUrl });
      await db.connect();
      try {
        return (await db.query<{ n: number }>('select count(*)::int as n from telemetry')).rows[0]?.n;
      } finally {
        await db.end();
      }
    };
    await expect.poll(stored, { timeout: 20_000 }).toBe(30);
    expect(exits).toEqual([]);
    for (const instance of instances)
      expect((await fetch(`http://127.0.0.1:${instance.httpPort}/readyz`)).status).toBe(200);
    expect(givings(mosquitto.log())).toBe(1);
  });
});
