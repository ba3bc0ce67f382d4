import type { Db } from '../../../db/index.ts';
import { type ResourceType, resourceJournal } from '../../../db/schema.ts';

export type UsageEntry = {
  organizationId: string;
  resourceType: ResourceType;
  /** Whole units: +1 device activated, -1 user removed, +N data points. */
  delta: number;
  /** `{area}.{verb}`: device.activated, device.deleted, user.joined, user.removed, dataPoints.ingested... */
  reason: string;
  subjectId?: string;
  at?: Date;
};

/**
 * Meters resource usage into the journal (what the consumption screens show). Call it in the same transaction as
 * the change it counts, so the journal never disagrees with what happened.
 */
export async function recordUsage(db: Db, entry: UsageEntry): Promise<void> {
  if (!Number.isSafeInteger(entry.delta))
    throw new Error(`usage delta must be a whole number, got ${entry.delta}`);
  if (entry.delta === 0) return;
  await db.insert(resourceJournal).values({
    organizationId: entry.organizationId,
    resourceType: entry.resourceType,
    delta: entry.delta,
    reason: entry.reason,
    subjectId: entry.subjectId ?? null,
    ...(entry.at && { at: entry.at }),
  });
}
