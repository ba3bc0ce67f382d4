import type { alarms } from '@edgeport/contract';
import { eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { caller } from '../../../test/support/calls.ts';
import { activatedDevice, testPreset } from '../../../test/support/devices.ts';
import { seedTenants } from '../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { rptFor } from '../../../test/support/tokens.ts';
import { devices, notificationRules, triggerRules } from '../../db/schema.ts';
import type { DataValue } from '../../ingest/payload.ts';
import { compare } from './engine.ts';

const REALM = 'engine';
let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let rptA: string;
let presetId: string;
let lineA: { deviceId: string; password: string };
let lineB: { deviceId: string; password: string };
let notificationId: string;
let mqttPort: number;

const base = '/svc/triggermanager/api/v1/triggers';

async function createTrigger(body: Record<string, unknown>) {
  const response = await call('POST', `${base}?organization=${tenants.orgA.id}`, rptA, body);
  if (response.statusCode !== 201) throw new Error(response.body);
  return response.json() as { id: string };
}

async function stored(id: string) {
  const [row] = await server.database.db.select().from(triggerRules).where(eq(triggerRules.id, id));
  return row;
}

function emit(deviceId: string, values: Record<string, DataValue>, organizationId = tenants.orgA.id) {
  server.app.ingest.events.emit('values', { organizationId, deviceId, ts: Date.now(), values });
}

const notifyOn = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  condition: { kind: 'data', deviceId: lineA.deviceId, path: '/line/speed', operator: '>', value: 100 },
  action: { kind: 'notify', notificationId },
  ...extra,
});

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server, REALM);
  call = caller(server, REALM);
  rptA = (await rptFor(server, REALM, tenants.adminA.email, tenants.orgA.resourceId)).rpt;
  presetId = (await testPreset(server, tenants.orgA.id)).id;
  lineA = await activatedDevice(server, tenants.orgA.id, 'Line A', presetId);
  lineB = await activatedDevice(server, tenants.orgA.id, 'Line B', presetId);
  const [rule] = await server.database.db
    .insert(notificationRules)
    .values({
      organizationId: tenants.orgA.id,
      name: 'Ops',
      source: { alarmEvents: [], severities: [], alarmRuleIds: [] },
      recipients: { userIds: [], groupIds: [], emails: ['ops@example.test'], webhooks: [] },
    })
    .returning();
  notificationId = rule?.id ?? '';
  mqttPort = await server.app.ingest.listen(0, '127.0.0.1');
});
afterAll(() => server.close());
afterEach(async () => {
  await server.app.triggers.settled();
  vi.restoreAllMocks();
  // Each test starts without rules.
  await server.database.db.delete(triggerRules);
  await server.app.triggers.rulesChanged(tenants.orgA.id);
});

describe('compare', () => {
  it('orders numbers and strings, and compares booleans for equality only', () => {
    expect(compare(120, '>', 100)).toBe(true);
    expect(compare(100, '>', 100)).toBe(false);
    expect(compare(100, '>=', 100)).toBe(true);
    expect(compare('b', '>', 'a')).toBe(true);
    expect(compare(true, '==', true)).toBe(true);
    expect(compare(true, '!=', false)).toBe(true);
    expect(compare(true, '>', false)).toBe(false);
    expect(compare('5', '==', 5)).toBe(false);
    expect(compare('5', '!=', 5)).toBe(false);
  });
});

