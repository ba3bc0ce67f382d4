/**
 * Generated device values for the telemetry benchmark, written by SQL (`insert … select … from generate_series`) a
 * day at a time, and their rollups: `rebuildRollups` of each day as it is written, or over the device's whole
 * history. Also the compaction of old days
 * (apps/server/src/telemetry/compaction.ts), when that module exists.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../apps/server/src/db/index.ts';
import type { ModelPath } from '../../apps/server/src/db/schema.ts';
import { DAY_MS, ensurePartitionsBetween, partitionsOf } from '../../apps/server/src/telemetry/partitions.ts';
import { RollupAccumulator } from '../../apps/server/src/telemetry/rollup-accumulator.ts';
import { rebuildRollups } from '../../apps/server/src/telemetry/rollups.ts';

/** The three paths of every generated device: a number, an integer and a boolean. */
export const PATHS: ModelPath[] = [
  { path: '/motor/speed', type: 'number', unit: 'rpm' },
  { path: '/motor/count', type: 'integer' },
  { path: '/motor/running', type: 'boolean' },
];
export const NUMBER_PATH = '/motor/speed';

export type RollupMode = 'fold' | 'rebuild';

/**
 * The values of message `n` (the device's running message number) of device `k` (its ordinal, so devices differ):
 * a number with two decimals that drifts slowly, a counter and a state that flips every 600 messages.
 */
function valuesOf(n: SQL, k: SQL): SQL {
  return sql`jsonb_build_object(
    '/motor/speed', round((50 + 40 * sin((${n} + ${k} * 7919) / 5000.0) + (${n} % 7))::numeric, 2),
    '/motor/count', (${n} / 10) % 100000,
    '/motor/running', ((${n} + ${k}) / 600) % 2 = 0)`;
}

/** A uuid[] literal (drizzle would spread a JavaScript array into one parameter per element). */
function uuidArray(ids: readonly string[]): SQL {
  return sql`${`{${ids.join(',')}}`}::uuid[]`;
}

/**
 * One UTC day of values of `deviceIds`, one message every `intervalMs` from `dayMs`, into `table` (telemetry, whose
 * partition must exist, or a flat table of the same columns). `firstMessage` numbers the day's first message.
 */
export async function insertDay(
  db: Db,
  table: string,
  deviceIds: readonly string[],
  dayMs: number,
  intervalMs: number,
  firstMessage: number,
): Promise<number> {
  const perDay = messagesPerDay(intervalMs);
  const n = sql`(${firstMessage}::int + g)`;
  await db.execute(sql`
    insert into ${sql.identifier(table)} (device_id, ts, values)
    select d.id, to_timestamp((${dayMs}::float8 + g::float8 * ${intervalMs}::float8) / 1000.0),
      ${valuesOf(n, sql`d.k`)}
    from unnest(${uuidArray(deviceIds)}) with ordinality as d(id, k)
    cross join generate_series(0, ${perDay - 1}::int) as g`);
  return perDay * deviceIds.length;
}

export function messagesPerDay(intervalMs: number): number {
  const perDay = DAY_MS / intervalMs;
  if (!Number.isInteger(perDay)) throw new Error(`a day is no whole number of ${intervalMs} ms intervals`);
  return perDay;
}

/**
 * The rollups of one day of `deviceIds`: when the day is compacted, its blocks' arrays are read back and added up by
 * the server's `RollupAccumulator` (what ingest does with values as it stores them; 0.1 s a device-day), otherwise
 * `rebuildRollups` of the day (SQL over the stored rows, seconds a device-day on PGlite).
 */
export async function foldDay(db: Db, deviceIds: readonly string[], dayMs: number): Promise<void> {
  const inRows = (await partitionsOf(db)).some((partition) => partition.fromMs === dayMs);
  if (inRows) {
    for (const deviceId of deviceIds)
      await rebuildRollups(db, deviceId, { fromMs: dayMs, toMs: dayMs + DAY_MS });
    return;
  }
  const accumulator = new RollupAccumulator();
  for (const deviceId of deviceIds) {
    const result = await db.execute(sql`
      select path, date_part('epoch', hour) * 1000 as hour_ms, kind, deltas::float8[] as deltas, numbers
      from telemetry_blocks
      where device_id = ${deviceId}::uuid and hour >= ${new Date(dayMs).toISOString()}::timestamptz
        and hour < ${new Date(dayMs + DAY_MS).toISOString()}::timestamptz`);
    type Block = { path: string; hour_ms: unknown; kind: string; deltas: number[]; numbers: number[] | null };
    for (const block of (result as unknown as { rows: Block[] }).rows) {
      if (block.kind === 'json') throw new Error(`generated values of ${block.path} are numbers or booleans`);
      let micros = 0;
      for (const [index, delta] of block.deltas.entries()) {
        micros += delta;
        const value = block.numbers?.[index] ?? 0;
        accumulator.add(deviceId, Number(block.hour_ms) + micros / 1000, {
          [block.path]: block.kind === 'boolean' ? value === 1 : value,
        });
      }
    }
  }
  await accumulator.flush(db, 'bench');
}

