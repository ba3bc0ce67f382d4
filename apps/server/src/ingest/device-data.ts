import { eq } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { telemetry, telemetryBlocks, telemetryRollups } from '../db/schema.ts';

/**
 * Deletes a device's stored values (rows and blocks) and their rollups. Telemetry has no foreign key (for ingest speed), so deleting a device must call
 * this in the same transaction; every other device-data table cascades.
 */
export async function deleteDeviceData(db: Db, deviceId: string): Promise<void> {
  await db.delete(telemetry).where(eq(telemetry.deviceId, deviceId));
  await db.delete(telemetryBlocks).where(eq(telemetryBlocks.deviceId, deviceId));
  await db.delete(telemetryRollups).where(eq(telemetryRollups.deviceId, deviceId));
}
