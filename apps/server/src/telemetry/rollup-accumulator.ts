import { sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { ROLLUP_WIDTHS, rebuildRecentRollups } from './rollups.ts';

type Partial = { min: number; max: number; sum: number; count: number; lastTs: number; last: number };

/**
 * The minute and hour rollups of the values this instance stored since its last flush, kept in memory and added to
 * `telemetry_rollups` by `flush` (with the hot state, every second). Reading the values back from the database to
 * summarise them cost more than storing them (`jsonb_each`, an index lookup per device and minute); here they are
 * numbers already. Partials add up, so instances storing the same device's values each add their own, and late
 * values add to the rollups they fall into. What a crash loses is computed again from the stored values at the next
 * start (`repairAfterCrash`).
 */
export class RollupAccumulator {
  private partials = new Map<
    string,
    Partial & { deviceId: string; path: string; widthS: number; bucket: number }
  >();

  /** Adds a stored message's numbers and booleans (0/1); text is not summarised. */
  add(deviceId: string, ts: number, values: Readonly<Record<string, number | boolean | string>>): void {
    for (const [path, raw] of Object.entries(values)) {
      if (typeof raw === 'string') continue;
      const value = typeof raw === 'boolean' ? Number(raw) : raw;
      if (!Number.isFinite(value)) continue;
      for (const widthS of [ROLLUP_WIDTHS.minute, ROLLUP_WIDTHS.hour]) {
        const bucket = Math.floor(ts / 1000 / widthS) * widthS;
        const key = `${deviceId}\u0000${path}\u0000${widthS}\u0000${bucket}`;
        const known = this.partials.get(key);
        if (!known) {
          this.partials.set(key, {
            deviceId,
            path,
            widthS,
            bucket,
            min: value,
            max: value,
            sum: value,
            count: 1,
            lastTs: ts,
            last: value,
          });
          continue;
        }
        known.min = Math.min(known.min, value);
        known.max = Math.max(known.max, value);
        known.sum += value;
        known.count += 1;
        if (ts >= known.lastTs) {
          known.lastTs = ts;
          known.last = value;
        }
      }
    }
  }

  get size(): number {
    return this.partials.size;
  }

  /**
   * Adds what was accumulated to the rollups in one statement, and notes the time of this instance's last flush
   * (`instance`): a start after a crash repairs the minutes around it. On failure the partials are kept for the next
   * flush.
   */
  async flush(db: Db, instance: string): Promise<void> {
    const taken = this.partials;
    this.partials = new Map();
    try {
      await writePartials(db, instance, [...taken.values()]);
    } catch (error) {
      for (const [key, partial] of taken) {
        const newer = this.partials.get(key);
        this.partials.set(key, newer ? merged(partial, newer) : partial);
      }
      throw error;
    }
  }
}

function merged<T extends Partial>(older: T, newer: T): T {
  const last = newer.lastTs >= older.lastTs ? newer : older;
  return {
    ...older,
    min: Math.min(older.min, newer.min),
    max: Math.max(older.max, newer.max),
    sum: older.sum + newer.sum,
    count: older.count + newer.count,
    lastTs: last.lastTs,
    last: last.last,
  };
}

async function writePartials(
  db: Db,
  instance: string,
  partials: readonly (Partial & { deviceId: string; path: string; widthS: number; bucket: number })[],
): Promise<void> {
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
  const [last] = (result as unknown as { rows: { flushed_ms: number; clean: boolean }[] }).rows;
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
