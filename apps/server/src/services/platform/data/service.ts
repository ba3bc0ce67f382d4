import { Readable } from 'node:stream';
import { platform } from '@edgeport/contract';
import type { Db } from '../../../db/index.ts';
import type { ModelPath } from '../../../db/schema.ts';
import { badRequest, forbidden, notFound } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { ROLLUP_WIDTHS, type RollupWidth } from '../../../telemetry/rollups.ts';
import { csvCell, csvRow } from '../../audit/csv.ts';
import { authorizeInOrganization } from '../../core/organizations/service.ts';
import { type DataAccess, dataAccessOf } from '../../core/roles/data-access.ts';
import {
  bucketsOf,
  countOf,
  extentOf,
  mergeBuckets,
  orderedPoints,
  pointsOfBuckets,
  widest,
} from './reduction.ts';
import * as store from './store.ts';

/** Spec 6 "data-explore": READ models and READ devices (IoT only: without IoT, rights on models are ignored). */
async function authorizeData(db: Db, principal: Principal, ref: string) {
  await authorizeInOrganization(db, principal, ref, 'READ', 'devices');
  return authorizeInOrganization(db, principal, ref, 'READ', 'models');
}

/** The range of a query or export: `to` after `from`, at most 366 days apart. */
export function rangeOf(part: 'body' | 'querystring', from: string, to: string): store.Range {
  const start = new Date(from);
  const end = new Date(to);
  if (Number.isNaN(start.getTime())) throw badRequest(`${part}/from must be an ISO date-time`);
  if (Number.isNaN(end.getTime())) throw badRequest(`${part}/to must be an ISO date-time`);
  if (end.getTime() <= start.getTime()) throw badRequest(`${part}/to must be after ${part}/from`);
  if (end.getTime() - start.getTime() > platform.DATA_MAX_SPAN_MS)
    throw badRequest(`${part}/to must be at most 366 days after ${part}/from`);
  return { from: start, to: end };
}

type DeviceModel = store.DataDevice & { paths: Map<string, ModelPath> };

/** The asked devices, in the order asked, each with the paths of its preset's model; 404 names a missing one. */
async function devicesWithPaths(
  db: Db,
  organizationId: string,
  ids: readonly string[],
): Promise<DeviceModel[]> {
  const found = new Map((await store.devicesAmong(db, organizationId, ids)).map((row) => [row.id, row]));
  const missing = ids.find((id) => !found.has(id));
  if (missing !== undefined) throw notFound(`device '${missing}' not found`);
  const presetIds = [...new Set([...found.values()].flatMap((row) => (row.presetId ? [row.presetId] : [])))];
  const pathsByPreset = await store.modelPathsOfPresets(db, presetIds);
  return ids.map((id) => {
    const row = found.get(id) as store.DataDevice;
    const paths = (row.presetId ? pathsByPreset.get(row.presetId) : undefined) ?? [];
    return { ...row, paths: new Map(paths.map((entry) => [entry.path, entry])) };
  });
}

/** 403 for the first asked path the caller's data roles do not let them read. */
function checkReadable(access: DataAccess, part: 'body' | 'querystring', paths: readonly string[]) {
  paths.forEach((path, index) => {
    if (!access.canRead(path))
      throw forbidden(`${part}/paths/${index}: your data roles do not allow reading '${path}'`);
  });
}

/** GET data/paths: the readable model paths the devices' presets give them (union, sorted by path). */
export async function pathsOf(
  db: Db,
  principal: Principal,
  ref: string,
  query: platform.DataPathsQuery,
): Promise<platform.DataPaths> {
  const org = await authorizeData(db, principal, ref);
  const found = await devicesWithPaths(db, org.id, query.deviceIds);
  const access = await dataAccessOf(db, principal.userId, org.id);
  const union = new Map<string, platform.DataPath>();
  for (const device of found) {
    for (const entry of device.paths.values()) {
      if (!access.canRead(entry.path)) continue;
      const known = union.get(entry.path);
      if (known) {
        known.deviceIds.push(device.id);
        continue;
      }
      union.set(entry.path, {
        path: entry.path,
        type: entry.type,
        ...(entry.unit ? { unit: entry.unit } : {}),
        ...(entry.description ? { description: entry.description } : {}),
        deviceIds: [device.id],
      });
    }
  }
  return { paths: [...union.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) };
}

/**
 * The rollup a chart of `range` in `points` points is drawn from: the widest whose buckets still fit at least twice
 * into one point's time; none (the stored values) for short ranges.
 */
