import type { common, platform } from '@edgeport/contract';
import { and, asc, count, desc, eq, gte, ilike, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { containsPattern, fetchPage, orderOf, pageWindow } from '../../../db/paging.ts';
import {
  deviceDataTags,
  deviceIngestStats,
  deviceStatusHistory,
  devices,
  presets,
} from '../../../db/schema.ts';

export type DeviceRow = typeof devices.$inferSelect;
export type DeviceWithPreset = DeviceRow & { presetName: string | null };

const SORT_COLUMNS = {
  label: devices.label,
  alias: devices.alias,
  serialNumber: devices.serialNumber,
  status: devices.status,
  createdAt: devices.createdAt,
  lastSeenAt: devices.lastSeenAt,
};

/** Devices carrying the labelling tags: at least one of them (any) or every one (all). */
function taggedWith(tags: string[], match: 'any' | 'all'): SQL | undefined {
  if (match === 'all') return sql`${devices.tags} @> ${JSON.stringify(tags)}::jsonb`;
  return or(...tags.map((tag) => sql`${devices.tags} @> ${JSON.stringify([tag])}::jsonb`));
}

function searching(search: string | undefined): SQL | undefined {
  if (!search?.trim()) return undefined;
  const pattern = containsPattern(search);
  return or(
    ilike(devices.label, pattern),
    ilike(devices.alias, pattern),
    ilike(devices.serialNumber, pattern),
  );
}

async function pageWhere(db: Db, where: SQL | undefined, query: common.PageQuery) {
  const window = pageWindow(query);
  const order = orderOf(query, SORT_COLUMNS, 'label', devices.id);
  const page = await fetchPage(
    window,
    db
      .select({ device: devices, presetName: presets.name })
      .from(devices)
      .leftJoin(presets, eq(presets.id, devices.presetId))
      .where(where)
      .orderBy(...order)
      .offset(window.offset)
      .limit(window.pageSize),
    db.select({ total: count() }).from(devices).where(where),
  );
  return {
    ...page,
    items: page.items.map((row): DeviceWithPreset => ({ ...row.device, presetName: row.presetName })),
  };
}

/** A page of the organization's devices, filtered by search, status and one tag. */
export async function pageOfDevices(db: Db, organizationId: string, query: platform.DeviceListQuery) {
  return pageWhere(
    db,
    and(
      eq(devices.organizationId, organizationId),
      searching(query.search),
      query.status ? eq(devices.status, query.status) : undefined,
      query.tag ? taggedWith([query.tag], 'all') : undefined,
    ),
    query,
  );
}

/** A page of the organization's devices carrying any or all of the labelling tags. */
export async function pageByTags(
  db: Db,
  organizationId: string,
  tags: string[],
  match: 'any' | 'all',
  query: common.PageQuery,
) {
  return pageWhere(
    db,
    and(eq(devices.organizationId, organizationId), taggedWith(tags, match), searching(query.search)),
    query,
  );
}

export async function findDevice(
  db: Db,
  organizationId: string,
  id: string,
): Promise<DeviceWithPreset | undefined> {
  return findOne(db, and(eq(devices.organizationId, organizationId), eq(devices.id, id)));
}

export async function findDeviceByLabel(db: Db, organizationId: string, label: string) {
  return findOne(db, and(eq(devices.organizationId, organizationId), eq(devices.label, label)));
}

export async function findDeviceByAlias(db: Db, organizationId: string, alias: string) {
  return findOne(db, and(eq(devices.organizationId, organizationId), eq(devices.alias, alias)));
}

async function findOne(db: Db, where: SQL | undefined): Promise<DeviceWithPreset | undefined> {
  const [row] = await db
    .select({ device: devices, presetName: presets.name })
    .from(devices)
    .leftJoin(presets, eq(presets.id, devices.presetId))
    .where(where);
  return row ? { ...row.device, presetName: row.presetName } : undefined;
}

export async function setTags(
  db: Db,
  organizationId: string,
  id: string,
  tags: string[],
): Promise<DeviceRow | undefined> {
  const [row] = await db
    .update(devices)
    .set({ tags })
    .where(and(eq(devices.organizationId, organizationId), eq(devices.id, id)))
    .returning();
  return row;
}

/** The preset's mappings (tag -> model path) and configuration; empty when the device has none. */
export async function presetOf(db: Db, presetId: string | null) {
  if (!presetId) return undefined;
  const [row] = await db
    .select({ id: presets.id, mappings: presets.mappings, deviceConfiguration: presets.deviceConfiguration })
    .from(presets)
    .where(eq(presets.id, presetId));
  return row;
}

export async function dataTagsOf(db: Db, deviceId: string) {
  return db
    .select({ name: deviceDataTags.name, type: deviceDataTags.type, lastSeenAt: deviceDataTags.lastSeenAt })
    .from(deviceDataTags)
    .where(eq(deviceDataTags.deviceId, deviceId))
    .orderBy(asc(deviceDataTags.name));
}

/** Status changes of the device between `since` and `to`, newest first, at most `limit`. */
export async function statusHistory(
  db: Db,
  deviceId: string,
  window: { since?: Date; to?: Date; limit: number },
) {
  return db
    .select({
      status: deviceStatusHistory.status,
      detail: deviceStatusHistory.detail,
      at: deviceStatusHistory.at,
    })
    .from(deviceStatusHistory)
    .where(
      and(
        eq(deviceStatusHistory.deviceId, deviceId),
        window.since ? gte(deviceStatusHistory.at, window.since) : undefined,
        window.to ? lte(deviceStatusHistory.at, window.to) : undefined,
      ),
    )
    .orderBy(desc(deviceStatusHistory.at), desc(deviceStatusHistory.id))
    .limit(window.limit);
}

export async function ingestStatsOf(db: Db, deviceId: string) {
  const [row] = await db.select().from(deviceIngestStats).where(eq(deviceIngestStats.deviceId, deviceId));
  return row;
}
