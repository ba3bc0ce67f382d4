import { and, eq, sql } from 'drizzle-orm';
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

/**
 * Minutes of a remote-access (VPN) session, metered when the session ends or per accounting interval (issue 9 calls
 * this; nothing does yet). Whole minutes only.
 */
export async function recordVpnUsage(
  db: Db,
  organizationId: string,
  minutes: number,
  sessionId: string,
): Promise<void> {
  if (!Number.isSafeInteger(minutes) || minutes < 0)
    throw new Error(`VPN minutes must be a whole, non-negative number, got ${minutes}`);
  await recordUsage(db, {
    organizationId,
    resourceType: 'vpnMinutes',
    delta: minutes,
    reason: 'vpn.session',
    subjectId: sessionId,
  });
}

/** What a subject (a device, a user) holds of a resource in an organization now: the sum of its journal entries. */
export async function heldBy(
  db: Db,
  organizationId: string,
  resourceType: ResourceType,
  subjectId: string,
): Promise<number> {
  const [row] = await db
    .select({ value: sql<string>`coalesce(sum(${resourceJournal.delta}), 0)::text` })
    .from(resourceJournal)
    .where(
      and(
        eq(resourceJournal.organizationId, organizationId),
        eq(resourceJournal.resourceType, resourceType),
        eq(resourceJournal.subjectId, subjectId),
      ),
    );
  return Number(row?.value ?? 0);
}

/**
 * Gives back what a subject holds (a deleted device, a removed member): one entry of minus its current holding, none
 * when it holds nothing (things that existed before metering began, or were never counted, such as fixture devices).
 * Answers the delta written.
 */
export async function releaseUsage(
  db: Db,
  entry: Omit<UsageEntry, 'delta' | 'subjectId'> & { subjectId: string },
): Promise<number> {
  const held = await heldBy(db, entry.organizationId, entry.resourceType, entry.subjectId);
  if (held <= 0) return 0;
  await recordUsage(db, { ...entry, delta: -held });
  return -held;
}
