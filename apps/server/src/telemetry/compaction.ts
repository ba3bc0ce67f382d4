import { setImmediate as nextTurn } from 'node:timers/promises';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { rowsOf } from '../db/rows.ts';
import { type Partition, partitionsOf } from './partitions.ts';

/** How long after its day ends a partition waits for late values before it is compacted into blocks. */
export const COMPACT_AFTER_MS = 6 * 60 * 60 * 1000;

export type CompactionRun = { partitions: string[]; blocks: number };

/**
 * Moves the rows of every day partition that ended COMPACT_AFTER_MS ago into per-(device, hour, path) blocks, one
 * device's day per statement (so ingest never waits long), and drops the emptied partition. A value that arrives
 * later for that day makes the day's partition again, and the next run merges it into the blocks.
 */
export async function compactTelemetry(
  db: Db,
  nowMs: number,
  progress?: (done: CompactionRun & { partition: string }) => void,
): Promise<CompactionRun> {
  const run: CompactionRun = { partitions: [], blocks: 0 };
  const due = (await partitionsOf(db)).filter((partition) => partition.toMs <= nowMs - COMPACT_AFTER_MS);
  for (const partition of due) {
    run.blocks += await compactPartition(db, partition);
    if (await dropIfEmpty(db, partition)) run.partitions.push(partition.name);
    progress?.({ ...run, partition: partition.name });
  }
  return run;
}

/** Compacts each device's rows of the partition; rows stored meanwhile are picked up by the next pass. */
async function compactPartition(db: Db, partition: Partition): Promise<number> {
  const table = sql`${sql.identifier(partition.name)}`;
  let blocks = 0;
  for (;;) {
    const result = await db.execute(sql`select distinct device_id from ${table}`);
    const devices = rowsOf<{ device_id: string }>(result);
    if (devices.length === 0) return blocks;
    for (const { device_id } of devices) {
      blocks += await compactDeviceDay(db, table, device_id, partition);
      await nextTurn();
    }
  }
}

/**
 * One statement: takes the device's rows out of the partition, merges their values with the blocks of the
 * same hours and paths and writes those blocks again.
 */
async function compactDeviceDay(db: Db, table: SQL, deviceId: string, partition: Partition): Promise<number> {
  // The attached partition of an upgraded installation (fromMs null) holds every day before the first partition.
  const from = sql`${partition.fromMs === null ? '-infinity' : new Date(partition.fromMs).toISOString()}::timestamptz`;
  const to = sql`${new Date(partition.toMs).toISOString()}::timestamptz`;
  const result = await db.execute(sql`
    with moved as (
      delete from ${table}
      where device_id = ${deviceId}::uuid
      returning ts, values, ((ctid::text::point)[0] * 65536 + (ctid::text::point)[1])::bigint as seq
    ), incoming as (
      select ${deviceId}::uuid as device_id, e.key as path, date_trunc('hour', m.ts at time zone 'UTC') at time zone 'UTC' as hour,
        m.ts, e.value, 1 as source, m.seq
      from moved m cross join lateral jsonb_each(m.values) as e
    ), block_values as (
      select b.device_id, b.path, b.hour, v.ts, v.value, 0 as source, v.seq
      from telemetry_blocks b
      cross join lateral telemetry_block_values(b.hour, b.kind, b.deltas, b.numbers, b.others) as v
      where b.device_id = ${deviceId}::uuid and b.hour >= ${from} and b.hour < ${to}
        and (b.hour, b.path) in (select distinct hour, path from incoming)
      union all
      select * from incoming
    )
    ${writeBlocks}`);
  return rowCount(result);
}

/**
 * The insert that (re)writes the blocks of `block_values` (device_id, path, hour, ts, value, source, seq): per
 * block the values in (ts, source, seq) order, their kind, the microseconds between them, and the numbers or the
 * other values. A block written again replaces the old one.
 */
export const writeBlocks = sql.raw(`
  , typed as (
    select device_id, path, hour, ts, value, source, seq, jsonb_typeof(value) as type from block_values
  ), ordered as (
    select device_id, path, hour, ts, value, source, seq, type,
      ts - coalesce(lag(ts) over block, hour) as gap,
      -- A block of anything but only numbers or only booleans keeps its values as jsonb (the rest skip jsonb_agg).
      min(type) over whole <> max(type) over whole or min(type) over whole not in ('number', 'boolean') as json
    from typed
    window whole as (partition by device_id, hour, path),
      block as (partition by device_id, hour, path order by ts, source, seq)
  )
  insert into telemetry_blocks (device_id, path, hour, count, kind, deltas, numbers, others)
  select device_id, path, hour, count, kind, deltas,
    case when kind = 'json' then null else numbers end, case when kind = 'json' then others end
  from (
    select device_id, path, hour, count(*)::int as count,
      case when bool_or(json) then 'json' when bool_and(type = 'number') then 'number' else 'boolean' end as kind,
      array_agg((extract(epoch from gap) * 1000000)::bigint order by ts, source, seq) as deltas,
      array_agg(case type when 'number' then value::float8
        when 'boolean' then (value = 'true'::jsonb)::int::float8 end order by ts, source, seq) as numbers,
      jsonb_agg(value order by ts, source, seq) filter (where json) as others
    from ordered
    group by device_id, hour, path
  ) as blocks
  order by device_id, hour, path
  on conflict (device_id, hour, path) do update set count = excluded.count, kind = excluded.kind,
    deltas = excluded.deltas, numbers = excluded.numbers, others = excluded.others`);

/**
 * Drops the partition when no row is left; the lock waits for statements storing into it, so none is lost.
 */
async function dropIfEmpty(db: Db, partition: Partition): Promise<boolean> {
  const table = sql.identifier(partition.name);
  return db.transaction(async (tx) => {
    await tx.execute(sql`lock table ${table} in access exclusive mode`);
    const left = await tx.execute(sql`select 1 from ${table} limit 1`);
    if (rowsOf<unknown>(left).length > 0) return false;
    await tx.execute(sql`drop table ${table}`);
    return true;
  });
}

/** Rows an insert wrote: node-postgres says `rowCount`, PGlite `affectedRows`. */
function rowCount(result: unknown): number {
  const { rowCount: count, affectedRows } = result as { rowCount?: number | null; affectedRows?: number };
  return Number(count ?? affectedRows ?? 0);
}
