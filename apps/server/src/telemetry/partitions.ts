import { sql } from 'drizzle-orm';
import { sqlStateOf } from '../db/errors.ts';
import type { Db } from '../db/index.ts';
import { rowsOf } from '../db/rows.ts';

/** Telemetry is partitioned by UTC day: a day's index stays small enough to be kept in memory while it is written. */
export const DAY_MS = 24 * 60 * 60 * 1000;
/** How many days after today have their partition ready, so the next midnight never waits for one. */
export const PARTITIONS_AHEAD_DAYS = 3;

/** PostgreSQL's SQLSTATE for a row no partition accepts. */
const NO_PARTITION = '23514';
/** Overlaps an existing partition: the attached table of the rows from before partitioning. */
const OVERLAPS = '42P17';

export type Partition = { name: string; fromMs: number | null; toMs: number };

/** The start (UTC midnight, epoch ms) of the day holding `ms`. */
export function dayOf(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** `telemetry_p20261128`: the partition of the UTC day starting at `dayMs`. */
export function partitionName(dayMs: number): string {
  return `telemetry_p${new Date(dayMs).toISOString().slice(0, 10).replaceAll('-', '')}`;
}

/**
 * Creates the partitions of the days holding `times` (epoch ms) that do not exist yet. Instances that do so at the
 * same moment take turns on a transaction-scoped advisory lock; a day inside the range of the attached table of
 * older rows already has its place and is left out.
 */
export async function ensurePartitions(db: Db, times: Iterable<number>): Promise<void> {
  const days = [...new Set([...times].map(dayOf))].sort((a, b) => a - b);
  if (days.length === 0) return;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('telemetry partitions'))`);
    for (const day of days) {
      const name = sql.raw(partitionName(day));
      const from = sql.raw(`'${new Date(day).toISOString()}'`);
      const to = sql.raw(`'${new Date(day + DAY_MS).toISOString()}'`);
      await tx.execute(sql`savepoint partition_day`);
      try {
        await tx.execute(
          sql`create table if not exists ${name} partition of telemetry for values from (${from}) to (${to})`,
        );
        await tx.execute(sql`release savepoint partition_day`);
      } catch (error) {
        if (sqlStateOf(error) !== OVERLAPS) throw error;
        await tx.execute(sql`rollback to savepoint partition_day`);
      }
    }
  });
}

/** The partitions of every day from the one holding `fromMs` to the one holding `toMs`. */
export async function ensurePartitionsBetween(db: Db, fromMs: number, toMs: number): Promise<void> {
  const days: number[] = [];
  for (let day = dayOf(fromMs); day <= toMs; day += DAY_MS) days.push(day);
  await ensurePartitions(db, days);
}

/** Today's partition and the next PARTITIONS_AHEAD_DAYS days'. */
export async function ensurePartitionsAhead(db: Db, nowMs: number): Promise<void> {
  await ensurePartitionsBetween(db, nowMs, dayOf(nowMs) + PARTITIONS_AHEAD_DAYS * DAY_MS);
}

/**
 * Runs `store`, which writes rows at `times`; when a row has no partition yet (a value late by days, a clock far
 * ahead) the partitions are made and `store` runs once more. The failed statement wrote nothing.
 */
export async function withPartitions<T>(
  db: Db,
  times: Iterable<number>,
  store: () => Promise<T>,
): Promise<T> {
  try {
    return await store();
  } catch (error) {
    if (sqlStateOf(error) !== NO_PARTITION) throw error;
    await ensurePartitions(db, times);
    return store();
  }
}

/** The partitions of telemetry with their ranges, oldest first (`fromMs` null: from the beginning of time). */
export async function partitionsOf(db: Db): Promise<Partition[]> {
  const result = await db.execute(sql`
    select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'telemetry'::regclass`);
  const rows = rowsOf<{ name: string; bound: string }>(result);
  return rows
    .map((row) => ({ name: row.name, ...rangeOf(row.bound) }))
    .sort((a, b) => (a.fromMs ?? Number.NEGATIVE_INFINITY) - (b.fromMs ?? Number.NEGATIVE_INFINITY));
}

/** `FOR VALUES FROM ('2026-11-28 00:00:00+00') TO ('2026-11-29 00:00:00+00')`, or FROM (MINVALUE). */
function rangeOf(bound: string): { fromMs: number | null; toMs: number } {
  const [, from = '', to = ''] = /FROM \((.*)\) TO \((.*)\)/.exec(bound) ?? [];
  // '2026-11-28 01:00:00+01' in the session's time zone: ISO 8601 once the offset has its minutes.
  const time = (text: string) =>
    Date.parse(
      text
        .replace(/^'|'$/g, '')
        .replace(' ', 'T')
        .replace(/([+-]\d\d)$/, '$1:00'),
    );
  return { fromMs: from === 'MINVALUE' ? null : time(from), toMs: time(to) };
}