/** A table of the layout before partitioning: one unpartitioned table, one btree index on (device_id, ts). */
export async function createFlatTable(db: Db, name: string): Promise<void> {
  await db.execute(sql`create table ${sql.identifier(name)} (
    device_id uuid not null, ts timestamp (6) with time zone not null, values jsonb not null)`);
  await db.execute(
    sql`create index ${sql.identifier(`${name}_device_ts_idx`)} on ${sql.identifier(name)} using btree (device_id, ts)`,
  );
}

export type Timings = { insertS: number; rollupS: number; compactS: number; messages: number };

/**
 * `days` days of values of `deviceIds` from `firstDayMs`, a day (and at most `chunkDevices` devices) per statement,
 * with their rollups (`mode`), each day compacted after it is written when `compact` is given (as the hourly
 * maintenance does once a day is over). Logs progress about every 10 s.
 */
export async function generate(
  db: Db,
  options: {
    deviceIds: readonly string[];
    firstDayMs: number;
    days: number;
    intervalMs: number;
    chunkDevices: number;
    mode: RollupMode;
    compact?: Compact;
    what: string;
    log: (message: string) => void;
  },
): Promise<Timings> {
  const { deviceIds, firstDayMs, days, intervalMs, chunkDevices, mode, compact, what, log } = options;
  const perDay = messagesPerDay(intervalMs);
  const total = perDay * days * deviceIds.length;
  const timings: Timings = { insertS: 0, rollupS: 0, compactS: 0, messages: 0 };
  const started = performance.now();
  let logged = started;
  for (let day = 0; day < days; day++) {
    const dayMs = firstDayMs + day * DAY_MS;
    // Made day by day: compaction drops the empty partitions of days that are over.
    await ensurePartitionsBetween(db, dayMs, dayMs);
    const chunks: (readonly string[])[] = [];
    for (let from = 0; from < deviceIds.length; from += chunkDevices)
      chunks.push(deviceIds.slice(from, from + chunkDevices));
    for (const chunk of chunks) {
      const at = performance.now();
      timings.messages += await insertDay(db, 'telemetry', chunk, dayMs, intervalMs, day * perDay);
      timings.insertS += (performance.now() - at) / 1000;
    }
    if (compact) {
      const at = performance.now();
      await compact(db, Date.now());
      timings.compactS += (performance.now() - at) / 1000;
    }
    if (mode === 'fold') {
      const at = performance.now();
      for (const chunk of chunks) await foldDay(db, chunk, dayMs);
      timings.rollupS += (performance.now() - at) / 1000;
    }
    if (performance.now() - logged > 10_000 || timings.messages === total) {
      logged = performance.now();
      log(
        `${what}: ${timings.messages.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} messages ` +
          `(day ${day + 1} of ${days}), ${Math.round((logged - started) / 1000)} s ` +
          `(insert ${Math.round(timings.insertS)} s, rollups ${Math.round(timings.rollupS)} s, ` +
          `compaction ${Math.round(timings.compactS)} s)`,
      );
    }
  }
  if (mode === 'rebuild') {
    const at = performance.now();
    for (const [index, deviceId] of deviceIds.entries()) {
      await rebuildRollups(db, deviceId);
      if (performance.now() - logged > 10_000) {
        logged = performance.now();
        log(`${what}: rebuildRollups, ${index + 1} of ${deviceIds.length} devices`);
      }
    }
    timings.rollupS += (performance.now() - at) / 1000;
    log(`${what}: rebuildRollups took ${Math.round(timings.rollupS)} s`);
  }
  return timings;
}

export type Compact = (db: Db, nowMs: number) => Promise<unknown>;

export const COMPACTION_MODULE = path.resolve(
  import.meta.dirname,
  '../../apps/server/src/telemetry/compaction.ts',
);

/** `compactTelemetry` of apps/server/src/telemetry/compaction.ts, or undefined while that module does not exist. */
export async function loadCompaction(): Promise<Compact | undefined> {
  if (!existsSync(COMPACTION_MODULE)) return undefined;
  // A computed specifier: the type check passes whether or not the module is there yet.
  const module = (await import(pathToFileURL(COMPACTION_MODULE).href)) as { compactTelemetry?: unknown };
  if (typeof module.compactTelemetry !== 'function')
    throw new Error(`${COMPACTION_MODULE} exists but exports no function compactTelemetry`);
  return module.compactTelemetry as Compact;
}
