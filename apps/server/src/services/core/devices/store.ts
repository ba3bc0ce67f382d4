import type { common } from '@edgeport/contract';
import { and, count, eq, ilike, ne, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { containsPattern, orderOf, pageWindow } from '../../../db/paging.ts';
import { deviceSecurityPolicies, devices } from '../../../db/schema.ts';

export type DeviceRow = typeof devices.$inferSelect;

const SORT_COLUMNS = {
  label: devices.label,
  alias: devices.alias,
  serialNumber: devices.serialNumber,
  status: devices.status,
  createdAt: devices.createdAt,
};

function matching(organizationId: string, search: string | undefined): SQL | undefined {
  const inOrg = eq(devices.organizationId, organizationId);
  if (!search?.trim()) return inOrg;
  const pattern = containsPattern(search);
  return and(
    inOrg,
    or(ilike(devices.label, pattern), ilike(devices.alias, pattern), ilike(devices.serialNumber, pattern)),
  );
}

export async function pageOfDevices(db: Db, organizationId: string, query: common.PageQuery) {
  const window = pageWindow(query);
  const where = matching(organizationId, query.search);
  const order = orderOf(query, SORT_COLUMNS, 'label', devices.id);
  const [items, [total]] = await Promise.all([
    db
      .select()
      .from(devices)
      .where(where)
      .orderBy(...order)
      .offset(window.offset)
      .limit(window.pageSize),
    db.select({ total: count() }).from(devices).where(where),
  ]);
  return { items, total: total?.total ?? 0, page: window.page, pageSize: window.pageSize };
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

export async function updateDevice(
  db: Db,
  organizationId: string,
  id: string,
  changes: Partial<Pick<DeviceRow, 'label' | 'alias' | 'description' | 'tags'>>,
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
