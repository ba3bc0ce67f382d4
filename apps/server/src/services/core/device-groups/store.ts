import type { common } from '@edgeport/contract';
import { and, asc, count, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { containsPattern, fetchPage, orderOf, pageWindow } from '../../../db/paging.ts';
import { deviceGroupMembers, deviceGroups, devices } from '../../../db/schema.ts';

export type GroupRow = typeof deviceGroups.$inferSelect;
export type GroupWithCount = GroupRow & { deviceCount: number };

const SORT_COLUMNS = { name: deviceGroups.name, createdAt: deviceGroups.createdAt };
const MEMBER_SORT_COLUMNS = {
  label: devices.label,
  alias: devices.alias,
  serialNumber: devices.serialNumber,
  status: devices.status,
};

// A correlated count, spelled out in SQL because Drizzle leaves columns of a one-table select unqualified.
const columns = {
  id: deviceGroups.id,
  organizationId: deviceGroups.organizationId,
  name: deviceGroups.name,
  description: deviceGroups.description,
  createdAt: deviceGroups.createdAt,
  deviceCount:
    sql<number>`(select count(*) from device_group_members m where m.group_id = "device_groups"."id")`
      .mapWith(Number)
      .as('device_count'),
};

function matching(organizationId: string, search: string | undefined): SQL | undefined {
  const inOrg = eq(deviceGroups.organizationId, organizationId);
  if (!search?.trim()) return inOrg;
  const pattern = containsPattern(search);
  return and(inOrg, or(ilike(deviceGroups.name, pattern), ilike(deviceGroups.description, pattern)));
}

export async function pageOfGroups(db: Db, organizationId: string, query: common.PageQuery) {
  const window = pageWindow(query);
  const where = matching(organizationId, query.search);
  const order = orderOf(query, SORT_COLUMNS, 'name', deviceGroups.id);
  return fetchPage(
    window,
    db
      .select(columns)
      .from(deviceGroups)
      .where(where)
      .orderBy(...order)
      .offset(window.offset)
      .limit(window.pageSize),
    db.select({ total: count() }).from(deviceGroups).where(where),
  );
}

export async function findGroup(
  db: Db,
  organizationId: string,
  id: string,
): Promise<GroupWithCount | undefined> {
  const [row] = await db
    .select(columns)
    .from(deviceGroups)
    .where(and(eq(deviceGroups.organizationId, organizationId), eq(deviceGroups.id, id)));
  return row;
}

export async function nameTaken(db: Db, organizationId: string, name: string, exceptId?: string) {
  const [row] = await db
    .select({ id: deviceGroups.id })
    .from(deviceGroups)
    .where(and(eq(deviceGroups.organizationId, organizationId), eq(deviceGroups.name, name)));
  return row !== undefined && row.id !== exceptId;
}

export async function insertGroup(
  db: Db,
  values: { organizationId: string; name: string; description: string },
): Promise<GroupRow> {
  const [row] = await db.insert(deviceGroups).values(values).returning();
  if (!row) throw new Error('device group insert returned nothing');
  return row;
}

export async function updateGroup(
  db: Db,
  organizationId: string,
  id: string,
  changes: Partial<Pick<GroupRow, 'name' | 'description'>>,
): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db
    .update(deviceGroups)
    .set(changes)
    .where(and(eq(deviceGroups.organizationId, organizationId), eq(deviceGroups.id, id)));
}

export async function deleteGroup(db: Db, organizationId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(deviceGroups)
    .where(and(eq(deviceGroups.organizationId, organizationId), eq(deviceGroups.id, id)))
    .returning({ id: deviceGroups.id });
  return rows.length > 0;
}

/** A page of the group's devices (the group is known to be of the organization). */
export async function pageOfMembers(db: Db, groupId: string, query: common.PageQuery) {
  const window = pageWindow(query);
  const conditions: (SQL | undefined)[] = [eq(deviceGroupMembers.groupId, groupId)];
  if (query.search?.trim()) {
    const pattern = containsPattern(query.search);
    conditions.push(
      or(ilike(devices.label, pattern), ilike(devices.alias, pattern), ilike(devices.serialNumber, pattern)),
    );
  }
  const where = and(...conditions);
  const order = orderOf(query, MEMBER_SORT_COLUMNS, 'label', devices.id);
  return fetchPage(
    window,
    db
      .select({
        id: devices.id,
        label: devices.label,
        alias: devices.alias,
        serialNumber: devices.serialNumber,
        status: devices.status,
        tags: devices.tags,
      })
      .from(deviceGroupMembers)
      .innerJoin(devices, eq(devices.id, deviceGroupMembers.deviceId))
      .where(where)
      .orderBy(...order)
      .offset(window.offset)
      .limit(window.pageSize),
    db
      .select({ total: count() })
      .from(deviceGroupMembers)
      .innerJoin(devices, eq(devices.id, deviceGroupMembers.deviceId))
      .where(where),
  );
}

/** Of `ids`, the devices of the organization (id and label). */
export async function devicesOfOrganization(db: Db, organizationId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: devices.id, label: devices.label })
    .from(devices)
    .where(and(eq(devices.organizationId, organizationId), inArray(devices.id, ids)))
    .orderBy(asc(devices.label));
}

/** Adds the devices to the group; answers the ids that were not members before. */
export async function addMembers(db: Db, groupId: string, deviceIds: string[]): Promise<string[]> {
  if (deviceIds.length === 0) return [];
  const rows = await db
    .insert(deviceGroupMembers)
    .values(deviceIds.map((deviceId) => ({ groupId, deviceId })))
    .onConflictDoNothing()
    .returning({ deviceId: deviceGroupMembers.deviceId });
  return rows.map((row) => row.deviceId);
}

/** Removes the devices from the group; answers the ids that were members. */
export async function removeMembers(db: Db, groupId: string, deviceIds: string[]): Promise<string[]> {
  if (deviceIds.length === 0) return [];
  const rows = await db
    .delete(deviceGroupMembers)
    .where(and(eq(deviceGroupMembers.groupId, groupId), inArray(deviceGroupMembers.deviceId, deviceIds)))
    .returning({ deviceId: deviceGroupMembers.deviceId });
  return rows.map((row) => row.deviceId);
}

/** Which groups of the organization the devices are in, ordered by group name. */
export async function groupsOfDevices(db: Db, organizationId: string, deviceIds: string[]) {
  if (deviceIds.length === 0) return [];
  return db
    .select({ deviceId: deviceGroupMembers.deviceId, id: deviceGroups.id, name: deviceGroups.name })
    .from(deviceGroupMembers)
    .innerJoin(deviceGroups, eq(deviceGroups.id, deviceGroupMembers.groupId))
    .where(
      and(eq(deviceGroups.organizationId, organizationId), inArray(deviceGroupMembers.deviceId, deviceIds)),
    )
    .orderBy(asc(deviceGroups.name), asc(deviceGroups.id));
}

/** The labelling tags of each device of the group. */
export async function tagListsOfMembers(db: Db, groupId: string): Promise<string[][]> {
  const rows = await db
    .select({ tags: devices.tags })
    .from(deviceGroupMembers)
    .innerJoin(devices, eq(devices.id, deviceGroupMembers.deviceId))
    .where(eq(deviceGroupMembers.groupId, groupId));
  return rows.map((row) => row.tags);
}
