import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { rowsOf } from '../db/rows.ts';

/** The widths (seconds) of the rollups kept per device and path: a minute and an hour. */
export const ROLLUP_WIDTHS = { minute: 60, hour: 3600 } as const;
export type RollupWidth = keyof typeof ROLLUP_WIDTHS;

/**
 * How long after its end an hour's row is trusted to hold all its minutes: instances add an hour once it is over, at
 * their next periodic flush (a second), so this covers that, a slow flush and clocks a little apart.
 */
const OPEN_HOUR_MARGIN_MS = 5 * 60_000;

/** The first hour whose row may not hold all its minutes yet at `nowMs`: from it on, hours are summed from minutes. */
function openHoursFrom(nowMs: number): Date {
  const hourMs = ROLLUP_WIDTHS.hour * 1000;
  return new Date(Math.floor((nowMs - OPEN_HOUR_MARGIN_MS) / hourMs) * hourMs);
}

/**
 * The rollups of one width of the series `series` selects (a condition on the columns device_id and path) whose
 * buckets may lie in `range`, as a relation with the columns device_id, path, bucket, min, max, sum, count, last_ts
 * and last. Hours: the rows of the hours that are over, and the open ones (the current hour, which the instances hold
 * until it is over, and those of clocks ahead) summed from their minutes when the range reaches them.
 */
export function rollupsOf(width: RollupWidth, series: SQL, range: { to: Date }, nowMs = Date.now()): SQL {
  const columns = sql.raw('device_id, path, bucket, min, max, sum, count, last_ts, last');
  if (width === 'minute')
    return sql`(select ${columns} from telemetry_rollups where width_s = ${ROLLUP_WIDTHS.minute} and ${series})`;
  const openFrom = openHoursFrom(nowMs);
  const open = sql`${openFrom.toISOString()}::timestamptz`;
  const closed = sql`select ${columns} from telemetry_rollups where width_s = ${ROLLUP_WIDTHS.hour} and bucket < ${open} and ${series}`;
  // A range over before the open hours: their minutes are not even looked at.
  if (range.to < openFrom) return sql`(${closed})`;
  return sql`(
    ${closed}
    union all
    select device_id, path, date_bin('1 hour', bucket, 'epoch'::timestamptz), min(min), max(max), sum(sum),
      sum(count)::int, max(last_ts), (array_agg(last order by last_ts desc))[1]
    from telemetry_rollups where width_s = ${ROLLUP_WIDTHS.minute} and bucket >= ${open} and ${series}
    group by device_id, path, 3)`;
}

/** A numeric value `v.value` (telemetry_device_values): numbers as they are, booleans 0 and 1. */
const NUMERIC = sql.raw(
  `case jsonb_typeof(v.value) when 'number' then v.value::float8 else (v.value = 'true'::jsonb)::int end`,
);
const IS_NUMERIC = sql.raw(`jsonb_typeof(v.value) in ('number', 'boolean')`);

/** Replaces a rollup row with the one computed again. */
const REPLACE = sql.raw(`on conflict (device_id, path, width_s, bucket) do update set
  min = excluded.min, max = excluded.max, sum = excluded.sum, count = excluded.count,
  last_ts = excluded.last_ts, last = excluded.last`);

/**
 * Computes the minutes of every device's stored rows between two times (whole minutes) again, replacing what the
 * rollups hold for them, and then the hours they fall in from their minutes, for every device with values in those
 * hours (an instance holds the current hour until it is over: a crash loses it whenever its values came). For what a crashed instance had not
 * added yet (`repairAfterCrash`).
 */