export function rollupFor(range: store.Range, maxPoints: number): RollupWidth | undefined {
  const perPointS = (range.to.getTime() - range.from.getTime()) / 1000 / Math.floor(maxPoints / 2);
  if (perPointS >= 2 * ROLLUP_WIDTHS.hour) return 'hour';
  if (perPointS >= 2 * ROLLUP_WIDTHS.minute) return 'minute';
  return undefined;
}

/** One device's series of one path, reduced on the server to at most `maxPoints` points. */
async function seriesOf(
  db: Db,
  device: DeviceModel,
  model: ModelPath,
  range: store.Range,
  maxPoints: number,
): Promise<platform.DataSeries> {
  const base = {
    deviceId: device.id,
    label: device.label,
    path: model.path,
    type: model.type,
    ...(model.unit ? { unit: model.unit } : {}),
  };
  const empty = { ...base, points: { t: [], v: [] }, decimated: false, total: 0, resolution: 'raw' as const };
  if (model.type === 'string') {
    const total = await store.countValues(db, device.id, model.path, range);
    if (total === 0) return { ...empty, text: [] };
    const listed = await store.textPoints(db, device.id, model.path, range, maxPoints);
    return {
      ...base,
      points: { t: listed.t, v: listed.t.map(() => null) },
      text: listed.text,
      decimated: total > listed.t.length,
      total,
      resolution: 'raw',
    };
  }
  const buckets = Math.floor(maxPoints / 2);
  const rollup = rollupFor(range, maxPoints);
  if (rollup) {
    // A long range: its rollups, unless the values are so few that they are answered themselves.
    const merged = await store.rollupBuckets(db, device.id, model.path, rollup, range, buckets);
    const total = countOf(merged);
    if (total === 0) return empty;
    if (total > maxPoints)
      return { ...base, points: pointsOfBuckets(merged), decimated: true, total, resolution: rollup };
  }
  // The blocks are read as arrays and reduced here, the day partitions' rows in SQL; both into the same buckets.
  const compacted = await store.compactedValues(db, device.id, model.path, model.type, range);
  const storedExtent = await store.storedExtent(db, device.id, model.path, model.type, range);
  const extent = widest(extentOf(compacted), storedExtent);
  if (!extent) return empty;
  const storedBuckets = storedExtent
    ? await store.storedBuckets(db, device.id, model.path, model.type, range, extent, buckets)
    : [];
  const reduced = mergeBuckets(bucketsOf(compacted, extent, buckets), storedBuckets);
  const total = countOf(reduced);
  if (total === 0) return empty;
  if (total <= maxPoints) {
    const stored = storedExtent
      ? await store.storedPoints(db, device.id, model.path, model.type, range)
      : { e: [], v: [], seq: [] };
    return { ...base, points: orderedPoints(compacted, stored), decimated: false, total, resolution: 'raw' };
  }
  return { ...base, points: pointsOfBuckets(reduced), decimated: true, total, resolution: 'raw' };
}

/** POST data/query: a series per (device, path) whose device's model has the path, in the order asked. */
export async function queryData(
  db: Db,
  principal: Principal,
  ref: string,
  body: platform.DataQueryRequest,
): Promise<platform.DataQueryResult> {
  const org = await authorizeData(db, principal, ref);
  const range = rangeOf('body', body.from, body.to);
  const found = await devicesWithPaths(db, org.id, body.deviceIds);
  checkReadable(await dataAccessOf(db, principal.userId, org.id), 'body', body.paths);
  const maxPoints = body.maxPoints ?? platform.DATA_DEFAULT_MAX_POINTS;
  const series: platform.DataSeries[] = [];
  for (const device of found) {
    for (const path of body.paths) {
      const model = device.paths.get(path);
      if (model) series.push(await seriesOf(db, device, model, range, maxPoints));
    }
  }
  return { from: range.from.toISOString(), to: range.to.toISOString(), series };
}

const HOUR_MS = ROLLUP_WIDTHS.hour * 1000;

/**
 * POST data/summary: every device of the organization with values of the path in the range, each with its count,
 * minimum, maximum, average and newest value, from the hourly rollups (the range widened to whole hours).
 */
export async function summarizeData(
  db: Db,
  principal: Principal,
  ref: string,
  body: platform.DataSummaryRequest,
): Promise<platform.DataSummary> {
  const org = await authorizeData(db, principal, ref);
  const asked = rangeOf('body', body.from, body.to);
  if (!(await dataAccessOf(db, principal.userId, org.id)).canRead(body.path))
    throw forbidden(`body/path: your data roles do not allow reading '${body.path}'`);
  const range = {
    from: new Date(Math.floor(asked.from.getTime() / HOUR_MS) * HOUR_MS),
    to: new Date(Math.ceil(asked.to.getTime() / HOUR_MS) * HOUR_MS),
  };
  const rows = await store.summaryOfDevices(db, org.id, body.path, range, platform.DATA_SUMMARY_MAX_DEVICES);
  return {
    from: range.from.toISOString(),
    to: range.to.toISOString(),
    path: body.path,
    resolution: 'hour',
    rows: rows.map((row) => ({ ...row, lastAt: row.lastAt.toISOString() })),
  };
}

