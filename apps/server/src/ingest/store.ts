import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { type DeviceStatus, deviceStatusHistory, devices, latestValues } from '../db/schema.ts';
import { withPartitions } from '../telemetry/partitions.ts';
import type { DataValue } from './payload.ts';

export type TelemetryRow = { deviceId: string; ts: number; values: Record<string, DataValue> };
export type LatestRow = { deviceId: string; path: string; value: DataValue; ts: number };
export type CounterDelta = {
  deviceId: string;
  accepted: number;
  malformed: number;
  unknownPath: number;
  wrongType: number;
  lastError: string | null;
  lastErrorAt: number | null;
};
export type ReportedTag = { deviceId: string; name: string; type: string; at: number };

/**
 * One statement per batch whatever its size: the rows travel as one JSON parameter that PostgreSQL expands, which
 * measured twice as fast as a multi-row VALUES list on PGlite (51k against 25k rows/s) and keeps the statement cached.
 * A row of a day without its partition yet makes the partition (withPartitions).
 */
export async function insertTelemetry(db: Db, rows: readonly TelemetryRow[]): Promise<void> {
  const json = JSON.stringify(rows.map((row) => ({ d: row.deviceId, t: row.ts, v: row.values })));
  await withPartitions(
    db,
    rows.map((row) => row.ts),
    () =>
      db.execute(sql`
    insert into telemetry (device_id, ts, values)
    select x.d, to_timestamp(x.t / 1000.0), x.v from jsonb_to_recordset(${json}::jsonb) as x(d uuid, t float8, v jsonb)`),
  );
}

/** Upserts latest values; an older value never replaces a newer one (devices may send late). */
export async function upsertLatest(db: Db, rows: readonly LatestRow[]): Promise<void> {
  const json = JSON.stringify(rows.map((row) => ({ d: row.deviceId, p: row.path, v: row.value, t: row.ts })));
  await db.execute(sql`
    insert into latest_values (device_id, path, value, ts)
    select x.d, x.p, x.v, to_timestamp(x.t / 1000.0)
    from jsonb_to_recordset(${json}::jsonb) as x(d uuid, p text, v jsonb, t float8)
    where exists (select 1 from devices where devices.id = x.d)
    on conflict (device_id, path) do update set value = excluded.value, ts = excluded.ts
    where latest_values.ts <= excluded.ts`);
}

/** Moves each device's last-seen time forward. */
export async function touchDevices(db: Db, seen: ReadonlyMap<string, number>): Promise<void> {
  const json = JSON.stringify([...seen].map(([d, t]) => ({ d, t })));
  await db.execute(sql`
    update devices set last_seen_at = greatest(coalesce(devices.last_seen_at, to_timestamp(0)), to_timestamp(x.t / 1000.0))
    from jsonb_to_recordset(${json}::jsonb) as x(d uuid, t float8) where devices.id = x.d`);
}

export async function addCounters(db: Db, deltas: readonly CounterDelta[]): Promise<void> {
  const json = JSON.stringify(
    deltas.map((d) => ({
      d: d.deviceId,
      a: d.accepted,
      m: d.malformed,
      u: d.unknownPath,
      w: d.wrongType,
      e: d.lastError,
      t: d.lastErrorAt,
    })),
  );
  await db.execute(sql`
    insert into device_ingest_stats (device_id, accepted, malformed, unknown_path, wrong_type, last_error, last_error_at)
    select x.d, x.a, x.m, x.u, x.w, x.e, case when x.t is null then null else to_timestamp(x.t / 1000.0) end
    from jsonb_to_recordset(${json}::jsonb) as x(d uuid, a bigint, m bigint, u bigint, w bigint, e text, t float8)
    where exists (select 1 from devices where devices.id = x.d)
    on conflict (device_id) do update set
      accepted = device_ingest_stats.accepted + excluded.accepted,
      malformed = device_ingest_stats.malformed + excluded.malformed,
      unknown_path = device_ingest_stats.unknown_path + excluded.unknown_path,
      wrong_type = device_ingest_stats.wrong_type + excluded.wrong_type,
      last_error = coalesce(excluded.last_error, device_ingest_stats.last_error),
      last_error_at = coalesce(excluded.last_error_at, device_ingest_stats.last_error_at)`);
}

export async function upsertReportedTags(db: Db, tags: readonly ReportedTag[]): Promise<void> {
  const json = JSON.stringify(tags.map((tag) => ({ d: tag.deviceId, n: tag.name, y: tag.type, t: tag.at })));
  await db.execute(sql`
    insert into device_data_tags (device_id, name, type, last_seen_at)
    select x.d, x.n, x.y, to_timestamp(x.t / 1000.0)
    from jsonb_to_recordset(${json}::jsonb) as x(d uuid, n text, y text, t float8)
    where exists (select 1 from devices where devices.id = x.d)
    on conflict (device_id, name) do update set type = excluded.type, last_seen_at = excluded.last_seen_at`);
}

/** What ingest needs to know of a device: its organization and preset. */
export async function deviceRouting(db: Db, deviceId: string) {
  const [row] = await db
    .select({ organizationId: devices.organizationId, presetId: devices.presetId })
    .from(devices)
    .where(eq(devices.id, deviceId));
  return row;
}

/** Records a connection change: the device's status and the history entry, in one transaction. */
export async function recordStatus(db: Db, deviceId: string, status: DeviceStatus, detail: string, at: Date) {
  await db.transaction(async (tx) => {
    const changed = await tx
      .update(devices)
      .set({ status, lastSeenAt: at })
      .where(eq(devices.id, deviceId))
      .returning({ id: devices.id });
    if (changed.length > 0) await tx.insert(deviceStatusHistory).values({ deviceId, status, detail, at });
  });
}

/** After a crash nobody is connected: devices still marked ONLINE go OFFLINE with a history entry. */
export async function markAllOffline(db: Db, detail: string): Promise<string[]> {
  const rows = await db
    .update(devices)
    .set({ status: 'OFFLINE' })
    .where(eq(devices.status, 'ONLINE'))
    .returning({ id: devices.id });
  if (rows.length > 0) {
    await db
      .insert(deviceStatusHistory)
      .values(rows.map((row) => ({ deviceId: row.id, status: 'OFFLINE' as const, detail })));
  }
  return rows.map((row) => row.id);
}

export async function latestValuesStored(db: Db, deviceId: string): Promise<LatestRow[]> {
  const rows = await db.select().from(latestValues).where(eq(latestValues.deviceId, deviceId));
  return rows.map((row) => ({ deviceId, path: row.path, value: row.value, ts: row.ts.getTime() }));
}
