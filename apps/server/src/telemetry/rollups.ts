import { sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';

/** The widths (seconds) of the rollups kept per device and path: a minute and an hour. */
export const ROLLUP_WIDTHS = { minute: 60, hour: 3600 } as const;
export type RollupWidth = keyof typeof ROLLUP_WIDTHS;

/** Queue rows one statement of the rollup job takes. */
const TAKE_ROWS = 500;

/** A numeric value `v.value` (telemetry_device_values): numbers as they are, booleans 0 and 1. */
const NUMERIC = sql.raw(
  `case jsonb_typeof(v.value) when 'number' then v.value::float8 else (v.value = 'true'::jsonb)::int end`,
);
const IS_NUMERIC = sql.raw(`jsonb_typeof(v.value) in ('number', 'boolean')`);

/**
 * The rollup job: folds the queued values into their minute and hour rollups and deletes the queue rows, in one
 * statement, so every value is counted exactly once whatever fails; late and out-of-order values simply add to the
 * rollups they fall into. Instances take turns on an advisory lock. Answers how many values were folded.
 */
export async function foldRollups(db: Db): Promise<number> {
  let folded = 0;
  for (;;) {
    const taken = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('telemetry rollups'))`);
      return foldQueued(tx);
    });
    folded += taken.values;
    if (taken.rows < TAKE_ROWS) return folded;
  }
}

async function foldQueued(db: Db): Promise<{ rows: number; values: number }> {
  const result = await db.execute(sql`
    with taken as (
      delete from telemetry_rollup_queue
      where id in (select id from telemetry_rollup_queue order by id limit ${TAKE_ROWS})
      returning devices, paths, device_of, path_of, times, numbers
    ), queued as (
      select taken.devices[x.d] as device_id, taken.paths[x.p] as path, x.t, x.v
      from taken cross join lateral unnest(taken.device_of, taken.path_of, taken.times, taken.numbers) as x(d, p, t, v)
    ), folded as (
      select device_id, path, w.width_s, floor(t / 1000 / w.width_s) * w.width_s as bucket, min(v) as min,
        max(v) as max, sum(v) as sum, count(*)::int as count, max(t) as last_t, (array_agg(v order by t desc))[1] as last
      from queued cross join (values (${ROLLUP_WIDTHS.minute}::int), (${ROLLUP_WIDTHS.hour}::int)) as w(width_s)
      group by 1, 2, 3, 4
    ), written as (
      insert into telemetry_rollups (device_id, path, width_s, bucket, min, max, sum, count, last_ts, last)
      select device_id, path, width_s, to_timestamp(bucket), min, max, sum, count, to_timestamp(last_t / 1000.0), last
      from folded order by device_id, path, width_s, bucket
      on conflict (device_id, path, width_s, bucket) do update set
        min = least(telemetry_rollups.min, excluded.min),
        max = greatest(telemetry_rollups.max, excluded.max),
        sum = telemetry_rollups.sum + excluded.sum,
        count = telemetry_rollups.count + excluded.count,
        last = case when excluded.last_ts >= telemetry_rollups.last_ts then excluded.last else telemetry_rollups.last end,
        last_ts = greatest(telemetry_rollups.last_ts, excluded.last_ts)
      returning 1
    )
    select (select count(*) from taken)::int as rows, (select count(*) from queued)::int as values,
      (select count(*) from written)::int as written`);
  const [row] = (result as unknown as { rows: { rows: number; values: number }[] }).rows;
  return { rows: Number(row?.rows ?? 0), values: Number(row?.values ?? 0) };
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