/** An export reads its range a day at a time: no query sorts more than a day of one path's values. */
export const EXPORT_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The range cut into EXPORT_WINDOW_MS windows, the last one ending at the range's end (inclusive). */
export function exportWindows(range: store.Range): store.ExportWindow[] {
  const windows: store.ExportWindow[] = [];
  for (let from = range.from.getTime(); ; from += EXPORT_WINDOW_MS) {
    const before = from + EXPORT_WINDOW_MS;
    if (before > range.to.getTime()) {
      windows.push({ from: new Date(from), to: range.to, before: null });
      return windows;
    }
    windows.push({ from: new Date(from), to: new Date(before), before: new Date(before) });
  }
}

type ExportedPath = { deviceId: string; path: string; type: ModelPath['type']; prefix: string };

/** One path's CSV records, window after window and batch after batch, while the budget of records lasts. */
async function* recordsOfPath(
  db: Db,
  exported: ExportedPath,
  range: store.Range,
  batch: number,
  budget: { left: number },
): AsyncGenerator<string> {
  for (const window of exportWindows(range)) {
    let cursor: store.ExportCursor | null = null;
    for (;;) {
      const size = Math.min(batch, budget.left);
      if (size <= 0) return;
      const chunk = await recordsAfter(db, exported, window, cursor, size);
      budget.left -= chunk.rows;
      if (chunk.rows > 0) yield chunk.text;
      if (chunk.rows < size || !chunk.cursor) break;
      cursor = chunk.cursor;
    }
  }
}

/** The next records of a path: numbers and booleans written by PostgreSQL, text values here (valueCell). */
async function recordsAfter(
  db: Db,
  { deviceId, path, type, prefix }: ExportedPath,
  window: store.ExportWindow,
  cursor: store.ExportCursor | null,
  size: number,
): Promise<store.ExportChunk> {
  if (type !== 'string') return store.exportChunk(db, deviceId, path, prefix, window, cursor, size);
  const read = await store.exportRows(db, deviceId, path, window, cursor, size);
  return {
    text: read.map((row) => `${prefix}${row.iso},${valueCell(row.value)}\r\n`).join(''),
    rows: read.length,
    cursor: read.at(-1)?.cursor ?? null,
  };
}

/** Telemetry rows read per query while exporting. */
export const EXPORT_BATCH = 20_000;
export const EXPORT_COLUMNS = ['device', 'label', 'path', 'ts', 'value'] as const;

/** A stored value as a CSV cell: numbers as they are (a minus sign is no formula), text defused and quoted. */
export function valueCell(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return csvCell(value);
  if (value === null || value === undefined) return '';
  return csvCell(JSON.stringify(value));
}

/**
 * GET data/export.csv: every stored value of the asked paths in the range, one record per (device, path, time):
 * device by device and path by path in the order asked, oldest first; at most `limit` records. Access, devices, paths
 * and range are checked before the first byte, so refusals still answer as errors.
 */
export async function exportData(
  db: Db,
  principal: Principal,
  ref: string,
  query: platform.DataExportQuery,
  {
    now = new Date(),
    limit = platform.DATA_EXPORT_ROW_LIMIT,
    batch = EXPORT_BATCH,
  }: { now?: Date; limit?: number; batch?: number } = {},
): Promise<{ filename: string; body: Readable }> {
  const org = await authorizeData(db, principal, ref);
  const range = rangeOf('querystring', query.from, query.to);
  const found = await devicesWithPaths(db, org.id, query.deviceIds);
  checkReadable(await dataAccessOf(db, principal.userId, org.id), 'querystring', query.paths);
  async function* lines() {
    // The byte order mark lets spreadsheet programs read the file as UTF-8.
    yield `\uFEFF${csvRow(EXPORT_COLUMNS)}`;
    const budget = { left: limit };
    for (const device of found) {
      for (const path of query.paths) {
        const model = device.paths.get(path);
        if (!model) continue;
        const prefix = `${csvCell(device.id)},${csvCell(device.label)},${csvCell(path)},`;
        yield* recordsOfPath(
          db,
          { deviceId: device.id, path, type: model.type, prefix },
          range,
          batch,
          budget,
        );
      }
    }
  }
  const name = org.resourceId.replace(/[^A-Za-z0-9_-]/g, '_');
  return { filename: `data-${name}-${now.toISOString().slice(0, 10)}.csv`, body: Readable.from(lines()) };
}
