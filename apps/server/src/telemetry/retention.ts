import { setImmediate as nextTurn } from 'node:timers/promises';
import { type SQL, sql } from 'drizzle-orm';
import type { TelemetryRetention } from '../config.ts';
import type { Db } from '../db/index.ts';
import { writeBlocks } from './compaction.ts';
import { DAY_MS, type Partition, partitionsOf } from './partitions.ts';
import { ROLLUP_WIDTHS } from './rollups.ts';

/** Rows one delete statement removes: small enough that ingest statements run between two of them. */
export const RETENTION_BATCH_ROWS = 5_000;

/** What a run removed: whole partitions, rows and whole blocks (`deletedRows`), rollup rows. */
export type RetentionRun = { droppedPartitions: string[]; deletedRows: number; deletedRollups: number };

type Cutoff = { organizationId: string; cutoffMs: number };

/**
 * Removes what every organization keeps no longer: raw values and minute rollups older than the organization's
 * `telemetryRetentionDays` (else the server's default), hour rollups older than the server's rollup retention.
 * A partition older than every organization's cutoff is dropped whole; in the others, rows go in small batches so
 * that ingest never waits long.
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
  for (const partition of await partitionsOf(db)) {
    if (partition.toMs <= earliest) {
      await db.execute(sql`drop table if exists ${sql.identifier(partition.name)}`);
      run.droppedPartitions.push(partition.name);
    } else if ((partition.fromMs ?? Number.NEGATIVE_INFINITY) < latest) {
      run.deletedRows += await deleteInBatches(() => deleteRawBatch(db, partition, cutoffs, batchRows));
    }
  }
  run.deletedRows += await deleteInBatches(() => deleteBlockBatch(db, cutoffs, batchRows));
  await trimBlocks(db, cutoffs);
  run.deletedRollups += await deleteInBatches(() => deleteMinuteRollupBatch(db, cutoffs, batchRows));
  const hourCutoff = new Date(nowMs - retention.rollupDays * DAY_MS).toISOString();
  run.deletedRollups += await deleteInBatches(() =>
    deleteCount(
      db,
      sql`delete from telemetry_rollups where ctid = any(array(
        select ctid from telemetry_rollups
        where width_s = ${ROLLUP_WIDTHS.hour} and bucket + interval '1 hour' <= ${hourCutoff}::timestamptz
        limit ${batchRows}))`,
    ),
  );
  return run;
}

/** Every organization with devices, and the time before which its values go. */
async function cutoffsOf(db: Db, nowMs: number, defaultDays: number): Promise<Cutoff[]> {
  const result = await db.execute(sql`
    select o.id as organization_id,
      coalesce((l.limits ->> 'telemetryRetentionDays')::int, ${defaultDays}::int) as days
    from organizations o left join organization_limits l on l.organization_id = o.id
    where exists (select 1 from devices d where d.organization_id = o.id)`);
  const rows = (result as unknown as { rows: { organization_id: string; days: number | string }[] }).rows;
  return rows.map((row) => ({
    organizationId: row.organization_id,
    cutoffMs: nowMs - Number(row.days) * DAY_MS,
  }));
}

function cutoffTable(cutoffs: readonly Cutoff[]) {
  const json = JSON.stringify(cutoffs.map((entry) => ({ o: entry.organizationId, c: entry.cutoffMs })));
  return sql`(select x.o, to_timestamp(x.c / 1000.0) as cutoff from jsonb_to_recordset(${json}::jsonb) as x(o uuid, c float8))`;
}

/**
 * Deletes one batch of `table`'s rows (alias `x`, with `device_id`) that `condition` finds past their device's
 * organization's cutoff (`c.cutoff`); answers how many went.
 */
function deleteCutBatch(db: Db, table: SQL, condition: SQL, cutoffs: readonly Cutoff[], limit: number) {
  return deleteCount(
    db,
    sql`delete from ${table} where ctid = any(array(
      select x.ctid from ${table} x
      join devices d on d.id = x.device_id
      join ${cutoffTable(cutoffs)} c on c.o = d.organization_id
      where ${condition}
      limit ${limit}))`,
  );
}

/** One batch of a partition's rows older than their device's organization's cutoff. */
function deleteRawBatch(db: Db, partition: Partition, cutoffs: readonly Cutoff[], limit: number) {
  return deleteCutBatch(db, sql`${sql.identifier(partition.name)}`, sql`x.ts < c.cutoff`, cutoffs, limit);
}

/** One batch of blocks whose whole hour is older than their device's organization's cutoff. */
function deleteBlockBatch(db: Db, cutoffs: readonly Cutoff[], limit: number) {
  return deleteCutBatch(
    db,
    sql`telemetry_blocks`,
    sql`x.hour <= c.cutoff - interval '1 hour'`,
    cutoffs,
    limit,
  );
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

/** Minute rollups are kept as long as the raw values they summarise: a bucket goes once all of it is past. */
function deleteMinuteRollupBatch(db: Db, cutoffs: readonly Cutoff[], limit: number) {
  const past = sql`x.width_s = ${ROLLUP_WIDTHS.minute} and x.bucket + interval '1 minute' <= c.cutoff`;
  return deleteCutBatch(db, sql`telemetry_rollups`, past, cutoffs, limit);
}

async function deleteCount(db: Db, statement: ReturnType<typeof sql>): Promise<number> {
  const result = await db.execute(
    sql`with gone as (${statement} returning 1) select count(*)::int as n from gone`,
  );
  return Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
}

/** Repeats `batch` until it deletes nothing, letting other statements (ingest) run between two batches. */
async function deleteInBatches(batch: () => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await batch();
    total += deleted;
    if (deleted === 0) return total;
    await nextTurn();
  }
}
