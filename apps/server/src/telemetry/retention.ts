import { setTimeout as sleep } from 'node:timers/promises';
import { type SQL, sql } from 'drizzle-orm';
import type { TelemetryRetention } from '../config.ts';
import type { Db } from '../db/index.ts';
import { rowsOf } from '../db/rows.ts';
import { writeBlocks } from './compaction.ts';
import { DAY_MS, type Partition, partitionsOf } from './partitions.ts';
import { ROLLUP_WIDTHS } from './rollups.ts';

/** Rows one delete statement removes: small enough that ingest statements run between two of them. */
export const RETENTION_BATCH_ROWS = 1_000;
/**
 * After each statement retention waits this many times as long as the statement took, so it takes at most a tenth
 * of the database's time. On PGlite (one connection) a 5,000-row batch every turn left ingest 15 % of its rate.
 */
const RETENTION_PAUSE_FACTOR = 9;

/** What a run removed: whole partitions, rows and whole blocks (`deletedRows`), rollup rows. */
export type RetentionRun = { droppedPartitions: string[]; deletedRows: number; deletedRollups: number };

type Cutoff = { organizationId: string; cutoffMs: number };

/**
 * Removes what every organization keeps no longer: raw values and minute rollups older than the organization's
 * `telemetryRetentionDays` (else the server's default), hour rollups older than the server's rollup retention.
 * A partition older than every organization's cutoff is dropped whole. Everything else goes device by device (and
 * path by path for rollups) along the tables' (device, time) indexes, at most `batchRows` rows a statement: each
 * statement reads only what it deletes, so ingest statements run between two of them. (A batch chosen across the
 * whole table scanned it every time: with a year of rollups, ingest fell to 15 % while retention ran on PGlite.)
 */
export async function applyRetention(
  db: Db,
  nowMs: number,
  retention: TelemetryRetention,
  batchRows = RETENTION_BATCH_ROWS,
): Promise<RetentionRun> {
  const cutoffs = await cutoffsOf(db, nowMs, retention.defaultDays);
  const run: RetentionRun = { droppedPartitions: [], deletedRows: 0, deletedRollups: 0 };
  if (cutoffs.length === 0) return run;
  const earliest = Math.min(...cutoffs.map((entry) => entry.cutoffMs));
  const latest = Math.max(...cutoffs.map((entry) => entry.cutoffMs));
  const kept: Partition[] = [];
  for (const partition of await partitionsOf(db)) {
    if (partition.toMs <= earliest) {
      await db.execute(sql`drop table if exists ${sql.identifier(partition.name)}`);
      run.droppedPartitions.push(partition.name);
    } else if ((partition.fromMs ?? Number.NEGATIVE_INFINITY) < latest) kept.push(partition);
  }
  const hourCutoff = sql`${new Date(nowMs - retention.rollupDays * DAY_MS).toISOString()}::timestamptz`;
  for (const { deviceId, cutoffMs } of await devicesOf(db, cutoffs)) {
    const cutoff = sql`${new Date(cutoffMs).toISOString()}::timestamptz`;
    const device = sql`device_id = ${deviceId}::uuid`;
    for (const partition of kept.filter((one) => (one.fromMs ?? Number.NEGATIVE_INFINITY) < cutoffMs))
      run.deletedRows += await deleteInBatches(
        db,
        sql`${sql.identifier(partition.name)}`,
        sql`${device} and ts < ${cutoff}`,
        batchRows,
      );
    run.deletedRows += await deleteInBatches(
      db,
      sql`telemetry_blocks`,
      sql`${device} and hour <= ${cutoff} - interval '1 hour'`,
      batchRows,
    );
    for (const path of await rollupPathsOf(db, deviceId)) {
      const rollups = sql`${device} and path = ${path}`;
      run.deletedRollups += await deleteInBatches(
        db,
        sql`telemetry_rollups`,
        sql`${rollups} and width_s = ${ROLLUP_WIDTHS.minute} and bucket <= ${cutoff} - interval '1 minute'`,
        batchRows,
      );
      run.deletedRollups += await deleteInBatches(
        db,
        sql`telemetry_rollups`,
        sql`${rollups} and width_s = ${ROLLUP_WIDTHS.hour} and bucket <= ${hourCutoff} - interval '1 hour'`,
        batchRows,
      );
    }
  }
  await trimBlocks(db, cutoffs);
  return run;
}

