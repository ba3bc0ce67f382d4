import { sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { rowsOf } from '../db/rows.ts';
import { ROLLUP_WIDTHS, rebuildRecentRollups } from './rollups.ts';

type Partial = { min: number; max: number; sum: number; count: number; lastTs: number; last: number };
type Held = Partial & { heldSinceMs: number };
type Minutes = Map<string, Map<string, Map<number, Held>>>;

/** The longest a partial waits in memory before a periodic flush adds it, whatever its minute. */
export const HOLD_AT_MOST_MS = 60_000;

/**
 * The minute and hour rollups of the values this instance stored since its last flush, kept in memory and added to
 * `telemetry_rollups` by `flush` (with the hot state, every second). Reading the values back from the database to
 * summarise them cost more than storing them (`jsonb_each`, an index lookup per device and minute); here they are
 * numbers already. Partials add up, so instances storing the same device's values each add their own, and late
 * values add to the rollups they fall into. A periodic flush adds a minute once it is over (or its partial has waited
 * HOLD_AT_MOST_MS), and an hour once it is over: the current hour is added up here from the minutes flushed, and
 * readers sum it from its minute rows meanwhile (`hourRollups`). A device path sending every second costs one minute
 * row a minute and one hour row an hour, instead of an hour row updated every minute as well (which doubled what the
 * rollups add to ingest). What a crash loses is computed again from the stored values at the next start
 * (`repairAfterCrash`).
 */
export class RollupAccumulator {
  /** Minute partials by device, path and minute (epoch seconds); the hours are made from them at the flush. */
  private minutes: Minutes = new Map();
  private count = 0;
  /** Partials of hours whose minutes were flushed, until their hour is over; by `hourKey`. */
  private hours = new Map<string, HeldHour>();
  /** The hour (epoch seconds) of the last periodic flush: when it changes, every held hour may be over. */
  private lastFlushHour = Number.NaN;

  /** Adds a stored message's numbers and booleans (0/1), stored at `nowMs`; text is not summarised. */
  add(
    deviceId: string,
    ts: number,
    values: Readonly<Record<string, number | boolean | string>>,
    nowMs = Date.now(),
  ): void {
    const minute = Math.floor(ts / 60_000) * 60;
    for (const path in values) {
      const raw = values[path];
      if (typeof raw === 'string' || raw === undefined) continue;
      const value = typeof raw === 'boolean' ? Number(raw) : raw;
      if (!Number.isFinite(value)) continue;
      const buckets = bucketsOf(this.minutes, deviceId, path);
      const known = buckets.get(minute);
      if (known) {
        addValue(known, value, ts);
        known.heldSinceMs = Math.min(known.heldSinceMs, nowMs);
        continue;
      }
      buckets.set(minute, {
        min: value,
        max: value,
        sum: value,
        count: 1,
        lastTs: ts,
        last: value,
        heldSinceMs: nowMs,
      });
      this.count += 1;
    }
  }

  /** How many minute partials wait for the next flush. */
  get size(): number {
    return this.count;
  }

  /**
   * Adds what is due to the rollups in one statement, and notes the time of this instance's last flush (`instance`): a
   * start after a crash repairs the minutes around it. With `nowMs` (a periodic flush) the minutes over by then, and
   * partials held HOLD_AT_MOST_MS, are added, and the hours over (or ahead of `nowMs`: a device's clock may run
   * ahead); without it everything. On failure the partials are kept for the next flush.
   */
  async flush(db: Db, instance: string, nowMs?: number): Promise<void> {
    const minutes = nowMs === undefined ? this.takeAll() : this.takeDue(nowMs);
    const before = this.addToHours(minutes);
    const nowHour = nowMs === undefined ? Number.NaN : hourOf(nowMs / 1000);
    const candidates = nowHour === this.lastFlushHour ? before.keys() : this.hours.keys();
    const due = [...candidates].filter((key) => {
      const hour = this.hours.get(key)?.hour;
      return hour !== undefined && hour !== nowHour;
    });
    // Nothing to add: no write (an idle server leaves the database as it is).
    if (minutes.size === 0 && due.length === 0) {
      this.lastFlushHour = nowHour;
      return;
    }
    try {
      await writePartials(db, instance, [
        ...minuteRowsOf(minutes),
        ...due.map((key) => hourRowOf(this.hours, key)),
      ]);
    } catch (error) {
      for (const [key, held] of before) {
        if (held) this.hours.set(key, held);
        else this.hours.delete(key);
      }
      for (const [deviceId, paths] of minutes)
        for (const [path, buckets] of paths)
          for (const [minute, partial] of buckets) this.addPartial(deviceId, path, minute, partial);
      throw error;
    }
    for (const key of due) this.hours.delete(key);
    this.lastFlushHour = nowHour;
  }

  /** Adds the minutes to their held hours; answers each touched hour's partial before (a copy), to undo it. */
  private addToHours(minutes: Minutes): Map<string, HeldHour | undefined> {
    const before = new Map<string, HeldHour | undefined>();
    for (const [deviceId, paths] of minutes) {
      for (const [path, buckets] of paths) {
        for (const [minute, { heldSinceMs: _, ...numbers }] of buckets) {
          const hour = hourOf(minute);
          const key = hourKey(deviceId, path, hour);
          const held = this.hours.get(key);
          if (!before.has(key)) before.set(key, held && { ...held });
          if (held) fold(held, numbers);
          else this.hours.set(key, { deviceId, path, hour, ...numbers });
        }
      }
    }
    return before;
  }

  private takeAll(): Minutes {
    const taken = this.minutes;
    this.minutes = new Map();
    this.count = 0;
    return taken;
  }

  /** Takes the partials of minutes over at `nowMs` and those held HOLD_AT_MOST_MS. */
  private takeDue(nowMs: number): Minutes {
    const taken: Minutes = new Map();
    for (const [deviceId, paths] of this.minutes) {
      for (const [path, buckets] of paths) {
        for (const [minute, partial] of buckets) {
          if ((minute + 60) * 1000 > nowMs && partial.heldSinceMs > nowMs - HOLD_AT_MOST_MS) continue;
          buckets.delete(minute);
          this.count -= 1;
          addTo(taken, deviceId, path, minute, partial);
        }
        if (buckets.size === 0) paths.delete(path);
      }
      if (paths.size === 0) this.minutes.delete(deviceId);
    }
    return taken;
  }

  private addPartial(deviceId: string, path: string, minute: number, partial: Held): void {
    if (addTo(this.minutes, deviceId, path, minute, partial)) this.count += 1;
  }
}

/** The device's path's minute partials, made empty when there are none yet. */
function bucketsOf(minutes: Minutes, deviceId: string, path: string): Map<number, Held> {
  let paths = minutes.get(deviceId);
  if (!paths) {
    paths = new Map();
    minutes.set(deviceId, paths);
  }
  let buckets = paths.get(path);
  if (!buckets) {
    buckets = new Map();
    paths.set(path, buckets);
  }
  return buckets;
}

/** Adds a partial to its minute's; answers whether the minute is new. */
function addTo(minutes: Minutes, deviceId: string, path: string, minute: number, partial: Held): boolean {
  const buckets = bucketsOf(minutes, deviceId, path);
  const known = buckets.get(minute);
  if (known) {
    fold(known, partial);
    known.heldSinceMs = Math.min(known.heldSinceMs, partial.heldSinceMs);
    return false;
  }
  buckets.set(minute, partial);
  return true;
}

type RollupRow = Partial & { deviceId: string; path: string; widthS: number; bucket: number };
type HeldHour = Partial & { deviceId: string; path: string; hour: number };

function hourOf(epochS: number): number {
  return Math.floor(epochS / ROLLUP_WIDTHS.hour) * ROLLUP_WIDTHS.hour;
}

function hourKey(deviceId: string, path: string, hour: number): string {
  return `${deviceId}\n${hour}\n${path}`;
}

function minuteRowsOf(minutes: Minutes): RollupRow[] {
  const rows: RollupRow[] = [];
  for (const [deviceId, paths] of minutes)
    for (const [path, buckets] of paths)
      for (const [minute, { heldSinceMs: _, ...numbers }] of buckets)
        rows.push({ deviceId, path, widthS: ROLLUP_WIDTHS.minute, bucket: minute, ...numbers });
  return rows;
}

function hourRowOf(hours: ReadonlyMap<string, HeldHour>, key: string): RollupRow {
  const { deviceId, path, hour, ...numbers } = hours.get(key) as HeldHour;
  return { deviceId, path, widthS: ROLLUP_WIDTHS.hour, bucket: hour, ...numbers };
}

/** Adds one value at `ts` into a partial (as `fold` with a partial of that value alone, without making one). */
function addValue(into: Partial, value: number, ts: number): void {
  into.min = Math.min(into.min, value);
  into.max = Math.max(into.max, value);
  into.sum += value;
  into.count += 1;
  if (ts >= into.lastTs) {
    into.lastTs = ts;
    into.last = value;
  }
}

/** Adds `more` into `into`: the newest value is the one of the later time. */
function fold(into: Partial, more: Partial): void {
  into.min = Math.min(into.min, more.min);
  into.max = Math.max(into.max, more.max);
  into.sum += more.sum;
  into.count += more.count;
  if (more.lastTs >= into.lastTs) {
    into.lastTs = more.lastTs;
    into.last = more.last;
  }
}

/**
 * The rows travel as one array per column (`unnest`): parsing typed arrays cost PostgreSQL a fifth less than
 * `jsonb_to_recordset` of the same rows, and the flush is most of what the rollups add to ingest.
 */
async function writePartials(db: Db, instance: string, partials: readonly RollupRow[]): Promise<void> {
  const column = (cell: (row: RollupRow) => string | number) => `{${partials.map(cell).join(',')}}`;
  await db.execute(sql`
    with marked as (
      insert into telemetry_rollup_flushes (instance, flushed_at, clean) values (${instance}, now(), false)
      on conflict (instance) do update set flushed_at = excluded.flushed_at, clean = false
    )
    insert into telemetry_rollups (device_id, path, width_s, bucket, min, max, sum, count, last_ts, last)
    select x.d, x.p, x.w, to_timestamp(x.b), x.lo, x.hi, x.s, x.n, to_timestamp(x.t / 1000.0), x.l
    from unnest(
      ${column((p) => p.deviceId)}::uuid[], ${column((p) => arrayText(p.path))}::text[], ${column((p) => p.widthS)}::int[],
      ${column((p) => p.bucket)}::float8[], ${column((p) => p.min)}::float8[], ${column((p) => p.max)}::float8[],
      ${column((p) => p.sum)}::float8[], ${column((p) => p.count)}::int[], ${column((p) => p.lastTs)}::float8[],
      ${column((p) => p.last)}::float8[]
    ) as x(d, p, w, b, lo, hi, s, n, t, l)
    order by x.d, x.p, x.w, x.b
    on conflict (device_id, path, width_s, bucket) do update set
      min = least(telemetry_rollups.min, excluded.min),
      max = greatest(telemetry_rollups.max, excluded.max),
      sum = telemetry_rollups.sum + excluded.sum,
      count = telemetry_rollups.count + excluded.count,
      last = case when excluded.last_ts >= telemetry_rollups.last_ts then excluded.last else telemetry_rollups.last end,
      last_ts = greatest(telemetry_rollups.last_ts, excluded.last_ts)`);
}

/** A text as an element of an array literal: quoted, its quotes and backslashes escaped. */
function arrayText(text: string): string {
  return `"${text.replace(/["\\]/g, '\\$&')}"`;
}

/** Around its last flush, the device times of the values a crashed instance may have stored without adding them. */
const REPAIR_BEFORE_MS = 2 * 60_000;
const REPAIR_AFTER_MS = 10 * 60_000;

/**
 * At an instance's start, before it stores anything: if its last run did not stop cleanly, the minutes around its
 * last flush are computed again from the stored values (what it had accumulated was lost with it). Then it is
 * marked running. Answers the range repaired, if any.
 */
export async function repairAfterCrash(
  db: Db,
  instance: string,
  nowMs = Date.now(),
): Promise<{ fromMs: number; toMs: number } | undefined> {
  const result = await db.execute(
    sql`select (extract(epoch from flushed_at) * 1000)::float8 as flushed_ms, clean from telemetry_rollup_flushes where instance = ${instance}`,
  );
  const [last] = rowsOf<{ flushed_ms: number; clean: boolean }>(result);
  let repaired: { fromMs: number; toMs: number } | undefined;
  if (last && !last.clean) {
    const flushedMs = Number(last.flushed_ms);
    repaired = { fromMs: flushedMs - REPAIR_BEFORE_MS, toMs: Math.min(nowMs, flushedMs + REPAIR_AFTER_MS) };
    await rebuildRecentRollups(db, repaired.fromMs, repaired.toMs);
  }
  await db.execute(sql`
    insert into telemetry_rollup_flushes (instance, flushed_at, clean) values (${instance}, now(), false)
    on conflict (instance) do update set flushed_at = excluded.flushed_at, clean = false`);
  return repaired;
}

/** After the last flush of a clean stop: the next start has nothing to repair. */
export async function markStoppedCleanly(db: Db, instance: string): Promise<void> {
  await db.execute(sql`update telemetry_rollup_flushes set clean = true where instance = ${instance}`);
}
