import { and, eq } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import {
  type DeviceStatus,
  deviceGroupMembers,
  deviceGroups,
  deviceStatusHistory,
  devices,
} from '../../../db/schema.ts';

export type NewDevice = {
  alias?: string | null;
  serialNumber?: string;
  description?: string;
  tags?: string[];
  status?: DeviceStatus;
  presetId?: string | null;
  configuration?: Record<string, unknown>;
  latitude?: number | null;
  longitude?: number | null;
  lastSeenAt?: Date | null;
};

/** A device of the organization, for fixtures, tests and the demo (the device activation flow comes later). */
export async function createDevice(db: Db, organizationId: string, label: string, extra: NewDevice = {}) {
  const [row] = await db
    .insert(devices)
    .values({ organizationId, label, ...extra })
    .returning();
  if (!row) throw new Error('device insert returned nothing');
  return row;
}

/** Fixtures: puts the device into the organization's group of that name (made when missing). */
export async function addToGroupNamed(db: Db, organizationId: string, deviceId: string, name: string) {
  const [existing] = await db
    .select({ id: deviceGroups.id })
    .from(deviceGroups)
    .where(and(eq(deviceGroups.organizationId, organizationId), eq(deviceGroups.name, name)));
  const group =
    existing ??
    (await db.insert(deviceGroups).values({ organizationId, name }).returning({ id: deviceGroups.id }))[0];
  if (!group) throw new Error('device group insert returned nothing');
  await db.insert(deviceGroupMembers).values({ groupId: group.id, deviceId }).onConflictDoNothing();
}

/** Fixtures: connection history entries of a device. */
export async function recordStatusHistory(
  db: Db,
  deviceId: string,
  changes: { status: DeviceStatus; at: Date; detail?: string }[],
) {
  if (changes.length === 0) return;
  await db.insert(deviceStatusHistory).values(
    changes.map((change) => ({
      deviceId,
      status: change.status,
      at: change.at,
      detail: change.detail ?? '',
    })),
  );
}
