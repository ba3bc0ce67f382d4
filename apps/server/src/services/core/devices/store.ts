import type { core } from '@edgeport/contract';
import {
  and,
  asc,
  count,
  desc,
  eq,
  gte,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lte,
  ne,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../../db/index.ts';
import { containsPattern, pageWindow, sortKey } from '../../../db/paging.ts';
import { deviceGroupMembers, deviceSecurityPolicies, devices } from '../../../db/schema.ts';
import { deleteDeviceData } from '../../../ingest/device-data.ts';
import { rememberedTotal, rememberTotal, totalKey } from './totals.ts';

export type DeviceRow = typeof devices.$inferSelect;
/** A device without its configuration (lists never carry it). */
export type DeviceSummaryRow = Omit<DeviceRow, 'configuration' | 'serviceClientId'>;

/** The columns of a list row: everything but the configuration. */
const SUMMARY = {
  id: devices.id,
  organizationId: devices.organizationId,
  label: devices.label,
  alias: devices.alias,
  serialNumber: devices.serialNumber,
  description: devices.description,
  tags: devices.tags,
  status: devices.status,
  presetId: devices.presetId,
  latitude: devices.latitude,
  longitude: devices.longitude,
  lastSeenAt: devices.lastSeenAt,
  createdAt: devices.createdAt,
};

const SORT_COLUMNS: Record<(typeof core.DEVICE_SORT_KEYS)[number], AnyPgColumn> = {
  label: devices.label,
  alias: devices.alias,
  serialNumber: devices.serialNumber,
  status: devices.status,
  lastSeenAt: devices.lastSeenAt,
  createdAt: devices.createdAt,
};
const SORT_KEYS = Object.keys(SORT_COLUMNS) as (keyof typeof SORT_COLUMNS)[];

export type DeviceFilter = {
  search?: string;
  status?: 'ONLINE' | 'OFFLINE';
  tags?: string[];
  groupId?: string;
  presetId?: string;
  positioned?: boolean;
};

function searchCondition(search: string | undefined): SQL | undefined {
  if (!search?.trim()) return undefined;
  const pattern = containsPattern(search);
  return or(
    ilike(devices.label, pattern),
    ilike(devices.alias, pattern),
    ilike(devices.serialNumber, pattern),
  );
}

function matching(organizationId: string, filter: DeviceFilter): SQL | undefined {
  return and(
    eq(devices.organizationId, organizationId),
    searchCondition(filter.search),
    filter.status ? eq(devices.status, filter.status) : undefined,
    // jsonb containment: every asked tag is on the device.
    filter.tags?.length ? sql`${devices.tags} @> ${JSON.stringify(filter.tags)}::jsonb` : undefined,
    filter.groupId
      ? sql`exists (select 1 from ${deviceGroupMembers} where ${deviceGroupMembers.deviceId} = ${devices.id} and ${deviceGroupMembers.groupId} = ${filter.groupId})`
      : undefined,
    filter.presetId ? eq(devices.presetId, filter.presetId) : undefined,
    filter.positioned === true ? and(isNotNull(devices.latitude), isNotNull(devices.longitude)) : undefined,
    filter.positioned === false ? or(isNull(devices.latitude), isNull(devices.longitude)) : undefined,
  );
}

/**
 * The ORDER BY of a list, with the id as tie-breaker. A device never seen counts as seen longest ago: first when
 * sorting by last seen ascending, last when descending (one index, (organization_id, last_seen_at DESC NULLS LAST,
 * id DESC), serves both). Devices without an alias come last either way. Labels are unique, so need no tie-breaker.
 */
function orderBy(sort: string | undefined, order: 'asc' | 'desc' | undefined, searching = false): SQL[] {
  const key = sortKey(sort, SORT_KEYS, 'label');
  // A search matches few devices, which the trigram index finds at once; walking a sort index instead and filtering
  // row by row took 150 ms at 100,000 devices when the planner chose it. coalesce(c, c) sorts as c but matches no
  // index, so the planner filters first and sorts the few matches.
  const column = searching ? sql`coalesce(${SORT_COLUMNS[key]}, ${SORT_COLUMNS[key]})` : SORT_COLUMNS[key];
  const descending = order === 'desc';
  const direction = descending ? desc : asc;
  if (key === 'lastSeenAt') {
    return [
      descending ? sql`${column} desc nulls last` : sql`${column} asc nulls first`,
      direction(devices.id),
    ];
  }
  if (key === 'alias') {
    return [
      descending ? sql`${column} desc nulls last` : sql`${column} asc nulls last`,
      direction(devices.id),
    ];
  }
  // Labels are unique in an organization: the (organization_id, label) index gives the order alone.
  if (key === 'label') return [direction(column)];
  return [direction(column), direction(devices.id)];
}

export type DevicePageQuery = DeviceFilter & {
  page?: number;
  pageSize?: number;
  sort?: string;
  order?: 'asc' | 'desc';
};

/** One page of the organization's devices and how many match (the total is remembered briefly, see totals.ts). */
export async function pageOfDevices(db: Db, organizationId: string, query: DevicePageQuery) {
  const window = pageWindow(query);
  const filter: DeviceFilter = {
    search: query.search?.trim().toLowerCase() || undefined,
    status: query.status,
    tags: query.tags?.length ? [...query.tags].sort() : undefined,
    groupId: query.groupId,
    presetId: query.presetId,
    positioned: query.positioned,
  };
  const where = matching(organizationId, filter);
  const order = orderBy(query.sort, query.order, filter.search !== undefined);
  const key = totalKey(organizationId, filter);
  const known = rememberedTotal(key);
  const [items, total] = await Promise.all([
    db
      .select(SUMMARY)
      .from(devices)
      .where(where)
      .orderBy(...order)
      .offset(window.offset)
      .limit(window.pageSize),
    known ??
      db
        .select({ total: count() })
        .from(devices)
        .where(where)
        .then(([row]) => row?.total ?? 0),
  ]);
  if (known === undefined) rememberTotal(key, total);
  return { items, total, page: window.page, pageSize: window.pageSize };
}

export type PositionQuery = {
  south?: number;
  west?: number;
  north?: number;
  east?: number;
  status?: 'ONLINE' | 'OFFLINE';
  tags?: string[];
  search?: string;
  limit: number;
};

/** Wraps a longitude of a map that panned around the world into -180..180. */
function wrapLongitude(value: number): number {
  return ((((value + 180) % 360) + 360) % 360) - 180;
}

function boxCondition(query: PositionQuery): SQL | undefined {
  const { south, west, north, east } = query;
  if (south === undefined || west === undefined || north === undefined || east === undefined)
    return undefined;
  const latitudes = and(gte(devices.latitude, south), lte(devices.latitude, north));
  if (east - west >= 360) return latitudes;
  const from = wrapLongitude(west);
  const to = wrapLongitude(east);
  const longitudes =
    from <= to
      ? and(gte(devices.longitude, from), lte(devices.longitude, to))
      : or(gte(devices.longitude, from), lte(devices.longitude, to));
  return and(latitudes, longitudes);
}

/** The positioned devices inside a bounding box, at most `limit` (one more is read to tell it was cut). */
export async function positionsOfDevices(db: Db, organizationId: string, query: PositionQuery) {
  const rows = await db
    .select({
      id: devices.id,
      label: devices.label,
      alias: devices.alias,
      status: devices.status,
      latitude: devices.latitude,
      longitude: devices.longitude,
    })
    .from(devices)
    .where(
      and(
        matching(organizationId, {
          search: query.search,
          status: query.status,
          tags: query.tags,
          positioned: true,
        }),
        boxCondition(query),
      ),
    )
    // No order: a map needs no order, and without one the scan stops as soon as it has enough.
    .limit(query.limit + 1);
  const truncated = rows.length > query.limit;
  const items = rows
    .slice(0, query.limit)
    .flatMap((row) =>
      row.latitude === null || row.longitude === null
        ? []
        : [{ ...row, latitude: row.latitude, longitude: row.longitude }],
    );
  return { items, truncated };
}

/** The distinct labelling tags of the organization's devices with their device counts, the first `limit` by name. */
export async function tagCounts(db: Db, organizationId: string, limit: number) {
  const result = await db.execute(sql`
    select tag, count(*)::int as devices
    from ${devices}, jsonb_array_elements_text(${devices.tags}) as tag
    where ${devices.organizationId} = ${organizationId}
    group by tag order by tag limit ${limit + 1}`);
  const rows = (result as unknown as { rows: { tag: string; devices: number }[] }).rows;
  return { items: rows.slice(0, limit), truncated: rows.length > limit };
}

export async function findDevice(db: Db, organizationId: string, id: string): Promise<DeviceRow | undefined> {
  const [row] = await db
    .select()
    .from(devices)
    .where(and(eq(devices.organizationId, organizationId), eq(devices.id, id)));
  return row;
}

export async function findDeviceByLabel(
  db: Db,
  organizationId: string,
  label: string,
): Promise<DeviceRow | undefined> {
  const [row] = await db
    .select()
    .from(devices)
    .where(and(eq(devices.organizationId, organizationId), eq(devices.label, label)));
  return row;
}

/** Whether another device of the organization already carries `label`. */
export async function labelTaken(db: Db, organizationId: string, label: string, exceptId?: string) {
  const [row] = await db
    .select({ id: devices.id })
    .from(devices)
    .where(
      and(
        eq(devices.organizationId, organizationId),
        eq(devices.label, label),
        exceptId ? ne(devices.id, exceptId) : undefined,
      ),
    );
  return row !== undefined;
}

/** Whether another device of the organization already carries `alias`. */
export async function aliasTaken(db: Db, organizationId: string, alias: string, exceptId: string) {
  const [row] = await db
    .select({ id: devices.id })
    .from(devices)
    .where(
      and(eq(devices.organizationId, organizationId), eq(devices.alias, alias), ne(devices.id, exceptId)),
    );
  return row !== undefined;
}

export type DeviceChanges = Partial<
  Pick<DeviceRow, 'label' | 'alias' | 'description' | 'tags' | 'latitude' | 'longitude' | 'serviceClientId'>
>;

export async function updateDevice(
  db: Db,
  organizationId: string,
  id: string,
  changes: DeviceChanges,
): Promise<DeviceRow | undefined> {
  const [row] = await db
    .update(devices)
    .set(changes)
    .where(and(eq(devices.organizationId, organizationId), eq(devices.id, id)))
    .returning();
  return row;
}

/** Moves the device into another organization; its security-policy assignments (of the old one) are dropped. */
export async function moveDevice(db: Db, id: string, fromOrganizationId: string, toOrganizationId: string) {
  await db.delete(deviceSecurityPolicies).where(eq(deviceSecurityPolicies.deviceId, id));
  const [row] = await db
    .update(devices)
    .set({ organizationId: toOrganizationId })
    .where(and(eq(devices.id, id), eq(devices.organizationId, fromOrganizationId)))
    .returning();
  return row;
}

/** The devices of the organization among `ids` (id, label, tags): what a bulk action may touch. */
export async function devicesAmong(db: Db, organizationId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: devices.id, label: devices.label, tags: devices.tags })
    .from(devices)
    .where(and(eq(devices.organizationId, organizationId), inArray(devices.id, ids)));
}

export async function setTags(db: Db, organizationId: string, id: string, tags: string[]) {
  await db
    .update(devices)
    .set({ tags })
    .where(and(eq(devices.organizationId, organizationId), eq(devices.id, id)));
}

/**
 * Adds the devices to the group (inside the bulk action's transaction; the device-groups area checks the group);
 * answers the ids that were not members before.
 */
export async function addGroupMembers(db: Db, groupId: string, deviceIds: string[]): Promise<string[]> {
  if (deviceIds.length === 0) return [];
  const added = await db
    .insert(deviceGroupMembers)
    .values(deviceIds.map((deviceId) => ({ groupId, deviceId })))
    .onConflictDoNothing()
    .returning({ deviceId: deviceGroupMembers.deviceId });
  return added.map((row) => row.deviceId);
}

/** Deletes devices of the organization with their stored values (telemetry has no foreign key). */
export async function deleteDevices(db: Db, organizationId: string, ids: string[]): Promise<void> {
  for (const id of ids) await deleteDeviceData(db, id);
  await db.delete(devices).where(and(eq(devices.organizationId, organizationId), inArray(devices.id, ids)));
}