/** Every organization with devices, and the time before which its values go. */
async function cutoffsOf(db: Db, nowMs: number, defaultDays: number): Promise<Cutoff[]> {
  const result = await db.execute(sql`
    select o.id as organization_id,
      coalesce((l.limits ->> 'telemetryRetentionDays')::int, ${defaultDays}::int) as days
    from organizations o left join organization_limits l on l.organization_id = o.id
    where exists (select 1 from devices d where d.organization_id = o.id)`);
  const rows = rowsOf<{ organization_id: string; days: number | string }>(result);
  return rows.map((row) => ({
    organizationId: row.organization_id,
    cutoffMs: nowMs - Number(row.days) * DAY_MS,
  }));
}

function cutoffTable(cutoffs: readonly Cutoff[]) {
  const json = JSON.stringify(cutoffs.map((entry) => ({ o: entry.organizationId, c: entry.cutoffMs })));
  return sql`(select x.o, to_timestamp(x.c / 1000.0) as cutoff from jsonb_to_recordset(${json}::jsonb) as x(o uuid, c float8))`;
}

/** Every device with its organization's cutoff. */
async function devicesOf(
  db: Db,
  cutoffs: readonly Cutoff[],
): Promise<{ deviceId: string; cutoffMs: number }[]> {
  const cutoffOf = new Map(cutoffs.map((entry) => [entry.organizationId, entry.cutoffMs]));
  const result = await db.execute(sql`select id, organization_id from devices order by id`);
  return rowsOf<{ id: string; organization_id: string }>(result).flatMap((row) => {
    const cutoffMs = cutoffOf.get(row.organization_id);
    return cutoffMs === undefined ? [] : [{ deviceId: row.id, cutoffMs }];
  });
}

/** The paths a device has rollups of, one primary-key probe each (a loose index scan). */
async function rollupPathsOf(db: Db, deviceId: string): Promise<string[]> {
  const result = await db.execute(sql`
    with recursive paths as (
      select min(path) as path from telemetry_rollups where device_id = ${deviceId}::uuid
      union all
      select (select min(r.path) from telemetry_rollups r where r.device_id = ${deviceId}::uuid and r.path > paths.path)
      from paths where paths.path is not null
    )
    select path from paths where path is not null`);
  return rowsOf<{ path: string }>(result).map((row) => row.path);
}

/**
 * Deletes the rows of `table` that `condition` finds (a range of one of its indexes), at most `limit` a statement,
 * pausing after each (RETENTION_PAUSE_FACTOR) so ingest keeps the database; answers how many went.
 */
async function deleteInBatches(db: Db, table: SQL, condition: SQL, limit: number): Promise<number> {
  let total = 0;
  for (;;) {
    const started = performance.now();
    const result = await db.execute(sql`
      with gone as (
        delete from ${table} where ctid = any(array(select ctid from ${table} where ${condition} limit ${limit}))
        returning 1
      )
      select count(*)::int as n from gone`);
    const deleted = Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
    total += deleted;
    await sleep((performance.now() - started) * RETENTION_PAUSE_FACTOR);
    if (deleted < limit) return total;
  }
}

/**
 * The blocks of the hour a cutoff falls in keep only their values from the cutoff on (a block left without values
 * goes): the retention is exact to the microsecond, blocks or rows. At most one hour per device and path.
 */
async function trimBlocks(db: Db, cutoffs: readonly Cutoff[]): Promise<void> {
  await db.execute(sql`
    with cut as (
      select b.device_id, b.path, b.hour, c.cutoff
      from telemetry_blocks b
      join devices d on d.id = b.device_id
      join ${cutoffTable(cutoffs)} c on c.o = d.organization_id
      where b.hour > c.cutoff - interval '1 hour' and b.hour < c.cutoff
        and b.hour + b.deltas[1] * interval '1 microsecond' < c.cutoff
    ), block_values as (
      select cut.device_id, cut.path, cut.hour, v.ts, v.value, 0 as source, v.seq
      from cut
      join telemetry_blocks b on (b.device_id, b.hour, b.path) = (cut.device_id, cut.hour, cut.path)
      cross join lateral telemetry_block_values(b.hour, b.kind, b.deltas, b.numbers, b.others) as v
      where v.ts >= cut.cutoff
    ), emptied as (
      delete from telemetry_blocks b using cut
      where (b.device_id, b.hour, b.path) = (cut.device_id, cut.hour, cut.path)
        and not exists (
          select 1 from block_values x where (x.device_id, x.hour, x.path) = (cut.device_id, cut.hour, cut.path))
    )
    ${writeBlocks}`);
}
