import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTenants } from '../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import type { Db } from '../db/index.ts';
import { organizationLimits, telemetry, telemetryRollups } from '../db/schema.ts';
import { insertTelemetry, type TelemetryRow } from '../ingest/store.ts';
import { createDevice } from '../services/core/devices/provisioning.ts';
import { summaryOfDevices } from '../services/platform/data/store.ts';
import { compactTelemetry } from './compaction.ts';
import { DAY_MS, dayOf, ensurePartitionsAhead, partitionName, partitionsOf } from './partitions.ts';
import { applyRetention } from './retention.ts';
import {
  HOLD_AT_MOST_MS,
  markStoppedCleanly,
  RollupAccumulator,
  repairAfterCrash,
} from './rollup-accumulator.ts';
import { ROLLUP_WIDTHS, rebuildRecentRollups, rollupAverages } from './rollups.ts';

let server: TestServer;
let db: Db;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
const NOW = Date.now();

beforeAll(async () => {
  server = await startTestServer();
  db = server.database.db;
  tenants = await seedTenants(server);
});
afterAll(() => server.close());

/** What ingest does with a batch: store it, then accumulate its rollups (added to the database by `fold`). */
const accumulator = new RollupAccumulator();
async function store(rows: TelemetryRow[]): Promise<void> {
  await insertTelemetry(db, rows);
  for (const row of rows) accumulator.add(row.deviceId, row.ts, row.values);
}
const fold = () => accumulator.flush(db, 'test');

/** The partition each of the device's rows is stored in, oldest first. */
async function partitionsHolding(deviceId: string): Promise<string[]> {
  const result = await db.execute(
    sql`select tableoid::regclass::text as name from telemetry where device_id = ${deviceId}::uuid order by ts`,
  );
  return (result as unknown as { rows: { name: string }[] }).rows.map((row) => row.name);
}

describe('telemetry partitions', () => {
  it("has today's partition and the next three days' ready from the start", async () => {
    const names = (await partitionsOf(db)).map((partition) => partition.name);
    for (let ahead = 0; ahead <= 3; ahead += 1)
      expect(names).toContain(partitionName(dayOf(NOW) + ahead * DAY_MS));
  });

  it('makes the days ahead across a month boundary, one day each, without gaps', async () => {
    await ensurePartitionsAhead(db, Date.parse('2031-01-30T22:15:00Z'));
    const made = (await partitionsOf(db)).filter((partition) => partition.name.startsWith('telemetry_p2031'));
    expect(made.map((partition) => partition.name)).toEqual([
      'telemetry_p20310130',
      'telemetry_p20310131',
      'telemetry_p20310201',
      'telemetry_p20310202',
    ]);
    expect(made[2]).toMatchObject({
      fromMs: Date.parse('2031-02-01T00:00:00Z'),
      toMs: Date.parse('2031-02-02T00:00:00Z'),
    });
    // Making them again (another instance, the next hour) changes nothing.
    await ensurePartitionsAhead(db, Date.parse('2031-01-30T23:15:00Z'));
    expect(
      (await partitionsOf(db)).filter((partition) => partition.name.startsWith('telemetry_p2031')),
    ).toEqual(made);
  });

  it('stores a value late by days, or far ahead, in the partition of its own day', async () => {
    const device = await createDevice(db, tenants.orgA.id, 'late-sender');
    const late = NOW - 40 * DAY_MS;
    const ahead = Date.parse('2032-06-15T08:00:00Z');
    await insertTelemetry(db, [
      { deviceId: device.id, ts: late, values: { '/t': 1 } },
      { deviceId: device.id, ts: NOW, values: { '/t': 2 } },
      { deviceId: device.id, ts: ahead, values: { '/t': 3 } },
    ]);
    expect(await partitionsHolding(device.id)).toEqual([
      partitionName(dayOf(late)),
      partitionName(dayOf(NOW)),
      'telemetry_p20320615',
    ]);
  });
});

type Expected = { min: number; max: number; sum: number; count: number; lastTs: number; last: number };

