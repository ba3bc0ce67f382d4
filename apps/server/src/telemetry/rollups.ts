import { sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';

/** The widths (seconds) of the rollups kept per device and path: a minute and an hour. */
export const ROLLUP_WIDTHS = { minute: 60, hour: 3600 } as const;
export type RollupWidth = keyof typeof ROLLUP_WIDTHS;

/** Queue rows one statement of the rollup job takes. */
const TAKE_ROWS = 2_000;

/** A numeric value `v.value` (telemetry_device_values): numbers as they are, booleans 0 and 1. */
const NUMERIC = sql.raw(
  `case jsonb_typeof(v.value) when 'number' then v.value::float8 else (v.value = 'true'::jsonb)::int end`,
);
const IS_NUMERIC = sql.raw(`jsonb_typeof(v.value) in ('number', 'boolean')`);
/** Replaces a rollup row with the one computed again (never adds to it: the job may compute a minute twice). */
const REPLACE = sql.raw(`on conflict (device_id, path, width_s, bucket) do update set
  min = excluded.min, max = excluded.max, sum = excluded.sum, count = excluded.count,
  last_ts = excluded.last_ts, last = excluded.last`);

/**
 * The rollup job: takes the queued (device, minute) pairs of minutes that are over at `nowMs`, computes those minutes
 * again from the stored values, then the hours they fall in from their minutes. Late values queue their own minutes,
 * so they correct the rollups they fall into. A queue row is taken in the statement that reads the values, which sees
 * the values stored with it; instances take turns on an advisory lock. Answers how many minutes were computed.
 */
export async function foldRollups(db: Db, nowMs: number): Promise<number> {
  const closedBefore = Math.floor(nowMs / 60_000);
  let folded = 0;
  for (;;) {
    const minutes = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('telemetry rollups'))`);
      const hours = await foldMinutes(tx, closedBefore);
      if (hours.taken > 0 && hours.touched.length > 0) await foldHours(tx, hours.touched);
      return hours;
    });
    folded += minutes.minutes;
    if (minutes.taken < TAKE_ROWS) return folded;
  }
}

type Touched = { d: string; h: number };

async function foldMinutes(
  db: Db,
  closedBefore: number,
): Promise<{ taken: number; minutes: number; touched: Touched[] }> {
  const result = await db.execute(sql`
    with taken as (
      delete from telemetry_rollup_queue
      where id in (
        select id from telemetry_rollup_queue where newest_minute < ${closedBefore} order by id limit ${TAKE_ROWS})
      returning devices, minutes
    ), dirty as (
      select distinct u.d, u.m from taken cross join lateral unnest(taken.devices, taken.minutes) as u(d, m)
    ), computed as (
      select dirty.d, v.path, to_timestamp(dirty.m * 60) as bucket, min(${NUMERIC}) as min,
        max(${NUMERIC}) as max, sum(${NUMERIC}) as sum, count(*)::int as count, max(v.ts) as last_ts,
        (array_agg(${NUMERIC} order by v.ts desc))[1] as last
      from dirty
      cross join lateral telemetry_device_values(dirty.d, to_timestamp(dirty.m * 60), to_timestamp((dirty.m + 1) * 60)) as v
      where ${IS_NUMERIC}
      group by 1, 2, 3
    ), written as (
      insert into telemetry_rollups (device_id, path, width_s, bucket, min, max, sum, count, last_ts, last)
      select d, path, ${ROLLUP_WIDTHS.minute}, bucket, min, max, sum, count, last_ts, last
      from computed order by d, path, bucket
      ${REPLACE}
      returning 1
    )
    select
      (select count(*) from taken)::int as taken,
      (select count(*) from written)::int as minutes,
      coalesce((select jsonb_agg(distinct jsonb_build_object('d', d, 'h', floor(m / 60))) from dirty), '[]') as touched`);
  const [row] = (result as unknown as { rows: { taken: number; minutes: number; touched: Touched[] }[] })
    .rows;
  return row ?? { taken: 0, minutes: 0, touched: [] };
}

/** The hours (epoch hours) computed again from their minute rollups. */
async function foldHours(db: Db, touched: readonly Touched[]): Promise<void> {
  await db.execute(sql`
    with hours as (
      select x.d, to_timestamp(x.h * 3600) as hour from jsonb_to_recordset(${JSON.stringify(touched)}::jsonb) as x(d uuid, h float8)
    )
    insert into telemetry_rollups (device_id, path, width_s, bucket, min, max, sum, count, last_ts, last)
    select r.device_id, r.path, ${ROLLUP_WIDTHS.hour}, hours.hour, min(r.min), max(r.max), sum(r.sum),
      sum(r.count)::int, max(r.last_ts), (array_agg(r.last order by r.last_ts desc))[1]
    from hours
    join telemetry_rollups r on r.device_id = hours.d and r.width_s = ${ROLLUP_WIDTHS.minute}
      and r.bucket >= hours.hour and r.bucket < hours.hour + interval '1 hour'
    group by r.device_id, r.path, hours.hour
    order by r.device_id, r.path, hours.hour
    ${REPLACE}`);
}

/**
 * Recomputes a device's rollups from its stored values (rows and blocks): for values written around the statement
 * that queues them (test fixtures, a repair after a restore).
 */
export async function rebuildRollups(db: Db, deviceId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`delete from telemetry_rollups where device_id = ${deviceId}::uuid`);
    await tx.execute(sql`
      insert into telemetry_rollups (device_id, path, width_s, bucket, min, max, sum, count, last_ts, last)
      select ${deviceId}::uuid, v.path, w.width_s, to_timestamp(floor(extract(epoch from v.ts) / w.width_s) * w.width_s),
        min(${NUMERIC}), max(${NUMERIC}), sum(${NUMERIC}), count(*)::int, max(v.ts),
        (array_agg(${NUMERIC} order by v.ts desc))[1]
      from telemetry_device_values(${deviceId}::uuid, '-infinity', 'infinity') as v
      cross join (values (60), (3600)) as w(width_s)
      where ${IS_NUMERIC}
      group by 1, 2, 3, 4`);
  });
}
