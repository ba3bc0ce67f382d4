import type { Db } from '../../../db/index.ts';
import { type DeviceStatus, devices } from '../../../db/schema.ts';

export type NewDevice = {
  alias?: string | null;
  serialNumber?: string;
  description?: string;
  tags?: string[];
  status?: DeviceStatus;
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
