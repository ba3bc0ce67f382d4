import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { rowsOf } from '../../../db/rows.ts';
import { devices, type ModelPath, modelVersions, presets } from '../../../db/schema.ts';
import { ROLLUP_WIDTHS, type RollupWidth, rollupsOf } from '../../../telemetry/rollups.ts';
import { type Bucket, bucketWidth, type Extent, type NumberedBucket, type Values } from './reduction.ts';

export type DataDevice = { id: string; label: string; presetId: string | null };

/** The devices of the organization among `ids` (others, and other organizations' devices, are left out). */
export async function devicesAmong(
  db: Db,
  organizationId: string,
  ids: readonly string[],
): Promise<DataDevice[]> {
  if (ids.length === 0) return [];
  return db
    .select({ id: devices.id, label: devices.label, presetId: devices.presetId })
    .from(devices)
    .where(and(eq(devices.organizationId, organizationId), inArray(devices.id, [...ids])));
}

/** The model paths of each preset's model version (a device's preset decides which paths it has). */
export async function modelPathsOfPresets(
  db: Db,
  presetIds: readonly string[],
): Promise<Map<string, ModelPath[]>> {
  if (presetIds.length === 0) return new Map();
  const rows = await db
    .select({ presetId: presets.id, paths: modelVersions.paths })
    .from(presets)
    .innerJoin(
      modelVersions,
      and(eq(modelVersions.modelId, presets.modelId), eq(modelVersions.version, presets.modelVersion)),
    )
    .where(inArray(presets.id, [...presetIds]));
  return new Map(rows.map((row) => [row.presetId, row.paths]));
}

export type Range = { from: Date; to: Date };

/**
 * The device's values of `path` in the range (inclusive), from the day partitions and the compacted blocks alike
 * (telemetry_series, migration 0019): columns ts, value (jsonb), source and seq (the order of values sharing a time).
 */
function seriesIn(deviceId: string, path: string, range: Range): SQL {
  return sql`telemetry_series(${deviceId}::uuid, ${path}::text, ${range.from.toISOString()}::timestamptz, ${range.to.toISOString()}::timestamptz)`;
}

const EPOCH_MS = sql.raw(`(date_part('epoch', ts) * 1000)`);

type NumericType = 'number' | 'integer' | 'boolean';

/**
 * The stored value `j` (a jsonb) as a number for charts: numbers as numeric (a jsonb number converts to numeric
 * without formatting it as text, measured 2.5 times faster than float8 on PGlite), booleans 0/1, anything else null.
 */
function numericOf(j: SQL, type: NumericType): SQL<string | null> {
  if (type === 'boolean')
    return sql<string | null>`(case ${j} when 'true'::jsonb then 1 when 'false'::jsonb then 0 end)`;
  return sql<string | null>`(case when jsonb_typeof(${j}) = 'number' then (${j})::numeric end)`;
}

const CTID_SEQ = sql.raw(`((ctid::text::point)[0] * 65536 + (ctid::text::point)[1])::bigint`);

/**
 * A chart's values of `path` in the range from the day partitions' rows: e (epoch ms), v (numeric, null for a value
 * of another type), seq (the row's place, for values sharing a time).
 */
function rowNumbers(deviceId: string, path: string, type: NumericType, range: Range): SQL {
  return sql`
    select ${EPOCH_MS} as e, ${numericOf(sql`(values -> ${path}::text)`, type)} as v, ${CTID_SEQ} as seq
    from telemetry
    where device_id = ${deviceId}::uuid and ts >= ${range.from.toISOString()}::timestamptz
      and ts <= ${range.to.toISOString()}::timestamptz and values ? ${path}::text`;
}

/** A stored jsonb value as a chart's number, as `numericOf` reads it in SQL. */
function numberOf(value: unknown, type: NumericType): number | null {
  if (type === 'boolean') return value === true ? 1 : value === false ? 0 : null;
  return typeof value === 'number' ? value : null;
}

/**
 * The device's compacted values of `path` in the range (inclusive), oldest first. The blocks' arrays are read
 * whole and expanded here: a day of one path (86,400 values) took 39 ms as arrays against 290 ms as rows on PGlite. A time is the block's hour plus the running sum of its microsecond deltas, computed as telemetry_series
 * does; a block of mixed values (kind json) is read like rows are.
 */
