import { and, eq } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { userPreferences } from '../../../db/schema.ts';

export type PreferenceRow = typeof userPreferences.$inferSelect;
export type PreferenceKey = { serviceName: string; property: string };

export function preferencesOf(db: Db, userId: string): Promise<PreferenceRow[]> {
  return db
    .select()
    .from(userPreferences)
    .where(eq(userPreferences.userId, userId))
    .orderBy(userPreferences.serviceName, userPreferences.property);
}

export async function findPreference(db: Db, userId: string, key: PreferenceKey) {
  const [row] = await db
    .select()
    .from(userPreferences)
    .where(
      and(
        eq(userPreferences.userId, userId),
        eq(userPreferences.serviceName, key.serviceName),
        eq(userPreferences.property, key.property),
      ),
    );
  return row;
}

export async function savePreference(db: Db, userId: string, key: PreferenceKey, value1: string) {
  const values = { userId, ...key, value1, updatedAt: new Date() };
  const [row] = await db
    .insert(userPreferences)
    .values(values)
    .onConflictDoUpdate({
      target: [userPreferences.userId, userPreferences.serviceName, userPreferences.property],
      set: { value1, updatedAt: values.updatedAt },
    })
    .returning();
  if (!row) throw new Error('preference upsert returned nothing');
  return row;
}

export async function deletePreference(db: Db, userId: string, id: string): Promise<boolean> {
  const deleted = await db
    .delete(userPreferences)
    .where(and(eq(userPreferences.userId, userId), eq(userPreferences.id, id)))
    .returning({ id: userPreferences.id });
  return deleted.length > 0;
}
