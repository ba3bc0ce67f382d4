import type { limits } from '@edgeport/contract';
import { and, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { devices, limitUsage, memberships, organizationLimits } from '../../db/schema.ts';

export type StoredLimits = Partial<Record<limits.StoredLimitKey, number | null>>;
export type LimitsRow = typeof organizationLimits.$inferSelect;
export type DailyKey = 'dataPointsPerDay' | 'notificationsPerDay';

/** The UTC day a time falls on, as stored in limit_usage ('YYYY-MM-DD'). */
export function utcDay(at: number = Date.now()): string {
  return new Date(at).toISOString().slice(0, 10);
}

export async function findLimits(db: Db, organizationId: string): Promise<LimitsRow | undefined> {
  const [row] = await db
    .select()
    .from(organizationLimits)
    .where(eq(organizationLimits.organizationId, organizationId));
  return row;
}

/** Inserts the organization's limits; undefined when it had some already. */
export async function insertLimits(
  db: Db,
  organizationId: string,
  values: StoredLimits,
): Promise<LimitsRow | undefined> {
  const [row] = await db
    .insert(organizationLimits)
    .values({ organizationId, limits: values })
    .onConflictDoNothing()
    .returning();
  return row;
}

export async function upsertLimits(db: Db, organizationId: string, values: StoredLimits): Promise<LimitsRow> {
  const [row] = await db
    .insert(organizationLimits)
    .values({ organizationId, limits: values })
    .onConflictDoUpdate({
      target: organizationLimits.organizationId,
      set: { limits: values, updatedAt: new Date() },
    })
    .returning();
  if (!row) throw new Error('limits upsert returned nothing');
  return row;
}

export async function countDevices(db: Db, organizationId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(devices)
    .where(eq(devices.organizationId, organizationId));
  return row?.n ?? 0;
}

export async function countMembers(db: Db, organizationId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(memberships)
    .where(eq(memberships.organizationId, organizationId));
  return row?.n ?? 0;
}

export async function usageOfDay(
  db: Db,
  organizationId: string,
  day: string,
): Promise<{ dataPoints: number; notifications: number }> {
  const [row] = await db
    .select({ dataPoints: limitUsage.dataPoints, notifications: limitUsage.notifications })
    .from(limitUsage)
    .where(and(eq(limitUsage.organizationId, organizationId), eq(limitUsage.day, day)));
  return { dataPoints: Number(row?.dataPoints ?? 0), notifications: row?.notifications ?? 0 };
}

const dailyColumn = {
  dataPointsPerDay: limitUsage.dataPoints,
  notificationsPerDay: limitUsage.notifications,
} as const;
const dailyField = { dataPointsPerDay: 'dataPoints', notificationsPerDay: 'notifications' } as const;

/**
 * Adds `amount` to the organization's usage of the day, in one statement, unless that would go over `limit` (null:
 * no limit). Answers the new total, or undefined when refused (nothing was added).
 */
export async function addDailyUsage(
  db: Db,
  organizationId: string,
  day: string,
  key: DailyKey,
  amount: number,
  limit: number | null,
): Promise<number | undefined> {
  if (limit !== null && amount > limit) return undefined;
  const column = dailyColumn[key];
  const [row] = await db
    .insert(limitUsage)
    .values({ organizationId, day, [dailyField[key]]: amount })
    .onConflictDoUpdate({
      target: [limitUsage.organizationId, limitUsage.day],
      set: { [dailyField[key]]: sql`${column} + ${amount}` },
      ...(limit === null ? {} : { setWhere: sql`${column} + ${amount} <= ${limit}` }),
    })
    .returning({ total: column });
  return row === undefined ? undefined : Number(row.total);
}
