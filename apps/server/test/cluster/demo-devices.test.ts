import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoDevicesOnOneInstance } from '../../src/demo/devices.ts';
import { seedDemo } from '../../src/demo/seed.ts';
import { deviceBrokerUrl } from '../../src/ingest/external-broker.ts';
import { type DynsecMosquitto, startDynsecMosquitto } from '../ingest/dynsec-mosquitto.ts';
import { startAnotherInstance, startTestServer, type TestServer } from '../support/server.ts';

// Every instance of `npm run cluster` has the demo on; the six simulated devices (one client id each) must run on one
// of them only — two fleets would push each other off the broker — and on another once that one is gone.
describe.runIf(process.env.TEST_DATABASE_URL)('the demo devices of a cluster', () => {
  let mosquitto: DynsecMosquitto;
  let first: TestServer;
  let second: TestServer;
  const stops: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    mosquitto = await startDynsecMosquitto();
    first = await startTestServer({ mqttUrl: mosquitto.adminUrl, mqttDynsec: true });
    second = await startAnotherInstance(first);
    await seedDemo(first.database.db, first.app.realms, first.config);
  }, 60_000);
  afterAll(async () => {
    for (const stop of stops) await stop();
    await second?.close();
    await first?.close();
    await mosquitto?.close();
  });

  it('run on one instance, and on the other once it stops', async () => {
    const watcher = await mqtt.connectAsync(mosquitto.adminUrl, { reconnectPeriod: 0 });
    const publishers = new Map<string, number>();
    watcher.on('message', (topic) => {
      const device = topic.split('/')[1] ?? '';
      publishers.set(device, (publishers.get(device) ?? 0) + 1);
    });
    await watcher.subscribeAsync('devices/+/data');
    const url = deviceBrokerUrl(mosquitto.adminUrl);
    const connections = () =>
      (mosquitto.log().match(/New client connected .* as [0-9a-f-]{36} /g) ?? []).length;
    const onFirst = startDemoDevicesOnOneInstance(first.database, url, first.app.alarms, (error) => {
      throw error;
    });
    stops.push(onFirst);
    await expect.poll(() => publishers.size, { timeout: 20_000 }).toBe(6);
    stops.push(
      startDemoDevicesOnOneInstance(second.database, url, second.app.alarms, (error) => {
        throw error;
      }),
    );
    // A second fleet would take the client ids over, again and again.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(connections()).toBe(6);

    await onFirst();
    publishers.clear();
    await expect.poll(() => publishers.size, { timeout: 25_000 }).toBe(6);
    expect(connections()).toBe(12);
    await watcher.endAsync();
  }, 90_000);
});
