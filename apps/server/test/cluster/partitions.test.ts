import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARTITIONS, partitionOf } from '../../src/cluster/partitions.ts';
import { alarmEvents, alarms, triggerRules } from '../../src/db/schema.ts';
import { caller } from '../support/calls.ts';
import { activatedDevice, testPreset } from '../support/devices.ts';
import { seedTenants } from '../support/fixtures.ts';
import { startAnotherInstance, startTestServer, type TestServer } from '../support/server.ts';
import { rptFor } from '../support/tokens.ts';

// Mosquitto's shared subscriptions hand a device's messages to either instance. Each device has one owner (its
// partition's lease) that alone runs its alarm and trigger state: values consumed by the other instance reach the
// owner's engines, in the order of their timestamps. Hot values go into A's pipeline, normal ones into B's.
const REALM = 'partitions';
const CROSSINGS = 8;
const SETTLE = { timeout: 5_000, interval: 25 };

const ownedBy = (server: TestServer) => server.app.partitions?.owned() ?? [];

/** Every partition owned by exactly one of `servers`. */
function coverage(servers: TestServer[]) {
  const all = servers.flatMap(ownedBy);
  return { owned: new Set(all).size, overlaps: all.length - new Set(all).size };
}

describe.runIf(process.env.TEST_DATABASE_URL)('device partitions between instances', () => {
  let first: TestServer;
  let second: TestServer;
  let third: TestServer | undefined;
  let secondClosed = false;
  let tenants: Awaited<ReturnType<typeof seedTenants>>;
  let rpt = '';
  let presetId = '';
  /** Value timestamps: each message newer than the one before. */
  let clock = Date.now() - 60 * 60_000;
  const callA = (method: 'POST' | 'PUT', url: string, body: unknown) =>
    caller(first, REALM)(method, url, rpt, body);

  /** Values the engines of any instance were handed: `${deviceId}@${ts}`. */
  const evaluated = new Set<string>();
  const watch = (server: TestServer) =>
    server.app.partitions?.input.on('values', (event) => evaluated.add(`${event.deviceId}@${event.ts}`));

  /** A value consumed by `server`, once the owner's engines have it; `late`: older than one before (dropped). */
  async function send(server: TestServer, device: string, speed: number, late = false) {
    clock += 1_000;
    const ts = late ? clock - 1_500 : clock;
    const message = { ts, values: { LineSpeed: speed } };
    await server.app.ingest.pipeline.accept(device, Buffer.from(JSON.stringify(message)));
    await server.app.partitions?.settled();
    if (!late && server.app.partitions)
      await expect.poll(() => evaluated.has(`${device}@${ts}`), SETTLE).toBe(true);
  }

  /** A rule made through A reaches the other instances' engines through the bus (invalidations.test: within 1 s). */
  const ruleChangeHeard = () => new Promise((resolve) => setTimeout(resolve, 300));

  async function rule(device: string, name: string) {
    const created = await callA('POST', `/svc/alarms/api/v1/rules?organization=${tenants.orgA.id}`, {
      name,
      deviceId: device,
      condition: { kind: 'threshold', path: '/line/speed', operator: '>', value: 100 },
      severity: 'MAJOR',
    });
    expect(created.statusCode, created.body).toBe(201);
    await ruleChangeHeard();
    return created.json().id as string;
  }

  async function trigger(device: string, name: string) {
    const created = await callA(
      'POST',
      `/svc/triggermanager/api/v1/triggers?organization=${tenants.orgA.id}`,
      {
        name,
        condition: { kind: 'data', deviceId: device, path: '/line/speed', operator: '>', value: 100 },
        action: { kind: 'write', deviceId: device, path: '/setpoints/speed', value: 50 },
      },
    );
    expect(created.statusCode, created.body).toBe(201);
    await ruleChangeHeard();
    return created.json().id as string;
  }
  const runsOf = async (triggerId: string) =>
    (await first.database.db.select().from(triggerRules).where(eq(triggerRules.id, triggerId)))[0]?.runCount;

  const alarmsOf = (ruleId: string) =>
    first.database.db.select().from(alarms).where(eq(alarms.ruleId, ruleId));
  const openOf = async (ruleId: string) =>
    (
      await first.database.db
        .select()
        .from(alarms)
        .where(and(eq(alarms.ruleId, ruleId), isNull(alarms.clearedAt)))
    ).length;
  async function eventsOf(ruleId: string, kind: 'RAISED' | 'CONDITION_CLEARED') {
    const rows = await first.database.db
      .select({ kind: alarmEvents.kind })
      .from(alarmEvents)
      .innerJoin(alarms, eq(alarms.id, alarmEvents.alarmId))
      .where(and(eq(alarms.ruleId, ruleId), eq(alarmEvents.kind, kind)));
    return rows.length;
  }

  /** Hot values consumed by `hot`, normal ones by `normal`: each crossing raises one alarm and clears it. */
  async function crossings(ruleId: string, device: string, hot: TestServer, normal: TestServer) {
    for (let crossing = 1; crossing <= CROSSINGS; crossing++) {
      await send(hot, device, 150);
      await expect.poll(() => eventsOf(ruleId, 'RAISED'), SETTLE).toBe(crossing);
      await send(normal, device, 50);
      await expect.poll(() => openOf(ruleId), SETTLE).toBe(0);
    }
    expect(await alarmsOf(ruleId)).toHaveLength(CROSSINGS);
    expect(await eventsOf(ruleId, 'RAISED')).toBe(CROSSINGS);
    expect(await eventsOf(ruleId, 'CONDITION_CLEARED')).toBe(CROSSINGS);
  }

  beforeAll(async () => {
    first = await startTestServer();
    second = await startAnotherInstance(first);
    watch(first);
    watch(second);
    tenants = await seedTenants(first, REALM);
    rpt = (await rptFor(first, REALM, tenants.adminA.email, tenants.orgA.resourceId)).rpt;
    presetId = (await testPreset(first, tenants.orgA.id)).id;
  });
  afterAll(async () => {
    await third?.close();
    if (!secondClosed) await second?.close();
    await first?.close();
  });

  it('shares the partitions: each owned by exactly one instance, half each', async () => {
    await expect
      .poll(() => ({ ...coverage([first, second]), first: ownedBy(first).length }), { timeout: 10_000 })
      .toEqual({ owned: PARTITIONS, overlaps: 0, first: PARTITIONS / 2 });
  });

  it('raises one alarm and clears it once per crossing, a trigger fires once per crossing', async () => {
    const device = (await activatedDevice(first, tenants.orgA.id, 'Split press', presetId)).deviceId;
    const ruleId = await rule(device, 'Split too fast');
    const triggerId = await trigger(device, 'Split slow down');
    await crossings(ruleId, device, first, second);
    await Promise.all([first, second].map((server) => server.app.triggers.settled()));
    expect(await runsOf(triggerId)).toBe(CROSSINGS);
  });

  it('evaluates by the value timestamp: an older hot value arriving after a newer normal one raises nothing', async () => {
    const device = (await activatedDevice(first, tenants.orgA.id, 'Late press', presetId)).deviceId;
    const ruleId = await rule(device, 'Late too fast');
    await send(second, device, 50);
    await send(first, device, 150, true);
    await send(second, device, 60);
    await Promise.all([first, second].map((server) => server.app.alarms.settled()));
    expect(await eventsOf(ruleId, 'RAISED')).toBe(0);
    // A later crossing still raises: the engines did evaluate in between.
    await send(first, device, 150);
    await expect.poll(() => eventsOf(ruleId, 'RAISED'), SETTLE).toBe(1);
    expect(await alarmsOf(ruleId)).toHaveLength(1);
  });

  it("moves a closed owner's partitions to the others; its devices' alarms still raise once per crossing", async () => {
    third = await startAnotherInstance(first);
    watch(third);
    await expect
      .poll(
        () => ({
          ...coverage([first, second, third as TestServer]),
          third: ownedBy(third as TestServer).length > 0,
        }),
        {
          timeout: 10_000,
        },
      )
      .toEqual({ owned: PARTITIONS, overlaps: 0, third: true });
    // A device of the second instance's partitions: the second instance then stops.
    const secondOwns = new Set(ownedBy(second));
    let device = '';
    for (let attempt = 0; attempt < 20 && !device; attempt++) {
      const made = (await activatedDevice(first, tenants.orgA.id, `Moved press ${attempt}`, presetId))
        .deviceId;
      if (secondOwns.has(partitionOf(made))) device = made;
    }
    expect(device).not.toBe('');
    const ruleId = await rule(device, 'Moved too fast');
    const triggerId = await trigger(device, 'Moved slow down');
    await send(first, device, 150);
    await expect.poll(() => eventsOf(ruleId, 'RAISED'), SETTLE).toBe(1);
    await expect.poll(() => runsOf(triggerId), SETTLE).toBe(1);
    await first.app.ingest.flush();
    await second.close();
    secondClosed = true;
    await expect
      .poll(() => coverage([first, third as TestServer]), { timeout: 10_000 })
      .toEqual({ owned: PARTITIONS, overlaps: 0 });
    // The new owner restored the open alarm and the trigger's last result: a value still over the limit raises and
    // fires nothing, the normal value clears it, the next hot one raises the second.
    await send(third as TestServer, device, 160);
    await send(third as TestServer, device, 50);
    await expect.poll(() => openOf(ruleId), SETTLE).toBe(0);
    await send(first, device, 150);
    await expect.poll(() => eventsOf(ruleId, 'RAISED'), SETTLE).toBe(2);
    await send(third as TestServer, device, 50);
    await expect.poll(() => openOf(ruleId), SETTLE).toBe(0);
    expect(await alarmsOf(ruleId)).toHaveLength(2);
    await Promise.all([first, third as TestServer].map((server) => server.app.triggers.settled()));
    expect(await runsOf(triggerId)).toBe(2);
  });
});
