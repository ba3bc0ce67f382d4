import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ValuesEvent } from '../../src/ingest/events.ts';
import { connectDevice, type DynsecMosquitto, startDynsecMosquitto } from '../ingest/dynsec-mosquitto.ts';
import { caller } from '../support/calls.ts';
import { activatedDevice, testPreset } from '../support/devices.ts';
import { seedTenants } from '../support/fixtures.ts';
import { startAnotherInstance, startTestServer, type TestServer } from '../support/server.ts';
import { rptFor } from '../support/tokens.ts';

// Two instances consume one Mosquitto (shared subscriptions: each gets part of a device's messages). A browser on
// either instance must see every value, status change and alarm change, whichever instance produced it.
const REALM = 'relay';
type Message = { type: string; [key: string]: unknown };
const LIVE = { timeout: 5000 };

async function liveConnection(server: TestServer, rpt: string, organization: string, deviceId: string) {
  const address = server.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const socket = new WebSocket(`ws://127.0.0.1:${port}/svc/live`, {
    headers: { host: `${REALM}.app.localhost` },
  });
  const received: Message[] = [];
  socket.on('message', (data) => received.push(JSON.parse(data.toString()) as Message));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  socket.send(JSON.stringify({ type: 'auth', token: rpt, organization }));
  await expect.poll(() => received.some((message) => message.type === 'ready')).toBe(true);
  socket.send(JSON.stringify({ type: 'subscribe', deviceIds: [deviceId] }));
  return { socket, received };
}

const batchesIn = (received: Message[]) =>
  received
    .filter((message) => message.type === 'values')
    .map((message) => (message.values as Record<string, unknown>)['/batch/count'])
    .filter((batch) => typeof batch === 'number');

describe.runIf(process.env.TEST_DATABASE_URL)('live events between two instances (MQTT_URL)', () => {
  let mosquitto: DynsecMosquitto;
  let first: TestServer;
  let second: TestServer;
  let tenants: Awaited<ReturnType<typeof seedTenants>>;
  let device: { deviceId: string; password: string };
  let rpt: string;
  let client: MqttClient;

  beforeAll(async () => {
    mosquitto = await startDynsecMosquitto();
    first = await startTestServer({ mqttUrl: mosquitto.adminUrl, mqttDynsec: true });
    second = await startAnotherInstance(first);
    tenants = await seedTenants(first, REALM);
    const preset = await testPreset(first, tenants.orgA.id);
    device = await activatedDevice(first, tenants.orgA.id, 'Relay line', preset.id);
    for (const server of [first, second]) await server.app.listen({ port: 0, host: '127.0.0.1' });
    rpt = (await rptFor(first, REALM, tenants.adminA.email, tenants.orgA.resourceId)).rpt;
    const connected = await connectDevice(mosquitto.url, device);
    if (!('publishAsync' in connected)) throw new Error(`device refused: ${connected.refused}`);
    client = connected;
  }, 60_000);
  afterAll(async () => {
    await client?.endAsync();
    await second?.close();
    await first?.close();
    await mosquitto?.close();
  });

  it('every value reaches the browsers on both instances, also those the other instance consumed', async () => {
    const onFirst = await liveConnection(first, rpt, tenants.orgA.id, device.deviceId);
    const onSecond = await liveConnection(second, rpt, tenants.orgA.id, device.deviceId);
    const consumedBy = new Map<TestServer, number[]>([
      [first, []],
      [second, []],
    ]);
    for (const [server, batches] of consumedBy)
      server.app.ingest.events.on('values', (event: ValuesEvent) => {
        if (event.deviceId === device.deviceId) batches.push(event.values['/batch/count'] as number);
      });
    const sent = Array.from({ length: 24 }, (_, index) => index + 1);
    for (const batch of sent)
      await client.publishAsync(
        `devices/${device.deviceId}/data`,
        JSON.stringify({ values: { Batch: batch } }),
        {
          qos: 1,
        },
      );

    for (const browser of [onFirst, onSecond])
      await expect
        .poll(() => [...new Set(batchesIn(browser.received))].sort((a, b) => a - b), LIVE)
        .toEqual(sent);
    // Each instance consumed part of them, and each value was consumed (and announced to its rules) once.
    expect(consumedBy.get(first)?.length).toBeGreaterThan(0);
    expect(consumedBy.get(second)?.length).toBeGreaterThan(0);
    expect(
      [...(consumedBy.get(first) ?? []), ...(consumedBy.get(second) ?? [])].sort((a, b) => a - b),
    ).toEqual(sent);
    for (const browser of [onFirst, onSecond]) browser.socket.close();
  });

  it('status changes and alarm changes reach the browsers on both instances', async () => {
    const onFirst = await liveConnection(first, rpt, tenants.orgA.id, device.deviceId);
    const onSecond = await liveConnection(second, rpt, tenants.orgA.id, device.deviceId);
    for (const status of ['offline', 'online', 'offline', 'online'])
      await client.publishAsync(`devices/${device.deviceId}/status`, status, { qos: 1 });
    for (const browser of [onFirst, onSecond])
      await expect
        .poll(
          () =>
            browser.received.filter((message) => message.type === 'status').map((message) => message.status),
          LIVE,
        )
        .toEqual(['OFFLINE', 'ONLINE', 'OFFLINE', 'ONLINE']);

    const rule = await caller(first, REALM)(
      'POST',
      `/svc/alarms/api/v1/rules?organization=${tenants.orgA.id}`,
      rpt,
      {
        name: 'Relay hot',
        deviceId: device.deviceId,
        condition: { kind: 'threshold', path: '/motor/temperature', operator: '>', value: 90 },
        severity: 'MAJOR',
      },
    );
    expect(rule.statusCode, rule.body).toBe(201);
    for (const server of [first, second]) await server.app.alarms.rulesChanged(tenants.orgA.id);
    // Hot values go to whichever instance; the alarm is raised where one is consumed, and shown everywhere.
    for (let index = 0; index < 4; index++)
      await client.publishAsync(
        `devices/${device.deviceId}/data`,
        JSON.stringify({ values: { MotorTemp: 990 } }),
        {
          qos: 1,
        },
      );
    for (const browser of [onFirst, onSecond])
      await expect
        .poll(
          () =>
            browser.received.find(
              (message) =>
                message.type === 'alarm' && (message.alarm as { name: string }).name === 'Relay hot',
            ),
          LIVE,
        )
        .toMatchObject({ event: 'RAISED', alarm: { deviceId: device.deviceId, severity: 'MAJOR' } });
    for (const browser of [onFirst, onSecond]) browser.socket.close();
  });
});
