import type { limits } from '@edgeport/contract';
import { and, count, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import {
  devices,
  groupMembers,
  groupRoles,
  limitUsage,
  memberships,
  organizationLimits,
  roles,
  type StoredPermission,
  userRoles,
} from '../../db/schema.ts';

export type StoredLimits = Partial<Record<limits.LimitKey, number | null>>;
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

/**
 * The permission entries a user holds in an organization only through its ancestors: those carrying INHERIT of the
 * roles they hold (directly, through groups, as a group member) in the strict ancestors they are members of.
 */
export async function inheritedEntries(
  db: Db,
  userId: string,
  ancestorIds: string[],
): Promise<StoredPermission[]> {
  if (ancestorIds.length === 0) return [];
  const memberOf = db
    .select({ id: memberships.organizationId })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), inArray(memberships.organizationId, ancestorIds)));
  const direct = db.select({ id: userRoles.roleId }).from(userRoles).where(eq(userRoles.userId, userId));
  const viaGroups = db
    .select({ id: groupRoles.roleId })
    .from(groupRoles)
    .innerJoin(groupMembers, eq(groupMembers.groupId, groupRoles.groupId))
    .where(eq(groupMembers.userId, userId));
  const asMember = db
    .select({ id: groupMembers.roleId })
    .from(groupMembers)
    .where(eq(groupMembers.userId, userId));
  const held = await db
    .select({ permissions: roles.permissions })
    .from(roles)
    .where(
      and(
        inArray(roles.organizationId, memberOf),
        or(inArray(roles.id, direct), inArray(roles.id, viaGroups), inArray(roles.id, asMember)),
      ),
    );
  return held.flatMap((role) => role.permissions.filter((entry) => entry.scopes.includes('INHERIT')));
}