export async function compactedValues(
  db: Db,
  deviceId: string,
  path: string,
  type: NumericType,
  range: Range,
): Promise<Values> {
  const result = await db.execute(sql`
    select date_part('epoch', b.hour) * 1000 as hour_ms, b.kind, array_to_string(b.deltas, ',') as deltas,
      array_to_string(b.numbers, ',') as numbers, b.others
    from telemetry_blocks b
    where b.device_id = ${deviceId}::uuid and b.path = ${path}::text
      and b.hour > ${range.from.toISOString()}::timestamptz - interval '1 hour'
      and b.hour <= ${range.to.toISOString()}::timestamptz
    order by b.hour`);
  // The arrays come as text and are split here: fetching a day of one path took 14 ms so against 45 ms as arrays on
  // PostgreSQL (node-postgres parses arrays slowly), 37 against 65 ms on PGlite.
  // A block's numbers have no nulls (a block of mixed values has none and keeps them in `others`).
  type Block = {
    hour_ms: unknown;
    kind: string;
    deltas: string;
    numbers: string | null;
    others: unknown[] | null;
  };
  const wanted = type === 'boolean' ? 'boolean' : 'number';
  const fromMs = range.from.getTime();
  const toMs = range.to.getTime();
  const values: Values = { e: [], v: [], seq: [] };
  for (const block of rowsOf<Block>(result)) {
    const hourMs = Number(block.hour_ms);
    const numbers = block.numbers?.split(',');
    let micros = 0;
    for (const [index, delta] of block.deltas.split(',').entries()) {
      micros += Number(delta);
      const e = hourMs + micros / 1000;
      if (e < fromMs || e > toMs) continue;
      values.e.push(e);
      values.v.push(
        block.kind === wanted
          ? Number(numbers?.[index])
          : block.kind === 'json'
            ? numberOf(block.others?.[index], type)
            : null,
      );
      values.seq.push(index + 1);
    }
  }
  return values;
}

/** The times (epoch ms) of the first and the last value of `path` in the range among the day partitions' rows. */
export async function storedExtent(
  db: Db,
  deviceId: string,
  path: string,
  type: NumericType,
  range: Range,
): Promise<Extent | undefined> {
  const result = await db.execute(sql`
    select min(e)::float8 as first_ms, max(e)::float8 as last_ms
    from (${rowNumbers(deviceId, path, type, range)}) as stored`);
  const [row] = rowsOf<{ first_ms: unknown; last_ms: unknown }>(result);
  return row && row.first_ms !== null
    ? { firstMs: Number(row.first_ms), lastMs: Number(row.last_ms) }
    : undefined;
}

/** How many values of `path` the device stored in the range. */
export async function countValues(db: Db, deviceId: string, path: string, range: Range): Promise<number> {
  const result = await db.execute(sql`select count(*)::int as n from ${seriesIn(deviceId, path, range)}`);
  return Number(rowsOf<{ n: unknown }>(result)[0]?.n ?? 0);
}

/**
 * Every numeric value of `path` in the range among the day partitions' rows, oldest first, with its place among
 * values that share a time (values of another type, stored under an older model version, are left out).
 */
export async function storedPoints(
  db: Db,
  deviceId: string,
  path: string,
  type: NumericType,
  range: Range,
): Promise<Values> {
  const result = await db.execute(sql`
    select e::float8 as e, v::float8 as v, seq from (${rowNumbers(deviceId, path, type, range)}) as stored
    where v is not null
    order by e, seq`);
  const rows = rowsOf<{ e: unknown; v: unknown; seq: unknown }>(result);
  return {
    e: rows.map((row) => Number(row.e)),
    v: rows.map((row) => Number(row.v)),
    seq: rows.map((row) => Number(row.seq)),
  };
}

/**
 * The numeric values of `path` among the day partitions' rows reduced to `buckets` equal time buckets between the
 * extent's first and last time (as `bucketIndex` numbers them): the minimum and the maximum of each (so peaks survive), the times
 * of the bucket's first and last value, and how many values it holds. The `offset 0` fence keeps PostgreSQL from
 * inlining the rows' subquery, which would extract a value once per aggregate. Buckets without values are left out.
 */
