import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTENER_NAME } from '../../src/cluster/postgres-event-bus.ts';
import { alarmRules, alarms, telemetry, triggerRules } from '../../src/db/schema.ts';
import { caller } from '../support/calls.ts';
import { activatedDevice, testPreset } from '../support/devices.ts';
import { consumeAndSettle } from '../support/engines.ts';
import { seedTenants } from '../support/fixtures.ts';
import { startAnotherInstance, startTestServer, type TestServer } from '../support/server.ts';
import { rptFor } from '../support/tokens.ts';

// A change made through instance A applies on instance B within a second: rules, limits and device presets are
// cached per instance and invalidated through PostgreSQL LISTEN/NOTIFY. Values are fed into B's pipeline only, so
// what A's own caches hold cannot make these pass.
const REALM = 'bus';
const WITHIN_1_S = { timeout: 1_000, interval: 20 };

describe.runIf(process.env.TEST_DATABASE_URL)('invalidations between two instances', () => {
  let first: TestServer;
  let second: TestServer;
  let tenants: Awaited<ReturnType<typeof seedTenants>>;
  let rpt = '';
  let deviceId = '';
  let presetId = '';
  const callA = (method: 'POST' | 'PUT', url: string, body: unknown) =>
    caller(first, REALM)(method, url, rpt, body);

  /** A message of `values` (data tags) consumed by instance B, with its alarm and trigger work finished. */
  async function onB(device: string, values: Record<string, number | boolean>) {
    // The device's alarm and trigger state runs on its partition's owner: A or B.
    await consumeAndSettle(second, [first, second], device, { values });
  }

  beforeAll(async () => {
    first = await startTestServer();
    // B starts before any rule exists: it can only learn of them through the bus.
    second = await startAnotherInstance(first);
    tenants = await seedTenants(first, REALM);
    rpt = (await rptFor(first, REALM, tenants.adminA.email, tenants.orgA.resourceId)).rpt;
    presetId = (await testPreset(first, tenants.orgA.id)).id;
    deviceId = (await activatedDevice(first, tenants.orgA.id, 'Press', presetId)).deviceId;
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('an alarm rule created through A raises on B; disabled through A, it clears and stops raising on B within 1 s', async () => {
    const created = await callA('POST', `/svc/alarms/api/v1/rules?organization=${tenants.orgA.id}`, {
      name: 'Too fast',
      deviceId,
      condition: { kind: 'threshold', path: '/line/speed', operator: '>', value: 100 },
      severity: 'MAJOR',
    });
    expect(created.statusCode, created.body).toBe(201);
    const ruleId: string = created.json().id;
    const alarmsOfRule = () => first.database.db.select().from(alarms).where(eq(alarms.ruleId, ruleId));

    await expect
      .poll(async () => {
        await onB(deviceId, { LineSpeed: 150 });
        return (await alarmsOfRule()).map((alarm) => alarm.status);
      }, WITHIN_1_S)
      .toEqual(['ACTIVE']);

    const disabledAt = performance.now();
    const disabled = await callA(
      'PUT',
      `/svc/alarms/api/v1/rules/${ruleId}?organization=${tenants.orgA.id}`,
      {
        enabled: false,
      },
    );
    expect(disabled.statusCode, disabled.body).toBe(200);
    // B raised it and only B remembers that: B's engine clears it when it drops the rule.
    await expect
      .poll(async () => (await alarmsOfRule()).map((alarm) => alarm.status), WITHIN_1_S)
      .toEqual(['CLEARED']);
    await onB(deviceId, { LineSpeed: 50 });
    await onB(deviceId, { LineSpeed: 160 });
    expect(performance.now() - disabledAt).toBeLessThan(1_000);
    expect(await alarmsOfRule()).toHaveLength(1);
  });

  it('a trigger created through A fires for values consumed by B, and stops once disabled through A', async () => {
    const created = await callA(
      'POST',
      `/svc/triggermanager/api/v1/triggers?organization=${tenants.orgA.id}`,
      {
        name: 'Slow down',
        condition: { kind: 'data', deviceId, path: '/line/speed', operator: '>', value: 100 },
        action: { kind: 'write', deviceId, path: '/setpoints/speed', value: 50 },
      },
    );
    expect(created.statusCode, created.body).toBe(201);
    const triggerId: string = created.json().id;
    const runs = async () =>
      (await first.database.db.select().from(triggerRules).where(eq(triggerRules.id, triggerId)))[0]
        ?.runCount;

    // Each probe is one crossing: it fires the trigger once B knows it.
    const crossing = async () => {
      await onB(deviceId, { LineSpeed: 50 });
      await onB(deviceId, { LineSpeed: 150 });
    };
    await expect
      .poll(async () => {
        await crossing();
        return runs();
      }, WITHIN_1_S)
      .toBe(1);

    const disabled = await callA(
      'PUT',
      `/svc/triggermanager/api/v1/triggers/${triggerId}?organization=${tenants.orgA.id}`,
      { enabled: false },
    );
    expect(disabled.statusCode, disabled.body).toBe(200);
    let before = await runs();
    await expect
      .poll(async () => {
        before = await runs();
        await crossing();
        return (await runs()) === before;
      }, WITHIN_1_S)
      .toBe(true);
    await crossing();
    expect(await runs()).toBe(before);
  });

  it("a device's preset taken away through A applies to B's next messages within 1 s", async () => {
    const device = (await activatedDevice(first, tenants.orgA.id, 'Mixer', presetId)).deviceId;
    const stored = async () =>
      (await first.database.db.select().from(telemetry).where(eq(telemetry.deviceId, device))).length;
    await onB(device, { LineSpeed: 10 });
    expect(await stored()).toBe(1);
    const changed = await callA(
      'PUT',
      `/svc/mappings/api/v1/organizations/${tenants.orgA.id}/devices/${device}`,
      { presetId: null },
    );
    expect(changed.statusCode, changed.body).toBe(200);
    // Without a preset no tag is mapped: B stores nothing more once it looked the device up again.
    await expect
      .poll(async () => {
        const count = await stored();
        await onB(device, { LineSpeed: 11 });
        return (await stored()) === count;
      }, WITHIN_1_S)
      .toBe(true);
  });

  it('after its LISTEN connection was killed, B reconnects and reloads what it may have missed', async () => {
    const created = await callA('POST', `/svc/alarms/api/v1/rules?organization=${tenants.orgA.id}`, {
      name: 'Too hot',
      deviceId,
      condition: { kind: 'threshold', path: '/motor/temperature', operator: '>', value: 80 },
      severity: 'MINOR',
    });
    expect(created.statusCode, created.body).toBe(201);
    const ruleId: string = created.json().id;
    const raised = async () =>
      (await first.database.db.select().from(alarms).where(eq(alarms.ruleId, ruleId))).length;
    await expect
      .poll(async () => {
        await onB(deviceId, { MotorTemp: 900 });
        return raised();
      }, WITHIN_1_S)
      .toBe(1);
    await onB(deviceId, { MotorTemp: 200 });
    // A change whose message no instance hears: as if it was sent while the connections were down.
    await first.database.db.update(alarmRules).set({ enabled: false }).where(eq(alarmRules.id, ruleId));
    const listeners = await first.database.db
      .select({ pid: sql<number>`pid` })
      .from(sql`pg_stat_activity`)
      .where(sql`datname = current_database() and application_name = ${LISTENER_NAME}`);
    expect(listeners).toHaveLength(2);
    for (const { pid } of listeners)
      await first.database.db.execute(sql`select pg_terminate_backend(${pid})`);
    await expect
      .poll(
        async () => {
          const before = await raised();
          await onB(deviceId, { MotorTemp: 900 });
          await onB(deviceId, { MotorTemp: 200 });
          return (await raised()) === before;
        },
        { timeout: 3_000, interval: 50 },
      )
      .toBe(true);
  });

  it("a data-point limit set through A refuses B's messages within 1 s", async () => {
    // B has read the (absent) limit just now: its cache would keep it for seconds.
    await onB(deviceId, { LineSpeed: 20 });
    const refusedBefore = second.app.ingest.pipeline.meter.refusedToday(tenants.orgA.id);
    const set = await callA('POST', `/svc/limits/api/v1/limits?organization=${tenants.orgA.id}`, {
      dataPointsPerDay: 1,
    });
    expect(set.statusCode, set.body).toBe(201);
    await expect
      .poll(async () => {
        await onB(deviceId, { LineSpeed: 21 });
        return second.app.ingest.pipeline.meter.refusedToday(tenants.orgA.id) > refusedBefore;
      }, WITHIN_1_S)
      .toBe(true);
  });
});
