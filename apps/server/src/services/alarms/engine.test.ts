import type { alarms as contract } from '@edgeport/contract';
import { and, asc, eq, isNull } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../test/support/calls.ts';
import { activatedDevice, testPreset } from '../../../test/support/devices.ts';
import { seedTenants } from '../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { rptFor } from '../../../test/support/tokens.ts';
import { alarmEvents, alarms, triggerRules } from '../../db/schema.ts';
import { DeviceEvents } from '../../ingest/events.ts';
import { AlarmEngine } from './engine.ts';

/**
 * The alarm engine driven by real device data: MQTT publishes to the embedded broker, through the ingest pipeline
 * (preset mapping, storage) into the engine; operator actions through the alarm service.
 */
const REALM = 'alarmengine';
let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let rpt: string;
let mqttPort: number;
let presetId: string;
const changes: { organizationId: string; event: contract.AlarmEventKind; alarm: contract.Alarm }[] = [];

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server, REALM);
  call = caller(server, REALM);
  presetId = (await testPreset(server, tenants.orgA.id)).id;
  mqttPort = await server.app.ingest.listen(0, '127.0.0.1');
  rpt = (await rptFor(server, REALM, tenants.adminA.email, tenants.orgA.resourceId)).rpt;
  server.app.ingest.events.on('alarm', (change) => changes.push(change));
});
afterAll(() => server.close());

const q = () => `organization=${tenants.orgA.id}`;
let deviceCount = 0;

/** A fresh activated device of organization A with an MQTT connection, so tests do not see each other's alarms. */
async function machine() {
  deviceCount += 1;
  const label = `Machine ${deviceCount}`;
  const credentials = await activatedDevice(server, tenants.orgA.id, label, presetId);
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
    clientId: credentials.deviceId,
    username: credentials.deviceId,
    password: credentials.password,
    reconnectPeriod: 0,
  });
  return {
    ...credentials,
    label,
    client,
    /** Publishes data tag values (QoS 1: stored when it returns) and waits for the alarm writes. */
    async send(values: Record<string, number | boolean | string>) {
      await client.publishAsync(`devices/${credentials.deviceId}/data`, JSON.stringify({ values }), {
        qos: 1,
      });
      await server.app.alarms.settled();
    },
  };
}

