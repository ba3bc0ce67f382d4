import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from '../support/server-process.ts';
import { type DynsecMosquitto, startDynsecMosquitto } from './dynsec-mosquitto.ts';

// `npm start` with the demo and MQTT_URL: the simulated packaging lines sign in to the external broker (their clients
// made by the server through the dynamic-security API) and publish there.
const dataDir = mkdtempSync(path.join(tmpdir(), 'edgeport-demo-broker-'));
let mosquitto: DynsecMosquitto | undefined;
let server: ServerProcess | undefined;

afterAll(async () => {
  server?.child.kill('SIGTERM');
  await server?.exited;
  await mosquitto?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the demo devices with an external broker', () => {
  it('publish to the broker of MQTT_URL', async () => {
    mosquitto = await startDynsecMosquitto();
    server = await startServerProcess(dataDir, {
      MQTT_URL: mosquitto.adminUrl,
      MQTT_DYNSEC: 'true',
      EDGEPORT_DEMO: 'true',
      EDGEPORT_SAMPLES: 'false',
    });
    const watcher = await mqtt.connectAsync(mosquitto.adminUrl, { reconnectPeriod: 0 });
    const publishing = new Set<string>();
    watcher.on('message', (topic) => publishing.add(topic.split('/')[1] ?? ''));
    await watcher.subscribeAsync('devices/+/data');
    await expect.poll(() => publishing.size, { timeout: 30_000 }).toBe(6);
    await watcher.endAsync();
  }, 180_000);
});
