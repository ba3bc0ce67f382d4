import { and, asc, eq, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { dashboardUserPreferences } from '../../../db/schema.ts';

export type PreferenceRow = typeof dashboardUserPreferences.$inferSelect;

function mine(userId: string, dashboardId: string, key: string | undefined): SQL | undefined {
  return and(
    eq(dashboardUserPreferences.userId, userId),
    eq(dashboardUserPreferences.dashboardId, dashboardId),
    key === undefined ? undefined : eq(dashboardUserPreferences.key, key),
  );
}

export async function preferencesOf(
  db: Db,
  userId: string,
  dashboardId: string,
  key: string | undefined,
): Promise<PreferenceRow[]> {
  return db
    .select()
    .from(dashboardUserPreferences)
    .where(mine(userId, dashboardId, key))
    .orderBy(asc(dashboardUserPreferences.key));
}

export async function upsertPreference(
  db: Db,
  input: { organizationId: string; userId: string; dashboardId: string; key: string; value: unknown },
): Promise<PreferenceRow> {
  const updatedAt = new Date();
  const [row] = await db
    .insert(dashboardUserPreferences)
    .values({ ...input, updatedAt })
    .onConflictDoUpdate({
      target: [
        dashboardUserPreferences.userId,
        dashboardUserPreferences.dashboardId,
        dashboardUserPreferences.key,
      ],
      set: { value: input.value, updatedAt },
    })
    .returning();
  if (!row) throw new Error('upsert returned no row');
  return row;
}

export async function deletePreferences(
  db: Db,
  userId: string,
  dashboardId: string,
  key: string | undefined,
): Promise<number> {
  const removed = await db
    .delete(dashboardUserPreferences)
    .where(mine(userId, dashboardId, key))
    .returning({ key: dashboardUserPreferences.key });
  return removed.length;
}
