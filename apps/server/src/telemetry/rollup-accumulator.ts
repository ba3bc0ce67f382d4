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
 * HOLD_AT_MOST_MS): a device sending every second costs one minute row and one hour row a minute, not two rows a
 * second. What a crash loses is computed again from the stored values at the next start (`repairAfterCrash`).
 */
export class RollupAccumulator {
  /** Minute partials by device, path and minute (epoch seconds); the hours are made from them at the flush. */
  private minutes: Minutes = new Map();
  private count = 0;

  /** Adds a stored message's numbers and booleans (0/1), stored at `nowMs`; text is not summarised. */
  add(
    deviceId: string,
    ts: number,
    values: Readonly<Record<string, number | boolean | string>>,
    nowMs = Date.now(),
  ): void {
    const minute = Math.floor(ts / 60_000) * 60;
    for (const [path, raw] of Object.entries(values)) {
      if (typeof raw === 'string') continue;
      const value = typeof raw === 'boolean' ? Number(raw) : raw;
      if (!Number.isFinite(value)) continue;
      this.addPartial(deviceId, path, minute, {
        min: value,
        max: value,
        sum: value,
        count: 1,
        lastTs: ts,
        last: value,
        heldSinceMs: nowMs,
      });
    }
  }

  /** How many minute partials wait for the next flush. */
  get size(): number {
    return this.count;
  }

  /**
   * Adds what was accumulated (the minutes, and the hours made from them) to the rollups in one statement, and notes
   * the time of this instance's last flush (`instance`): a start after a crash repairs the minutes around it. With
   * `nowMs` (a periodic flush) only the minutes over by then, and partials held HOLD_AT_MOST_MS, are added; without
   * it everything. On failure the partials are kept for the next flush.
   */
  async flush(db: Db, instance: string, nowMs?: number): Promise<void> {
    const taken = nowMs === undefined ? this.takeAll() : this.takeDue(nowMs);
    // Nothing to add: no write (an idle server leaves the database as it is).
    if (taken.size === 0) return;
    try {
      await writePartials(db, instance, rollupRowsOf(taken));
    } catch (error) {
      for (const [deviceId, paths] of taken)
        for (const [path, buckets] of paths)
          for (const [minute, partial] of buckets) this.addPartial(deviceId, path, minute, partial);
      throw error;
    }
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

/** Adds a partial to its minute's; answers whether the minute is new. */
function addTo(minutes: Minutes, deviceId: string, path: string, minute: number, partial: Held): boolean {
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

/** The minute partials, and per device, path and hour one partial made of its minutes. */
function rollupRowsOf(minutes: Minutes): RollupRow[] {
  const rows: RollupRow[] = [];
  for (const [deviceId, paths] of minutes) {
    for (const [path, buckets] of paths) {
      const hours = new Map<number, Partial>();
      for (const [minute, partial] of buckets) {
        const { heldSinceMs: _, ...numbers } = partial;
        rows.push({ deviceId, path, widthS: ROLLUP_WIDTHS.minute, bucket: minute, ...numbers });
        const hour = Math.floor(minute / ROLLUP_WIDTHS.hour) * ROLLUP_WIDTHS.hour;
        const known = hours.get(hour);
        if (known) fold(known, numbers);
        else hours.set(hour, { ...numbers });
      }
      for (const [hour, partial] of hours)
        rows.push({ deviceId, path, widthS: ROLLUP_WIDTHS.hour, bucket: hour, ...partial });
    }
  }
  return rows;
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

async function writePartials(db: Db, instance: string, partials: readonly RollupRow[]): Promise<void> {
  const json = JSON.stringify(
    partials.map((p) => ({
      d: p.deviceId,
      p: p.path,
      w: p.widthS,
      b: p.bucket,
      lo: p.min,
      hi: p.max,
      s: p.sum,
      n: p.count,
      t: p.lastTs,
      l: p.last,
    })),
  );
  await db.execute(sql`
    with marked as (
      insert into telemetry_rollup_flushes (instance, flushed_at, clean) values (${instance}, now(), false)
      on conflict (instance) do update set flushed_at = excluded.flushed_at, clean = false
    )
    insert into telemetry_rollups (device_id, path, width_s, bucket, min, max, sum, count, last_ts, last)
    select x.d, x.p, x.w, to_timestamp(x.b), x.lo, x.hi, x.s, x.n, to_timestamp(x.t / 1000.0), x.l
    from jsonb_to_recordset(${json}::jsonb)
      as x(d uuid, p text, w int, b float8, lo float8, hi float8, s float8, n int, t float8, l float8)
    order by x.d, x.p, x.w, x.b
    on conflict (device_id, path, width_s, bucket) do update set
      min = least(telemetry_rollups.min, excluded.min),
      max = greatest(telemetry_rollups.max, excluded.max),
      sum = telemetry_rollups.sum + excluded.sum,
      count = telemetry_rollups.count + excluded.count,
      last = case when excluded.last_ts >= telemetry_rollups.last_ts then excluded.last else telemetry_rollups.last end,
      last_ts = greatest(telemetry_rollups.last_ts, excluded.last_ts)`);
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