/** The rollups of the device computed here from its stored rows. */
async function rollupsFromRawRows(deviceId: string): Promise<Map<string, Expected>> {
  const rows = await db
    .select({ ts: sql<string>`${telemetry.ts}::text`, values: telemetry.values })
    .from(telemetry)
    .where(eq(telemetry.deviceId, deviceId));
  const expected = new Map<string, Expected>();
  for (const row of rows) {
    const ms = Date.parse(row.ts.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'));
    for (const [path, raw] of Object.entries(row.values)) {
      if (typeof raw === 'string') continue;
      const value = typeof raw === 'boolean' ? Number(raw) : raw;
      for (const widthS of Object.values(ROLLUP_WIDTHS)) {
        const bucket = Math.floor(ms / 1000 / widthS) * widthS * 1000;
        const key = `${path}|${widthS}|${bucket}`;
        const known = expected.get(key);
        if (!known) {
          expected.set(key, { min: value, max: value, sum: value, count: 1, lastTs: ms, last: value });
          continue;
        }
        known.min = Math.min(known.min, value);
        known.max = Math.max(known.max, value);
        known.sum += value;
        known.count += 1;
        if (ms >= known.lastTs) Object.assign(known, { lastTs: ms, last: value });
      }
    }
  }
  return expected;
}

async function storedRollups(deviceId: string): Promise<Map<string, Expected>> {
  const rows = await db
    .select()
    .from(telemetryRollups)
    .where(eq(telemetryRollups.deviceId, deviceId))
    .orderBy(asc(telemetryRollups.bucket));
  return new Map(
    rows.map((row) => [
      `${row.path}|${row.widthS}|${row.bucket.getTime()}`,
      {
        min: row.min,
        max: row.max,
        sum: row.sum,
        count: row.count,
        lastTs: row.lastTs.getTime(),
        last: row.last,
      },
    ]),
  );
}

describe('telemetry rollups', () => {
  const batchOf = fc.array(
    fc.record({
      // Within three hours, to the millisecond: minutes and hours both get several values.
      offsetMs: fc.integer({ min: 0, max: 3 * 60 * 60 * 1000 }),
      speed: fc.option(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { nil: undefined }),
      running: fc.option(fc.boolean(), { nil: undefined }),
      state: fc.option(fc.constantFrom('ok', 'fault'), { nil: undefined }),
    }),
    { minLength: 1, maxLength: 30 },
  );

  it('equal the stored values they summarise, whatever order and batches the values came in (late ones too)', async () => {
    // After a batch: nothing, a whole flush, or a periodic one at a time within the values' hours (it adds only the
    // minutes over by then).
    const flushOf = fc.oneof(
      fc.constant(undefined),
      fc.constant('all' as const),
      fc.integer({ min: 0, max: 3 * 60 * 60 * 1000 }),
    );
    const batchesAndFolds = fc.array(fc.tuple(batchOf, flushOf), { minLength: 1, maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(batchesAndFolds, async (batches) => {
        const device = await createDevice(db, tenants.orgA1.id, `property-${randomUUID()}`);
        const start = dayOf(NOW) - 2 * DAY_MS;
        // Distinct times per device: with two values at one time, which is the last would be a matter of chance.
        const seen = new Set<number>();
        for (const [batch, foldAfter] of batches) {
          const rows: TelemetryRow[] = [];
          for (const entry of batch) {
            if (seen.has(entry.offsetMs)) continue;
            seen.add(entry.offsetMs);
            const values: TelemetryRow['values'] = {};
            if (entry.speed !== undefined) values['/speed'] = entry.speed;
            if (entry.running !== undefined) values['/running'] = entry.running;
            if (entry.state !== undefined) values['/state'] = entry.state;
            rows.push({ deviceId: device.id, ts: start + entry.offsetMs, values });
          }
          if (rows.length > 0) await store(rows);
          // Folding between batches: the later ones are late for the rollups already made.
          if (foldAfter === 'all') await fold();
          else if (foldAfter !== undefined) await accumulator.flush(db, 'test', start + foldAfter);
        }
        await fold();
        const expected = await rollupsFromRawRows(device.id);
        const stored = await storedRollups(device.id);
        expect([...stored.keys()].sort()).toEqual([...expected.keys()].sort());
        for (const [key, want] of expected) {
          const got = stored.get(key) as Expected;
          expect({ ...got, sum: undefined }, key).toEqual({ ...want, sum: undefined });
          expect(got.sum).toBeCloseTo(want.sum, 3);
        }
      }),
      { numRuns: 25 },
    );
  });
});

describe('the periodic flush of the rollups', () => {
  it('adds a minute once it is over, or once its partial waited a minute, and keeps the current one', async () => {
    const device = await createDevice(db, tenants.orgA1.id, 'periodic');
    const minute = Math.floor(NOW / 60_000) * 60_000 - 10 * 60_000;
    const periodic = new RollupAccumulator();
    const minutesStored = async () =>
      [...(await storedRollups(device.id)).entries()]
        .filter(([key]) => key.includes('|60|'))
        .map(([key, rollup]) => [Number(key.split('|')[2]) - minute, rollup.count]);
    // Stored at `minute + 5 s` (its receive time): values of this minute and of the next.
    periodic.add(device.id, minute + 1_000, { '/speed': 1 }, minute + 5_000);
    periodic.add(device.id, minute + 2_000, { '/speed': 2 }, minute + 5_000);
    periodic.add(device.id, minute + 61_000, { '/speed': 3 }, minute + 5_000);
    await periodic.flush(db, 'periodic', minute + 59_999);
    expect(await minutesStored()).toEqual([]);
    expect(periodic.size).toBe(2);
    await periodic.flush(db, 'periodic', minute + 60_000);
    expect(await minutesStored()).toEqual([[0, 2]]);
    // The next minute is not over yet, but its partial waited HOLD_AT_MOST_MS.
    await periodic.flush(db, 'periodic', minute + 5_000 + HOLD_AT_MOST_MS - 1);
    expect(periodic.size).toBe(1);
    await periodic.flush(db, 'periodic', minute + 5_000 + HOLD_AT_MOST_MS);
    expect(await minutesStored()).toEqual([
      [0, 2],
      [60_000, 1],
    ]);
    expect(periodic.size).toBe(0);
  });
});

describe('the hours of the rollups', () => {
  const HOUR_MS = 3_600_000;
  const hourRowsOf = async (deviceId: string) =>
    [...(await storedRollups(deviceId)).entries()].filter(([key]) => key.includes('|3600|'));

  it('are added once the hour is over (late values at once), and readers sum the open hour from its minutes', async () => {
    const device = await createDevice(db, tenants.orgA1.id, 'hours');
    const hour = Math.floor(NOW / HOUR_MS) * HOUR_MS - 3 * HOUR_MS;
    const periodic = new RollupAccumulator();
    periodic.add(device.id, hour + 60_000, { '/speed': 2 }, hour + 61_000);
    periodic.add(device.id, hour + 120_000, { '/speed': 4 }, hour + 121_000);
    await periodic.flush(db, 'hours', hour + 180_000);
    expect((await storedRollups(device.id)).get(`/speed|60|${hour + 60_000}`)?.count).toBe(1);
    expect(await hourRowsOf(device.id)).toEqual([]);
    // A late value of the hour before: its minute and its hour at once.
    periodic.add(device.id, hour - 1_000, { '/speed': 10 }, hour + 200_000);
    await periodic.flush(db, 'hours', hour + 200_000);
    expect((await hourRowsOf(device.id)).map(([key, rollup]) => [key, rollup.count])).toEqual([
      [`/speed|3600|${hour - HOUR_MS}`, 1],
    ]);
    await periodic.flush(db, 'hours', hour + HOUR_MS);
    expect((await storedRollups(device.id)).get(`/speed|3600|${hour}`)).toEqual({
      min: 2,
      max: 4,
      sum: 6,
      count: 2,
      lastTs: hour + 120_000,
      last: 4,
    });
  });

  it('of the current hour are read from its minutes, once, whether or not an hour row was added', async () => {
    const device = await createDevice(db, tenants.orgA1.id, 'current-hour');
    const now = Date.now();
    const periodic = new RollupAccumulator();
    const times = [now - 1_000, now - 61_000, now - 121_000].filter(
      (t) => t >= Math.floor(now / HOUR_MS) * HOUR_MS,
    );
    for (const [i, ts] of times.entries()) periodic.add(device.id, ts, { '/speed': i + 1 }, now);
    // The minutes are over (or held a minute) by `now + HOLD_AT_MOST_MS`, the hour is not: no hour row yet.
    await periodic.flush(db, 'current-hour', now + HOLD_AT_MOST_MS);
    const range = { from: new Date(now - 2 * HOUR_MS), to: new Date(now + HOUR_MS) };
    const expected = times.reduce((sum, _, i) => sum + i + 1, 0) / times.length;
    const read = async () => ({
      averages: await rollupAverages(db, device.id, ['/speed'], 'hour', range, 10),
      summary: (await summaryOfDevices(db, tenants.orgA1.id, '/speed', range, 1000)).find(
        (row) => row.deviceId === device.id,
      )?.count,
    });
    const hourOfNow = new Date(Math.floor(now / HOUR_MS) * HOUR_MS).toISOString();
    expect(await read()).toEqual({
      averages: [{ ts: hourOfNow, values: { '/speed': expected } }],
      summary: times.length,
    });
    // A whole flush (a stop) adds the open hour's row too: the readers still count its values once.
    periodic.add(device.id, now, { '/speed': 0 }, now);
    await periodic.flush(db, 'current-hour');
    expect((await hourRowsOf(device.id)).length).toBe(1);
    const afterStop = await read();
    expect(afterStop.summary).toBe(times.length + 1);
    expect(afterStop.averages[0]?.values['/speed']).toBeCloseTo(
      (expected * times.length) / (times.length + 1),
      9,
    );
  });

  it('are computed again after a crash for a device whose values of the hour came before the repaired minutes', async () => {
    const device = await createDevice(db, tenants.orgA1.id, 'crashed-hour');
    const hour = Math.floor(NOW / HOUR_MS) * HOUR_MS - 5 * HOUR_MS;
    const crashing = new RollupAccumulator();
    await insertTelemetry(db, [{ deviceId: device.id, ts: hour + 60_000, values: { '/speed': 7 } }]);
    crashing.add(device.id, hour + 60_000, { '/speed': 7 }, hour + 61_000);
    await crashing.flush(db, 'crashed-hour', hour + 180_000);
    // The hour was held when the instance died; the minutes repaired are later in the hour.
    expect(await hourRowsOf(device.id)).toEqual([]);
    await rebuildRecentRollups(db, hour + 30 * 60_000, hour + 40 * 60_000);
    expect((await storedRollups(device.id)).get(`/speed|3600|${hour}`)?.count).toBe(1);
  });
});

describe('rollups after a crash', () => {
  it("are computed again around the crashed run's last flush at the next start; a clean stop leaves nothing", async () => {
    const device = await createDevice(db, tenants.orgA1.id, 'crashing');
    const minute = Math.floor(NOW / 60_000) * 60_000;
    const crashing = new RollupAccumulator();
    expect(await repairAfterCrash(db, 'crashing')).toBeUndefined();
    const stored = async (rows: TelemetryRow[]) => {
      await insertTelemetry(db, rows);
      for (const row of rows) crashing.add(row.deviceId, row.ts, row.values);
    };
    await stored([{ deviceId: device.id, ts: minute + 1_000, values: { '/speed': 4 } }]);
    await crashing.flush(db, 'crashing');
    // Stored, accumulated, never added: the process dies here.
    await stored([{ deviceId: device.id, ts: minute + 2_000, values: { '/speed': 8, '/state': 'ok' } }]);
    expect((await storedRollups(device.id)).get(`/speed|60|${minute}`)?.count).toBe(1);

    expect(await repairAfterCrash(db, 'crashing')).toBeDefined();
    const whole = { min: 4, max: 8, sum: 12, count: 2, lastTs: minute + 2_000, last: 8 };
    expect(await storedRollups(device.id)).toEqual(
      new Map([
        [`/speed|60|${minute}`, whole],
        [`/speed|3600|${Math.floor(minute / 3_600_000) * 3_600_000}`, whole],
      ]),
    );
    await markStoppedCleanly(db, 'crashing');
    expect(await repairAfterCrash(db, 'crashing')).toBeUndefined();
  });
});

describe('compaction into blocks', () => {
  /** Every value of the path, in the order readers get them (telemetry_series), times to the microsecond. */
  const seriesOf = async (deviceId: string, path: string) => {
    const result = await db.execute(sql`
      select ts::text as ts, value from telemetry_series(${deviceId}::uuid, ${path}, '-infinity', 'infinity')
      order by ts, source, seq`);
    return (result as unknown as { rows: { ts: string; value: unknown }[] }).rows;
  };

  it('keeps every value with its type, time and order, and stores a regular number in a few bytes', async () => {
    const device = await createDevice(db, tenants.orgA1.id, 'compacted');
    const hour = dayOf(NOW) - 3 * DAY_MS + 5 * 3_600_000;
    const rows: TelemetryRow[] = Array.from({ length: 3600 }, (_, i) => ({
      deviceId: device.id,
      ts: hour + i * 1000,
      values: {
        '/speed': Math.round((50 + 10 * Math.sin(i / 60)) * 100) / 100,
        '/running': i % 600 < 300,
        ...(i % 900 === 0 ? { '/state': i === 0 ? 'start' : i } : {}),
      },
    }));
    // Two values at one time, and a time with microseconds.
    rows.push({ deviceId: device.id, ts: hour + 1000, values: { '/speed': -1 } });
    rows.push({ deviceId: device.id, ts: hour + 2000.5, values: { '/speed': 1e-7 } });
    for (let from = 0; from < rows.length; from += 1000)
      await insertTelemetry(db, rows.slice(from, from + 1000));
    const paths = ['/speed', '/running', '/state'];
    const before = await Promise.all(paths.map((path) => seriesOf(device.id, path)));

    await compactTelemetry(db, NOW);

    expect(await Promise.all(paths.map((path) => seriesOf(device.id, path)))).toEqual(before);
    const blocks = await db.execute(sql`
      select path, kind, count, pg_column_size(b.*) as bytes from telemetry_blocks b
      where device_id = ${device.id}::uuid order by path`);
    const byPath = (
      blocks as unknown as { rows: { path: string; kind: string; count: number; bytes: number }[] }
    ).rows;
    expect(byPath.map(({ path, kind, count }) => ({ path, kind, count }))).toEqual([
      { path: '/running', kind: 'boolean', count: 3600 },
      { path: '/speed', kind: 'number', count: 3602 },
      { path: '/state', kind: 'json', count: 4 },
    ]);
    // 8 bytes per float8, the time between values compressed to almost nothing.
    const speed = byPath.find((block) => block.path === '/speed');
    expect(Number(speed?.bytes) / 3602).toBeLessThan(10);
  });
});

describe('the accumulated rollups', () => {
  it('carries any path name, numbers and booleans, and no text or non-finite number', async () => {
    const device = await createDevice(db, tenants.orgA1.id, 'odd-paths');
    const odd = '/a,"b"\\{c}';
    await store([
      {
        deviceId: device.id,
        ts: NOW,
        values: { [odd]: 2.5, '/on': true, '/note': 'x', '/inf': Number.POSITIVE_INFINITY },
      },
    ]);
    await fold();
    const paths = [...(await storedRollups(device.id)).entries()]
      .filter(([key]) => key.includes('|60|'))
      .map(([key, rollup]) => [key.split('|')[0], rollup.last]);
    expect(paths.sort()).toEqual([
      [odd, 2.5],
      ['/on', 1],
    ]);
  });
});

describe('telemetry retention', () => {
  const retention = { defaultDays: 30, maxDays: 3650, rollupDays: 40 };
  // Half past an hour and 30 s: the values around the 10-day cutoff share their minute and hour.
  const at = Math.floor(NOW / 3_600_000) * 3_600_000 + 30 * 60_000 + 30_000;
  // Around the 10-day cutoff by less than a second: one hour's block holds both.
  const ageDays = [1, 9.99999, 10.00001, 10.1, 20, 29.9, 30.1, 45];

  /** The device's values (rows and blocks), newest first. */
  const levels = async (deviceId: string) => {
    const result = await db.execute(
      sql`select value from telemetry_device_values(${deviceId}::uuid, '-infinity', 'infinity') order by ts desc`,
    );
    return (result as unknown as { rows: { value: number }[] }).rows.map((row) => row.value);
  };
  const rollupLasts = async (deviceId: string, widthS: number) =>
    (
      await db
        .select({ last: telemetryRollups.last })
        .from(telemetryRollups)
        .where(and(eq(telemetryRollups.deviceId, deviceId), eq(telemetryRollups.widthS, widthS)))
    )
      .map((row) => row.last)
      .sort((a, b) => a - b);

  it.each([
    ['in day partitions', false],
    ['in compacted blocks', true],
  ])(
    "removes exactly what is older than each organization's setting, %s shared by two organizations",
    async (_, compacted) => {
      const keepsTen = await createDevice(db, tenants.orgA.id, `keeps-ten-days-${compacted}`);
      const keepsDefault = await createDevice(db, tenants.orgB.id, `keeps-thirty-days-${compacted}`);
      await db
        .insert(organizationLimits)
        .values({ organizationId: tenants.orgA.id, limits: { telemetryRetentionDays: 10 } })
        .onConflictDoNothing();
      for (const device of [keepsTen, keepsDefault])
        await store(
          ageDays.map((age) => ({ deviceId: device.id, ts: at - age * DAY_MS, values: { '/level': age } })),
        );
      await fold();
      const oldest = partitionName(dayOf(at - 45 * DAY_MS));
      if (compacted) {
        await compactTelemetry(db, NOW);
        expect(await levels(keepsTen.id)).toEqual(ageDays);
      }
      expect((await partitionsOf(db)).some((partition) => partition.name === oldest)).toBe(!compacted);

      const run = await applyRetention(db, at, retention, 2);

      expect(await levels(keepsTen.id)).toEqual([1, 9.99999]);
      expect(await levels(keepsDefault.id)).toEqual([1, 9.99999, 10.00001, 10.1, 20, 29.9]);
      // The partition 45 days back held only values every organization has let go: dropped whole.
      if (!compacted) expect(run.droppedPartitions).toContain(oldest);
      expect((await partitionsOf(db)).map((partition) => partition.name)).not.toContain(oldest);

      // Minute rollups go with the raw values; hour rollups stay for their own 40 days.
      expect(await rollupLasts(keepsTen.id, 60)).toEqual([1, 9.99999]);
      expect(await rollupLasts(keepsTen.id, 3600)).toEqual([1, 9.99999, 10.1, 20, 29.9, 30.1]);
      expect(await rollupLasts(keepsDefault.id, 60)).toEqual([1, 9.99999, 10.1, 20, 29.9]);
      expect(await rollupLasts(keepsDefault.id, 3600)).toEqual([1, 9.99999, 10.1, 20, 29.9, 30.1]);

      // A second run finds nothing more.
      expect(await applyRetention(db, at, retention)).toEqual({
        droppedPartitions: [],
        deletedRows: 0,
        deletedRollups: 0,
      });
    },
    // Retention pauses nine times each statement's time (ingest keeps the database), over every device of the file.
    60_000,
  );
});