export async function rebuildRecentRollups(db: Db, fromMs: number, toMs: number): Promise<void> {
  const from = sql`${new Date(Math.floor(fromMs / 60_000) * 60_000).toISOString()}::timestamptz`;
  const to = sql`${new Date(Math.ceil(toMs / 60_000) * 60_000).toISOString()}::timestamptz`;
  await db.execute(sql`
    insert into telemetry_rollups (device_id, path, width_s, bucket, min, max, sum, count, last_ts, last)
    select t.device_id, v.path, ${ROLLUP_WIDTHS.minute}::int, to_timestamp(floor(extract(epoch from v.ts) / 60) * 60),
      min(${NUMERIC}), max(${NUMERIC}), sum(${NUMERIC}), count(*)::int, max(v.ts), (array_agg(${NUMERIC} order by v.ts desc))[1]
    from telemetry t cross join lateral (select e.key as path, t.ts, e.value from jsonb_each(t.values) as e) as v
    where t.ts >= ${from} and t.ts < ${to} and ${IS_NUMERIC}
    group by 1, 2, 3, 4
    ${REPLACE}`);
  await db.execute(sql`
    insert into telemetry_rollups (device_id, path, width_s, bucket, min, max, sum, count, last_ts, last)
    select r.device_id, r.path, ${ROLLUP_WIDTHS.hour}::int, date_trunc('hour', r.bucket at time zone 'UTC') at time zone 'UTC',
      min(r.min), max(r.max), sum(r.sum), sum(r.count)::int, max(r.last_ts), (array_agg(r.last order by r.last_ts desc))[1]
    from telemetry_rollups r
    where r.width_s = ${ROLLUP_WIDTHS.minute}
      and r.bucket >= date_trunc('hour', ${from} at time zone 'UTC') at time zone 'UTC'
      and r.bucket < date_trunc('hour', ${to} at time zone 'UTC') at time zone 'UTC' + interval '1 hour'
      and exists (
        select 1 from telemetry t where t.device_id = r.device_id
          and t.ts >= date_trunc('hour', ${from} at time zone 'UTC') at time zone 'UTC' and t.ts < ${to})
    group by 1, 2, 3, 4
    ${REPLACE}`);
}

/**
 * Recomputes a device's rollups from its stored values (rows and blocks), all of them or those of a range of whole
 * hours: for values written around the statement that queues them (test fixtures, benchmarks, a repair after a
 * restore).
 */
export async function rebuildRollups(
  db: Db,
  deviceId: string,
  range?: { fromMs: number; toMs: number },
): Promise<void> {
  const from = sql`${range ? new Date(range.fromMs).toISOString() : '-infinity'}::timestamptz`;
  const to = sql`${range ? new Date(range.toMs).toISOString() : 'infinity'}::timestamptz`;
  await db.transaction(async (tx) => {
    await tx.execute(
      sql`delete from telemetry_rollups where device_id = ${deviceId}::uuid and bucket >= ${from} and bucket < ${to}`,
    );
    await tx.execute(sql`
      insert into telemetry_rollups (device_id, path, width_s, bucket, min, max, sum, count, last_ts, last)
      select ${deviceId}::uuid, v.path, w.width_s, to_timestamp(floor(extract(epoch from v.ts) / w.width_s) * w.width_s),
        min(${NUMERIC}), max(${NUMERIC}), sum(${NUMERIC}), count(*)::int, max(v.ts),
        (array_agg(${NUMERIC} order by v.ts desc))[1]
      from telemetry_device_values(${deviceId}::uuid, ${from}, ${to}) as v
      cross join (values (60), (3600)) as w(width_s)
      where ${IS_NUMERIC}
      group by 1, 2, 3, 4`);
  });
}

/**
 * The averages of the device's `paths` in the rollups of one width whose bucket starts in the range, oldest first: a
 * record per bucket and path (ts is the bucket's start, UTC with milliseconds), at most `limit`.
 */
export async function rollupAverages(
  db: Db,
  deviceId: string,
  paths: readonly string[],
  width: RollupWidth,
  range: { from: Date; to: Date },
  limit: number,
): Promise<{ ts: string; values: Record<string, number> }[]> {
  if (paths.length === 0) return [];
  const series = sql`device_id = ${deviceId}::uuid and path in (${sql.join(
    paths.map((path) => sql`${path}::text`),
    sql`, `,
  )})`;
  const result = await db.execute(sql`
    select to_char(r.bucket at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ts, r.path, r.sum / r.count as average
    from ${rollupsOf(width, series, range)} as r
    where r.bucket >= ${range.from.toISOString()}::timestamptz and r.bucket <= ${range.to.toISOString()}::timestamptz
    order by r.bucket, r.path
    limit ${limit}`);
  const rows = rowsOf<{ ts: string; path: string; average: unknown }>(result);
  return rows.map((row) => ({ ts: row.ts, values: { [row.path]: Number(row.average) } }));
}