describe('data conditions', () => {
  it('fire once when the comparison becomes true, again only after it was false', async () => {
    const notify = vi.spyOn(server.app.notifier, 'notifyTrigger').mockResolvedValue();
    const trigger = await createTrigger(notifyOn('Too fast'));
    for (const speed of [50, 120, 130, 140]) emit(lineA.deviceId, { '/line/speed': speed });
    emit(lineA.deviceId, { '/line/running': true }); // another path: nothing
    await server.app.triggers.settled();
    expect(notify).toHaveBeenCalledTimes(1);
    expect(notify).toHaveBeenCalledWith(tenants.orgA.id, notificationId, {
      triggerId: trigger.id,
      triggerName: 'Too fast',
      detail: "/line/speed = 120 (> 100) on device 'Line A'",
    });
    for (const speed of [90, 110]) emit(lineA.deviceId, { '/line/speed': speed });
    await server.app.triggers.settled();
    expect(notify).toHaveBeenCalledTimes(2);
    const row = await stored(trigger.id);
    expect(row?.runCount).toBe(2);
    expect(row?.lastRunAt).toBeInstanceOf(Date);
    expect(row?.lastError).toBeNull();
  });

  it('watch only the named device, or every device of the organization separately', async () => {
    const notify = vi.spyOn(server.app.notifier, 'notifyTrigger').mockResolvedValue();
    await createTrigger(notifyOn('Line A only'));
    const anyLine = await createTrigger(
      notifyOn('Any line', {
        condition: { kind: 'data', deviceId: null, path: '/line/speed', operator: '>', value: 100 },
      }),
    );
    emit(lineB.deviceId, { '/line/speed': 150 });
    emit(lineA.deviceId, { '/line/speed': 150 });
    emit(lineB.deviceId, { '/line/speed': 160 });
    // The same path in another organization is not this organization's business.
    emit(lineA.deviceId, { '/line/speed': 1 }, tenants.orgB.id);
    emit(lineA.deviceId, { '/line/speed': 170 }, tenants.orgB.id);
    await server.app.triggers.settled();
    expect(notify).toHaveBeenCalledTimes(3);
    expect((await stored(anyLine.id))?.runCount).toBe(2);
  });

  it('wait for the cooldown between runs', async () => {
    const notify = vi.spyOn(server.app.notifier, 'notifyTrigger').mockResolvedValue();
    const trigger = await createTrigger(notifyOn('Cooling', { cooldownSeconds: 3600 }));
    for (const speed of [120, 90, 130, 90, 140]) emit(lineA.deviceId, { '/line/speed': speed });
    await server.app.triggers.settled();
    expect(notify).toHaveBeenCalledTimes(1);
    expect((await stored(trigger.id))?.runCount).toBe(1);
  });

  it('do nothing while the rule is disabled, and work again once it is enabled', async () => {
    const notify = vi.spyOn(server.app.notifier, 'notifyTrigger').mockResolvedValue();
    const trigger = await createTrigger(notifyOn('Sleeping', { enabled: false }));
    emit(lineA.deviceId, { '/line/speed': 150 });
    await server.app.triggers.settled();
    expect(notify).not.toHaveBeenCalled();
    expect((await stored(trigger.id))?.runCount).toBe(0);
    const enabled = await call('PUT', `${base}/${trigger.id}?organization=${tenants.orgA.id}`, rptA, {
      enabled: true,
    });
    expect(enabled.statusCode).toBe(200);
    emit(lineA.deviceId, { '/line/speed': 90 });
    emit(lineA.deviceId, { '/line/speed': 150 });
    await server.app.triggers.settled();
    expect(notify).toHaveBeenCalledTimes(1);
  });

  it('write a set-point that the device receives on its set-point topic', async () => {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
      clientId: lineA.deviceId,
      username: lineA.deviceId,
      password: lineA.password,
      reconnectPeriod: 0,
    });
    await client.subscribeAsync(`devices/${lineA.deviceId}/setpoints`, { qos: 1 });
    const received = new Promise<Record<string, unknown>>((resolve) =>
      client.once('message', (_topic, payload) => resolve(JSON.parse(payload.toString()))),
    );
    const trigger = await createTrigger({
      name: 'Slow down',
      condition: {
        kind: 'data',
        deviceId: lineA.deviceId,
        path: '/motor/temperature',
        operator: '>=',
        value: 80,
      },
      action: { kind: 'write', deviceId: lineA.deviceId, path: '/setpoints/speed', value: 40 },
    });
    // The device itself reports the temperature (MotorTemp / 10) through ingest.
    await client.publishAsync(
      `devices/${lineA.deviceId}/data`,
      JSON.stringify({ values: { MotorTemp: 850 } }),
      {
        qos: 1,
      },
    );
    expect(await received).toMatchObject({ tag: 'SpeedSetpoint', path: '/setpoints/speed', value: 40 });
    await client.endAsync();
    await server.app.triggers.settled();
    expect(await stored(trigger.id)).toMatchObject({ runCount: 1, lastError: null });
  });
});