export async function storedBuckets(
  db: Db,
  deviceId: string,
  path: string,
  type: NumericType,
  range: Range,
  extent: Extent,
  buckets: number,
): Promise<NumberedBucket[]> {
  const width = bucketWidth(extent, buckets);
  // Numbers computed here, never caller text, inlined so the statement needs no casts for them.
  const result = await db.execute(sql`
    select ${sql.raw(`least(floor((e - ${extent.firstMs}) / ${width}), ${buckets - 1})`)} as bucket,
      min(v)::float8 as lo, max(v)::float8 as hi, min(e)::float8 as first_ms, max(e)::float8 as last_ms, count(v) as n
    from (${rowNumbers(deviceId, path, type, range)} offset 0) as stored
    where v is not null
    group by 1
    order by 1`);
  type Row = { bucket: unknown; lo: unknown; hi: unknown; first_ms: unknown; last_ms: unknown; n: unknown };
  return rowsOf<Row>(result).map((row) => ({
    index: Number(row.bucket),
    lo: Number(row.lo),
    hi: Number(row.hi),
    firstMs: Number(row.first_ms),
    lastMs: Number(row.last_ms),
    count: Number(row.n),
  }));
}

/**
 * The device's rollups of `path` of width `widthS` that overlap the range, merged into `buckets` equal time buckets
 * across the range: the minimum and maximum of each, the start of its first rollup and the time of its last value, and
 * how many values it summarises. A few hundred rows of the (device, path, width, bucket) key, however long the range.
 */
export async function rollupBuckets(
  db: Db,
  deviceId: string,
  path: string,
  width: RollupWidth,
  range: Range,
  buckets: number,
): Promise<Bucket[]> {
  const fromMs = range.from.getTime();
  const bucketMs = Math.max((range.to.getTime() - fromMs) / buckets, 1e-6);
  const rollups = rollupsOf(width, sql`device_id = ${deviceId}::uuid and path = ${path}::text`, range);
  const result = await db.execute(sql`
    select least(floor((date_part('epoch', r.bucket) * 1000 - ${fromMs}::float8) / ${bucketMs}::float8), ${buckets - 1}::int) as b,
      min(r.min) as lo, max(r.max) as hi, min(date_part('epoch', r.bucket) * 1000) as first_ms,
      max(date_part('epoch', r.last_ts) * 1000) as last_ms, sum(r.count) as n
    from ${rollups} as r
    where r.bucket >= ${new Date(fromMs - ROLLUP_WIDTHS[width] * 1000 + 1).toISOString()}::timestamptz
      and r.bucket <= ${range.to.toISOString()}::timestamptz
    group by 1
    order by 1`);
  return rowsOf<{ lo: unknown; hi: unknown; first_ms: unknown; last_ms: unknown; n: unknown }>(result).map(
    (row) => ({
      lo: Number(row.lo),
      hi: Number(row.hi),
      firstMs: Math.max(Number(row.first_ms), fromMs),
      lastMs: Number(row.last_ms),
      count: Number(row.n),
    }),
  );
}

export type SummaryRow = {
  deviceId: string;
  label: string;
  count: number;
  min: number;
  max: number;
  average: number;
  last: number;
  lastAt: Date;
};

/**
 * Every device of the organization with hourly rollups of `path` in the range (whole hours): its count, minimum,
 * maximum, average and newest value there, by label. One index range per device, however many values it stored.
 */
export async function summaryOfDevices(
  db: Db,
  organizationId: string,
  path: string,
  range: Range,
  limit: number,
): Promise<SummaryRow[]> {
  // Per device (lateral): each one's rollups are an index range, whatever the planner knows of the devices.
  const series = sql`device_id = d.id and path = ${path}::text`;
  const result = await db.execute(sql`
    select d.id, d.label, sum(r.count) as n, min(r.min) as lo, max(r.max) as hi, sum(r.sum) / sum(r.count) as average,
      (array_agg(r.last order by r.last_ts desc))[1] as last, max(r.last_ts) as last_at
    from devices d cross join lateral ${rollupsOf('hour', series, range)} as r
    where d.organization_id = ${organizationId}::uuid
      and r.bucket >= ${range.from.toISOString()}::timestamptz and r.bucket < ${range.to.toISOString()}::timestamptz
    group by d.id, d.label
    order by d.label, d.id
    limit ${limit}`);
  type Row = {
    id: string;
    label: string;
    n: unknown;
    lo: unknown;
    hi: unknown;
    average: unknown;
    last: unknown;
  };
  return rowsOf<Row & { last_at: string | Date }>(result).map((row) => ({
    deviceId: row.id,
    label: row.label,
    count: Number(row.n),
    min: Number(row.lo),
    max: Number(row.hi),
    average: Number(row.average),
    last: Number(row.last),
    lastAt: new Date(row.last_at),
  }));
}