async function rule(body: Record<string, unknown>): Promise<contract.AlarmRule> {
  const response = await call('POST', `/svc/alarms/api/v1/rules?${q()}`, rpt, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function alarmsOf(ruleId: string, deviceId: string) {
  return server.database.db
    .select()
    .from(alarms)
    .where(and(eq(alarms.ruleId, ruleId), eq(alarms.deviceId, deviceId)))
    .orderBy(asc(alarms.raisedAt));
}

async function history(alarmId: string) {
  const rows = await server.database.db
    .select()
    .from(alarmEvents)
    .where(eq(alarmEvents.alarmId, alarmId))
    .orderBy(asc(alarmEvents.id));
  return rows.map((row) => [row.kind, row.value, row.detail, row.by]);
}

async function act(action: string, ids: string[]) {
  const response = await call('POST', `/svc/alarms/api/v1/alarms/action/${action}?${q()}`, rpt, { ids });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().affected as number;
}

const eventsOf = (alarmId: string) =>
  changes.filter((change) => change.alarm.id === alarmId).map((change) => change.event);

describe('alarm rules on live device data', () => {
  it('raises on a threshold, keeps one alarm while it holds, clears past the hysteresis, closes on ack', async () => {
    const m = await machine();
    const hot = await rule({
      name: 'Motor hot',
      deviceId: m.deviceId,
      condition: { kind: 'threshold', path: '/motor/temperature', operator: '>', value: 80 },
      severity: 'MAJOR',
      ackRequired: true,
      hysteresis: 2,
      message: '{device} {path} at {value} ({severity}, {rule})',
    });
    await m.send({ MotorTemp: 700 }); // 70.0: below
    expect(await alarmsOf(hot.id, m.deviceId)).toHaveLength(0);

    await m.send({ MotorTemp: 855 }); // 85.5
    const [raised] = await alarmsOf(hot.id, m.deviceId);
    expect(raised).toMatchObject({
      status: 'ACTIVE',
      ack: 'REQUIRED',
      reset: 'NOT_REQUIRED',
      severity: 'MAJOR',
      path: '/motor/temperature',
      value: 85.5,
      message: `${m.label} /motor/temperature at 85.5 (MAJOR, Motor hot)`,
      clearedAt: null,
    });
    if (!raised) throw new Error('no alarm');
    const announced = changes.find((change) => change.alarm.id === raised.id);
    expect(announced).toMatchObject({
      organizationId: tenants.orgA.id,
      event: 'RAISED',
      alarm: { deviceLabel: m.label, open: true, ruleId: hot.id, deviceId: m.deviceId },
    });

    await m.send({ MotorTemp: 900 });
    await m.send({ MotorTemp: 790 }); // 79: inside the hysteresis band, still holding
    expect(await alarmsOf(hot.id, m.deviceId)).toHaveLength(1);
    expect((await alarmsOf(hot.id, m.deviceId))[0]?.status).toBe('ACTIVE');

    await m.send({ MotorTemp: 775 }); // 77.5: 2.5 below, clears
    const [cleared] = await alarmsOf(hot.id, m.deviceId);
    expect(cleared).toMatchObject({ status: 'CLEARED', ack: 'REQUIRED', clearedAt: null });
    expect(cleared?.conditionClearedAt).toBeInstanceOf(Date);

    expect(await act('ack', [raised.id])).toBe(1);
    const [closed] = await alarmsOf(hot.id, m.deviceId);
    expect(closed).toMatchObject({ ack: 'DONE', ackBy: tenants.adminA.email, clearedBy: null });
    expect(closed?.clearedAt).toBeInstanceOf(Date);
    expect(await history(raised.id)).toEqual([
      ['RAISED', 85.5, '', null],
      ['CONDITION_CLEARED', 77.5, '', null],
      ['ACKNOWLEDGED', null, '', tenants.adminA.email],
      ['CLOSED', null, 'nothing more required', null],
    ]);
    expect(eventsOf(raised.id)).toEqual(['RAISED', 'CONDITION_CLEARED', 'ACKNOWLEDGED', 'CLOSED']);
    // Done already: a second ack changes nothing.
    expect(await act('ack', [raised.id])).toBe(0);
    await m.client.endAsync();
  });

  it('closes by itself when nothing is required; ack/reset before the condition clears keep it open until then', async () => {
    const m = await machine();
    const stopped = await rule({
      name: 'Line stopped',
      deviceId: m.deviceId,
      condition: { kind: 'boolean', path: '/line/running', value: false },
      severity: 'WARNING',
    });
    await m.send({ Running: false });
    const [first] = await alarmsOf(stopped.id, m.deviceId);
    if (!first) throw new Error('no alarm');
    expect(first).toMatchObject({ ack: 'NOT_REQUIRED', reset: 'NOT_REQUIRED', status: 'ACTIVE' });
    // Nothing to acknowledge or reset.
    expect(await act('ack', [first.id])).toBe(0);
    expect(await act('reset', [first.id])).toBe(0);
    await m.send({ Running: true });
    expect(eventsOf(first.id)).toEqual(['RAISED', 'CONDITION_CLEARED', 'CLOSED']);
    expect((await alarmsOf(stopped.id, m.deviceId))[0]?.clearedAt).toBeInstanceOf(Date);

    const both = await rule({
      name: 'Overspeed',
      deviceId: m.deviceId,
      condition: { kind: 'range', path: '/line/speed', low: 0, high: 150 },
      severity: 'CRITICAL',
      ackRequired: true,
      resetRequired: true,
    });
    await m.send({ LineSpeed: 170 });
    const [alarm] = await alarmsOf(both.id, m.deviceId);
    if (!alarm) throw new Error('no alarm');
    expect(await act('ack', [alarm.id])).toBe(1);
    expect(await act('reset', [alarm.id])).toBe(1);
    expect((await alarmsOf(both.id, m.deviceId))[0]).toMatchObject({
      status: 'ACTIVE',
      ack: 'DONE',
      reset: 'DONE',
      clearedAt: null,
    });
    await m.send({ LineSpeed: 100 });
    expect(eventsOf(alarm.id)).toEqual(['RAISED', 'ACKNOWLEDGED', 'RESET', 'CONDITION_CLEARED', 'CLOSED']);
    await m.client.endAsync();
  });

  it('raises the open alarm again when the condition returns before it was acknowledged', async () => {
    const m = await machine();
    const r = await rule({
      name: 'Batch high',
      deviceId: m.deviceId,
      condition: { kind: 'threshold', path: '/batch/count', operator: '>=', value: 100 },
      severity: 'MINOR',
      ackRequired: true,
    });
    await m.send({ Batch: 120 });
    await m.send({ Batch: 10 });
    await m.send({ Batch: 130 });
    const rows = await alarmsOf(r.id, m.deviceId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'ACTIVE', value: 130, ack: 'REQUIRED' });
    expect((await history(rows[0]?.id ?? '')).map((step) => step[0])).toEqual([
      'RAISED',
      'CONDITION_CLEARED',
      'RAISED',
    ]);
    await m.client.endAsync();
  });

  it('does not raise a cleared alarm again until its condition went away and came back', async () => {
    const m = await machine();
    const r = await rule({
      name: 'Speed limit',
      deviceId: m.deviceId,
      condition: { kind: 'threshold', path: '/line/speed', operator: '>', value: 150 },
      severity: 'MAJOR',
      ackRequired: true,
      resetRequired: true,
    });
    await m.send({ LineSpeed: 160 });
    const [alarm] = await alarmsOf(r.id, m.deviceId);
    if (!alarm) throw new Error('no alarm');
    expect(await act('clear', [alarm.id])).toBe(1);
    const [cleared] = await alarmsOf(r.id, m.deviceId);
    expect(cleared).toMatchObject({ status: 'CLEARED', clearedBy: tenants.adminA.email, ack: 'REQUIRED' });
    // Closed: no more ack, reset or clear.
    expect(await act('ack', [alarm.id])).toBe(0);
    expect(await act('clear', [alarm.id])).toBe(0);

    await m.send({ LineSpeed: 170 });
    expect(await alarmsOf(r.id, m.deviceId)).toHaveLength(1);
    await m.send({ LineSpeed: 100 });
    expect((await history(alarm.id)).map((step) => step[0])).toEqual([
      'RAISED',
      'CLEARED',
      'CONDITION_CLEARED',
    ]);
    await m.send({ LineSpeed: 165 });
    const rows = await alarmsOf(r.id, m.deviceId);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatchObject({ status: 'ACTIVE', value: 165, clearedAt: null });
    await m.client.endAsync();
  });

  it('raises only after the condition held for delaySeconds', async () => {
    const m = await machine();
    const r = await rule({
      name: 'Slow line',
      deviceId: m.deviceId,
      condition: { kind: 'threshold', path: '/line/speed', operator: '<', value: 50 },
      severity: 'INFO',
      delaySeconds: 1,
    });
    await m.send({ LineSpeed: 10 });
    await m.send({ LineSpeed: 90 }); // gone before the delay
    await new Promise((resolve) => setTimeout(resolve, 1300));
    await server.app.alarms.settled();
    expect(await alarmsOf(r.id, m.deviceId)).toHaveLength(0);

    await m.send({ LineSpeed: 20 });
    expect(await alarmsOf(r.id, m.deviceId)).toHaveLength(0);
    await m.send({ LineSpeed: 30 });
    await expect.poll(async () => (await alarmsOf(r.id, m.deviceId)).length, { timeout: 3000 }).toBe(1);
    expect((await alarmsOf(r.id, m.deviceId))[0]).toMatchObject({ status: 'ACTIVE', value: 30 });
    await m.client.endAsync();
  });

  it('raises when a path stays silent (noData) and clears with the next value', async () => {
    const m = await machine();
    const r = await rule({
      name: 'Status silent',
      deviceId: m.deviceId,
      condition: { kind: 'noData', path: '/status/message', seconds: 1 },
      severity: 'WARNING',
    });
    // Other paths do not count.
    await m.send({ StatusText: 'ok' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    await m.send({ StatusText: 'still ok', LineSpeed: 1 });
    await new Promise((resolve) => setTimeout(resolve, 700));
    await m.send({ LineSpeed: 2 });
    expect(await alarmsOf(r.id, m.deviceId)).toHaveLength(0);
    await expect.poll(async () => (await alarmsOf(r.id, m.deviceId)).length, { timeout: 3000 }).toBe(1);
    const [silent] = await alarmsOf(r.id, m.deviceId);
    expect(silent).toMatchObject({ status: 'ACTIVE', value: null });
    expect(silent?.message).toBe(`Status silent: ${m.label} sent no /status/message for 1 s`);
    await m.send({ StatusText: 'back' });
    expect((await alarmsOf(r.id, m.deviceId))[0]?.clearedAt).toBeInstanceOf(Date);
    await m.client.endAsync();
    await new Promise((resolve) => setTimeout(resolve, 1300));
    await server.app.alarms.settled();
    // Silent again after the device went away: raised once more (a new alarm; the first one closed).
    await expect.poll(async () => (await alarmsOf(r.id, m.deviceId)).length, { timeout: 3000 }).toBe(2);
  });

  it('raises while a device is offline and clears when it connects again', async () => {
    const m = await machine();
    const r = await rule({
      name: 'Connection lost',
      deviceId: m.deviceId,
      condition: { kind: 'offline' },
      severity: 'CRITICAL',
      resetRequired: true,
    });
    await m.client.endAsync();
    await expect.poll(async () => (await alarmsOf(r.id, m.deviceId)).length, { timeout: 5000 }).toBe(1);
    await server.app.alarms.settled();
    expect((await alarmsOf(r.id, m.deviceId))[0]).toMatchObject({
      status: 'ACTIVE',
      message: `Connection lost: ${m.label} is offline`,
    });
    const again = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
      clientId: m.deviceId,
      username: m.deviceId,
      password: m.password,
      reconnectPeriod: 0,
    });
    await expect
      .poll(async () => (await alarmsOf(r.id, m.deviceId))[0]?.status, { timeout: 5000 })
      .toBe('CLEARED');
    // Reset is still required: open until then.
    const [alarm] = await alarmsOf(r.id, m.deviceId);
    expect(alarm?.clearedAt).toBeNull();
    expect(await act('reset', [alarm?.id ?? ''])).toBe(1);
    expect((await alarmsOf(r.id, m.deviceId))[0]?.clearedAt).toBeInstanceOf(Date);
    await again.endAsync();
  });

  it('never opens two alarms for one (rule, device) under a burst of values', async () => {
    const m = await machine();
    const r = await rule({
      name: 'Flapping',
      deviceId: m.deviceId,
      condition: { kind: 'threshold', path: '/line/speed', operator: '>', value: 50 },
      severity: 'MINOR',
      ackRequired: true,
    });
    const { pipeline } = server.app.ingest;
    // 100 messages at once, alternating above and below, as fast as the pipeline takes them.
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        pipeline.accept(m.deviceId, Buffer.from(JSON.stringify({ values: { LineSpeed: i % 2 ? 10 : 90 } }))),
      ),
    );
    await server.app.alarms.settled();
    const rows = await alarmsOf(r.id, m.deviceId);
    // Ack is required: the one open alarm is raised again and again instead of new ones.
    expect(rows).toHaveLength(1);
    const steps = (await history(rows[0]?.id ?? '')).map((step) => step[0]);
    expect(steps.filter((kind) => kind === 'RAISED')).toHaveLength(50);
    expect(steps.filter((kind) => kind === 'CONDITION_CLEARED')).toHaveLength(50);

    const free = await rule({
      name: 'Flapping free',
      deviceId: m.deviceId,
      condition: { kind: 'threshold', path: '/batch/count', operator: '>', value: 50 },
      severity: 'MINOR',
    });
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        pipeline.accept(m.deviceId, Buffer.from(JSON.stringify({ values: { Batch: i % 2 ? 10 : 90 } }))),
      ),
    );
    await server.app.alarms.settled();
    const freeRows = await alarmsOf(free.id, m.deviceId);
    expect(freeRows).toHaveLength(30);
    expect(freeRows.filter((row) => row.clearedAt === null)).toHaveLength(0);
    await m.client.endAsync();
  });

  it('rebuilds what it remembers from the open alarms after a restart', async () => {
    const m = await machine();
    const held = await rule({
      name: 'Restart held',
      deviceId: m.deviceId,
      condition: { kind: 'threshold', path: '/line/speed', operator: '>', value: 100 },
      severity: 'MAJOR',
    });
    const suppressed = await rule({
      name: 'Restart cleared',
      deviceId: m.deviceId,
      condition: { kind: 'threshold', path: '/batch/count', operator: '>', value: 100 },
      severity: 'MAJOR',
    });
    await m.send({ LineSpeed: 120, Batch: 120 });
    const [clearedByHand] = await alarmsOf(suppressed.id, m.deviceId);
    expect(await act('clear', [clearedByHand?.id ?? ''])).toBe(1);
    await m.client.endAsync();

    // A second engine on the same database, as after a restart, fed by its own events.
    const events = new DeviceEvents();
    const restarted = new AlarmEngine({ db: server.database.db, events, log: server.app.log });
    await restarted.start();
    const seen: string[] = [];
    events.on('alarm', (change) => seen.push(`${change.alarm.name}:${change.event}`));
    const values = (v: Record<string, number>) =>
      events.emit('values', {
        organizationId: tenants.orgA.id,
        deviceId: m.deviceId,
        ts: Date.now(),
        values: v,
      });
    values({ '/line/speed': 130, '/batch/count': 130 });
    await restarted.settled();
    expect(seen).toEqual([]);
    expect(await alarmsOf(held.id, m.deviceId)).toHaveLength(1);
    expect(await alarmsOf(suppressed.id, m.deviceId)).toHaveLength(1);
    values({ '/line/speed': 50, '/batch/count': 50 });
    await restarted.settled();
    expect(seen.sort()).toEqual([
      'Restart cleared:CONDITION_CLEARED',
      'Restart held:CLOSED',
      'Restart held:CONDITION_CLEARED',
    ]);
    values({ '/batch/count': 150 });
    await restarted.settled();
    expect(await alarmsOf(suppressed.id, m.deviceId)).toHaveLength(2);
    await restarted.close();
  });

  it('closes the open alarms of a deleted rule and clears those of a disabled one', async () => {
    const m = await machine();
    const doomed = await rule({
      name: 'Doomed',
      deviceId: m.deviceId,
      condition: { kind: 'threshold', path: '/line/speed', operator: '>', value: 10 },
      severity: 'MINOR',
      ackRequired: true,
    });
    const paused = await rule({
      name: 'Paused',
      deviceId: m.deviceId,
      condition: { kind: 'threshold', path: '/batch/count', operator: '>', value: 10 },
      severity: 'MINOR',
    });
    await m.send({ LineSpeed: 50, Batch: 50 });
    const [doomedAlarm] = await alarmsOf(doomed.id, m.deviceId);
    const [pausedAlarm] = await alarmsOf(paused.id, m.deviceId);
    if (!doomedAlarm || !pausedAlarm) throw new Error('no alarms');

    const off = await call('PUT', `/svc/alarms/api/v1/rules/${paused.id}?${q()}`, rpt, { enabled: false });
    expect(off.statusCode, off.body).toBe(200);
    await server.app.alarms.settled();
    expect((await history(pausedAlarm.id)).map((step) => [step[0], step[2]])).toEqual([
      ['RAISED', ''],
      ['CONDITION_CLEARED', 'rule disabled'],
      ['CLOSED', 'nothing more required'],
    ]);
    await m.send({ Batch: 60 });
    expect(await alarmsOf(paused.id, m.deviceId)).toHaveLength(1);

    const removed = await call('DELETE', `/svc/alarms/api/v1/rules/${doomed.id}?${q()}`, rpt);
    expect(removed.statusCode).toBe(204);
    const [row] = await server.database.db.select().from(alarms).where(eq(alarms.id, doomedAlarm.id));
    expect(row).toMatchObject({ ruleId: null, status: 'CLEARED', clearedBy: tenants.adminA.email });
    expect((await history(doomedAlarm.id)).at(-1)).toEqual([
      'CLEARED',
      null,
      'rule deleted',
      tenants.adminA.email,
    ]);
    expect(eventsOf(doomedAlarm.id).at(-1)).toBe('CLEARED');
    await m.send({ LineSpeed: 70 });
    const open = await server.database.db
      .select()
      .from(alarms)
      .where(and(eq(alarms.deviceId, m.deviceId), isNull(alarms.clearedAt)));
    expect(open).toHaveLength(0);
    await m.client.endAsync();
  });

  it('raises alarms for trigger rules', async () => {
    const m = await machine();
    const [trigger] = await server.database.db
      .insert(triggerRules)
      .values({
        organizationId: tenants.orgA.id,
        name: 'raise it',
        condition: { kind: 'alarm', event: 'RAISED' } as never,
        action: { kind: 'raiseAlarm' } as never,
      })
      .returning();
    if (!trigger) throw new Error('no trigger');
    const alarm = await server.app.alarms.raise({
      organizationId: tenants.orgA.id,
      triggerId: trigger.id,
      name: 'Triggered',
      deviceId: m.deviceId,
      severity: 'CRITICAL',
      message: 'from a trigger',
      ackRequired: true,
      resetRequired: false,
      value: 7,
    });
    expect(alarm).toMatchObject({
      triggerId: trigger.id,
      ruleId: null,
      deviceLabel: m.label,
      status: 'ACTIVE',
      ack: 'REQUIRED',
      open: true,
      value: 7,
    });
    expect(eventsOf(alarm.id)).toEqual(['RAISED']);
    expect(await act('ack', [alarm.id])).toBe(1);
    expect(await act('clear', [alarm.id])).toBe(1);
    expect(eventsOf(alarm.id)).toEqual(['RAISED', 'ACKNOWLEDGED', 'CLEARED']);
    await m.client.endAsync();
  });
});