describe('alarm conditions', () => {
  const alarm = (severity: alarms.Severity, ruleId: string | null): alarms.Alarm => ({
    id: '00000000-0000-4000-8000-000000000001',
    organizationId: tenants.orgA.id,
    ruleId,
    triggerId: null,
    deviceId: lineA.deviceId,
    deviceLabel: 'Line A',
    name: 'Hot motor',
    path: '/motor/temperature',
    severity,
    status: 'ACTIVE',
    ack: 'REQUIRED',
    reset: 'NOT_REQUIRED',
    open: true,
    message: 'motor at 95 °C',
    value: 95,
    raisedAt: new Date().toISOString(),
    conditionClearedAt: null,
    ackAt: null,
    ackBy: null,
    resetAt: null,
    resetBy: null,
    clearedAt: null,
    clearedBy: null,
    updatedAt: new Date().toISOString(),
  });

  it('fire on the event kind and severities asked for, calling the webhook', async () => {
    const webhook = vi.spyOn(server.app.notifier, 'callWebhook').mockResolvedValue();
    const trigger = await createTrigger({
      name: 'Critical raised',
      condition: { kind: 'alarm', event: 'RAISED', severities: ['CRITICAL'], ruleIds: [] },
      action: { kind: 'webhook', url: 'https://hooks.example.com/alarm' },
    });
    const events = server.app.ingest.events;
    events.emit('alarm', { organizationId: tenants.orgA.id, event: 'RAISED', alarm: alarm('MINOR', null) });
    events.emit('alarm', {
      organizationId: tenants.orgA.id,
      event: 'ACKNOWLEDGED',
      alarm: alarm('CRITICAL', null),
    });
    events.emit('alarm', {
      organizationId: tenants.orgB.id,
      event: 'RAISED',
      alarm: alarm('CRITICAL', null),
    });
    events.emit('alarm', {
      organizationId: tenants.orgA.id,
      event: 'RAISED',
      alarm: alarm('CRITICAL', null),
    });
    await server.app.triggers.settled();
    expect(webhook).toHaveBeenCalledTimes(1);
    expect(webhook.mock.calls[0]?.[1]).toBe('https://hooks.example.com/alarm');
    expect(webhook.mock.calls[0]?.[2]).toMatchObject({
      trigger: { id: trigger.id, name: 'Critical raised' },
      device: { id: lineA.deviceId, label: 'Line A' },
      alarm: { event: 'RAISED', severity: 'CRITICAL', name: 'Hot motor' },
      manual: false,
    });
  });

  it('raise an alarm through the alarm engine, never for an alarm a trigger raised', async () => {
    const raise = vi.spyOn(server.app.alarms, 'raise').mockImplementation(async () => alarm('MAJOR', null));
    const trigger = await createTrigger({
      name: 'Escalate',
      condition: { kind: 'alarm', event: 'ACKNOWLEDGED', severities: [], ruleIds: [] },
      action: {
        kind: 'alarm',
        severity: 'MAJOR',
        message: 'acknowledged: check it',
        ackRequired: true,
        resetRequired: true,
      },
    });
    const events = server.app.ingest.events;
    events.emit('alarm', {
      organizationId: tenants.orgA.id,
      event: 'ACKNOWLEDGED',
      alarm: { ...alarm('INFO', null), triggerId: trigger.id },
    });
    events.emit('alarm', {
      organizationId: tenants.orgA.id,
      event: 'ACKNOWLEDGED',
      alarm: alarm('INFO', null),
    });
    await server.app.triggers.settled();
    expect(raise).toHaveBeenCalledTimes(1);
    expect(raise).toHaveBeenCalledWith({
      organizationId: tenants.orgA.id,
      triggerId: trigger.id,
      name: 'Escalate',
      deviceId: lineA.deviceId,
      severity: 'MAJOR',
      message: 'acknowledged: check it',
      ackRequired: true,
      resetRequired: true,
      value: 95,
    });
  });
});

describe('failures and test runs', () => {
  it('record a failing action as the last error, never throwing into ingest', async () => {
    vi.spyOn(server.app.notifier, 'notifyTrigger').mockRejectedValue(new Error('SMTP is down'));
    const trigger = await createTrigger(notifyOn('Failing'));
    emit(lineA.deviceId, { '/line/speed': 90 });
    expect(() => emit(lineA.deviceId, { '/line/speed': 150 })).not.toThrow();
    await server.app.triggers.settled();
    const row = await stored(trigger.id);
    expect(row).toMatchObject({ runCount: 1, lastError: 'SMTP is down' });
    expect(row?.lastErrorAt?.getTime()).toBe(row?.lastRunAt?.getTime());
  });

  it('run the action once now and answer the rule with the run and its error', async () => {
    const trigger = await createTrigger({
      name: 'Write now',
      condition: { kind: 'data', deviceId: lineA.deviceId, path: '/line/speed', operator: '>', value: 100 },
      action: { kind: 'write', deviceId: lineB.deviceId, path: '/setpoints/speed', value: 10 },
    });
    const runUrl = `${base}/${trigger.id}/run?organization=${tenants.orgA.id}`;
    const ok = await call('POST', runUrl, rptA);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ runCount: 1, lastError: null, lastErrorAt: null });
    expect(ok.json().lastRunAt).not.toBeNull();

    // The device loses its preset: the write can no longer be sent.
    await server.database.db.update(devices).set({ presetId: null }).where(eq(devices.id, lineB.deviceId));
    const failed = await call('POST', runUrl, rptA);
    expect(failed.statusCode).toBe(200);
    expect(failed.json()).toMatchObject({
      runCount: 2,
      lastError: "action/path '/setpoints/speed' is not a path of the device's preset",
    });
    expect(failed.json().lastErrorAt).toBe(failed.json().lastRunAt);
    await server.database.db.update(devices).set({ presetId }).where(eq(devices.id, lineB.deviceId));
  });
});