/** The first `limit` values of a string path in the range, as text, oldest first. */
export async function textPoints(
  db: Db,
  deviceId: string,
  path: string,
  range: Range,
  limit: number,
): Promise<{ t: number[]; text: string[] }> {
  const result = await db.execute(sql`
    select ${EPOCH_MS}::float8 as t, value #>> '{}' as text
    from ${seriesIn(deviceId, path, range)}
    order by ts, source, seq
    limit ${limit}`);
  const rows = rowsOf<{ t: unknown; text: string | null }>(result);
  return { t: rows.map((row) => Number(row.t)), text: rows.map((row) => row.text ?? '') };
}

/** Where an export stopped: the last value's time (as PostgreSQL prints it) and its place among equal times. */
export type ExportCursor = { ts: string; source: number; seq: string };

/**
 * A part of an export's range: from `from` (inclusive) to `before` (exclusive), or to `to` (inclusive) when
 * `before` is null. An export reads its range window after window, so no query sorts more than one window.
 */
export type ExportWindow = { from: Date; to: Date; before: Date | null };

const ISO_UTC = sql.raw(`'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`);

/** The window's values of `path` after `cursor`, oldest first: ts, value, source, seq. */
function exportValuesAfter(
  deviceId: string,
  path: string,
  window: ExportWindow,
  after: ExportCursor | null,
  limit: number,
): SQL {
  const before = window.before ? sql`and ts < ${window.before.toISOString()}::timestamptz` : sql``;
  const next = after
    ? sql`and (ts, source, seq) > (${after.ts}::timestamptz, ${after.source}::int, ${after.seq}::bigint)`
    : sql``;
  return sql`
    select ts, value, source, seq from ${seriesIn(deviceId, path, window)}
    where true ${before} ${next}
    order by ts, source, seq
    limit ${limit}`;
}

export type ExportRow = {
  /** ISO 8601, UTC, milliseconds. */
  iso: string;
  cursor: ExportCursor;
  /** The stored value (parsed JSON). */
  value: unknown;
};

/** The next `limit` values of a path in the window, oldest first, after `cursor`, one row each (for text values). */
export async function exportRows(
  db: Db,
  deviceId: string,
  path: string,
  window: ExportWindow,
  after: ExportCursor | null,
  limit: number,
): Promise<ExportRow[]> {
  const result = await db.execute(sql`
    select ts::text as ts, source, seq::text as seq, to_char(ts at time zone 'UTC', ${ISO_UTC}) as iso, value
    from (${exportValuesAfter(deviceId, path, window, after, limit)}) as batch
    order by batch.ts, batch.source, batch.seq`);
  return rowsOf<{ ts: string; source: unknown; seq: string; iso: string; value: unknown }>(result).map(
    (row) => ({
      iso: row.iso,
      cursor: { ts: row.ts, source: Number(row.source), seq: row.seq },
      value: row.value,
    }),
  );
}

export type ExportChunk = { text: string; rows: number; cursor: ExportCursor | null };

/**
 * The next `limit` values of a number or boolean path in the window as finished CSV records (`prefix` + time +
 * value + CRLF), built by PostgreSQL in one string: passing rows one by one to JavaScript measured six times slower
 * on PGlite. Numbers and booleans are written as they are; a value of another type (left from an older model
 * version) is always quoted behind a leading apostrophe, so it can never be read as a formula.
 */
export async function exportChunk(
  db: Db,
  deviceId: string,
  path: string,
  prefix: string,
  window: ExportWindow,
  after: ExportCursor | null,
  limit: number,
): Promise<ExportChunk> {
  const result = await db.execute(sql`
    with batch as materialized (${exportValuesAfter(deviceId, path, window, after, limit)})
    select
      string_agg(
        ${prefix}::text || to_char(ts at time zone 'UTC', ${ISO_UTC}) || ',' ||
          case when jsonb_typeof(value) in ('number', 'boolean') then value #>> '{}'
            else '"''' || replace(coalesce(value #>> '{}', ''), '"', '""') || '"' end || E'\r\n',
        '' order by ts, source, seq) as text,
      count(*) as rows,
      (select ts::text from batch order by ts desc, source desc, seq desc limit 1) as last_ts,
      (select source from batch order by ts desc, source desc, seq desc limit 1) as last_source,
      (select seq::text from batch order by ts desc, source desc, seq desc limit 1) as last_seq
    from batch`);
  const [row] = rowsOf<{
    text: string | null;
    rows: unknown;
    last_ts: string | null;
    last_source: unknown;
    last_seq: string | null;
  }>(result);
  return {
    text: row?.text ?? '',
    rows: Number(row?.rows ?? 0),
    cursor:
      row?.last_ts && row.last_seq
        ? { ts: row.last_ts, source: Number(row.last_source), seq: row.last_seq }
        : null,
  };
}
