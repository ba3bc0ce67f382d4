import { setImmediate as nextTurn } from 'node:timers/promises';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { type Partition, partitionsOf } from './partitions.ts';

/** How long after its day ends a partition waits for late values before it is compacted into blocks. */
export const COMPACT_AFTER_MS = 6 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

export type CompactionRun = { partitions: string[]; blocks: number };

/**
 * Moves the rows of every day partition that ended COMPACT_AFTER_MS ago into per-(device, hour, path) blocks, one
 * device hour per statement (so ingest never waits long), and drops the emptied partition. A value that arrives
 * later for that day makes the day's partition again, and the next run merges it into the blocks.
 */
export async function compactTelemetry(db: Db, nowMs: number): Promise<CompactionRun> {
  const run: CompactionRun = { partitions: [], blocks: 0 };
  const due = (await partitionsOf(db)).filter((partition) => partition.toMs <= nowMs - COMPACT_AFTER_MS);
  for (const partition of due) {
    run.blocks += await compactPartition(db, partition);
    if (await dropIfEmpty(db, partition)) run.partitions.push(partition.name);
  }
  return run;
}

async function compactPartition(db: Db, partition: Partition): Promise<number> {
  const table = sql`${sql.identifier(partition.name)}`;
  let blocks = 0;
  for (;;) {
    const result = await db.execute(
      sql`select device_id, (extract(epoch from ts) * 1000)::float8 as ms from ${table} order by device_id, ts limit 1`,
    );
    const [next] = (result as unknown as { rows: { device_id: string; ms: number }[] }).rows;
    if (!next) return blocks;
    blocks += await compactHour(db, table, next.device_id, Math.floor(Number(next.ms) / HOUR_MS) * HOUR_MS);
    await nextTurn();
  }
}

/**
 * One statement: takes the device's rows of the hour out of the partition, merges their values with the hour's
 * blocks of the same paths and writes the blocks again. Rows stored meanwhile stay for the next pass.
 */
async function compactHour(db: Db, table: SQL, deviceId: string, hourMs: number): Promise<number> {
  const hour = sql`${new Date(hourMs).toISOString()}::timestamptz`;
  const result = await db.execute(sql`
    with moved as (
      delete from ${table}
      where device_id = ${deviceId}::uuid and ts >= ${hour} and ts < ${hour} + interval '1 hour'
      returning ts, values, ((ctid::text::point)[0] * 65536 + (ctid::text::point)[1])::bigint as seq
    ), incoming as (
      select ${deviceId}::uuid as device_id, e.key as path, ${hour} as hour, m.ts, e.value, 1 as source, m.seq
      from moved m cross join lateral jsonb_each(m.values) as e
    ), block_values as (
      select b.device_id, b.path, b.hour, v.ts, v.value, 0 as source, v.seq
      from telemetry_blocks b
      cross join lateral telemetry_block_values(b.hour, b.kind, b.deltas, b.numbers, b.others) as v
      where b.device_id = ${deviceId}::uuid and b.hour = ${hour} and b.path in (select path from incoming)
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
  , ordered as (
    select device_id, path, hour, ts, value, source, seq,
      ts - coalesce(lag(ts) over (partition by device_id, hour, path order by ts, source, seq), hour) as gap
    from block_values
  )
  insert into telemetry_blocks (device_id, path, hour, count, kind, deltas, numbers, others)
  select device_id, path, hour, count, kind, deltas,
    case when kind = 'json' then null else numbers end, case when kind = 'json' then others end
  from (
    select device_id, path, hour, count(*)::int as count,
      case when bool_and(jsonb_typeof(value) = 'number') then 'number'
        when bool_and(jsonb_typeof(value) = 'boolean') then 'boolean' else 'json' end as kind,
      array_agg((extract(epoch from gap) * 1000000)::bigint order by ts, source, seq) as deltas,
      array_agg(case jsonb_typeof(value) when 'number' then value::float8
        when 'boolean' then (value = 'true'::jsonb)::int::float8 end order by ts, source, seq) as numbers,
      jsonb_agg(value order by ts, source, seq) as others
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
    if ((left as unknown as { rows: unknown[] }).rows.length > 0) return false;
    await tx.execute(sql`drop table ${table}`);
    return true;
  });
}

/** Rows an insert wrote: node-postgres says `rowCount`, PGlite `affectedRows`. */
function rowCount(result: unknown): number {
  const { rowCount: count, affectedRows } = result as { rowCount?: number | null; affectedRows?: number };
  return Number(count ?? affectedRows ?? 0);
}
