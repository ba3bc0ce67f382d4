import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { alarmRules, devices, latestValues, notificationRules, triggerRules } from '../../db/schema.ts';

export type TriggerRow = typeof triggerRules.$inferSelect;
export type NewTrigger = Omit<
  typeof triggerRules.$inferInsert,
  'id' | 'runCount' | 'lastRunAt' | 'lastError' | 'lastErrorAt' | 'createdAt' | 'updatedAt'
>;

export async function listTriggers(db: Db, organizationId: string): Promise<TriggerRow[]> {
  return db
    .select()
    .from(triggerRules)
    .where(eq(triggerRules.organizationId, organizationId))
    .orderBy(asc(triggerRules.name), asc(triggerRules.id));
}

/** Every enabled trigger rule (of one organization when given), for the engine. */
export async function enabledTriggers(db: Db, organizationId?: string): Promise<TriggerRow[]> {
  const enabled = eq(triggerRules.enabled, true);
  return db
    .select()
    .from(triggerRules)
    .where(organizationId ? and(enabled, eq(triggerRules.organizationId, organizationId)) : enabled);
}

export async function findTrigger(
  db: Db,
  organizationId: string,
  id: string,
): Promise<TriggerRow | undefined> {
  const [row] = await db
    .select()
    .from(triggerRules)
    .where(and(eq(triggerRules.organizationId, organizationId), eq(triggerRules.id, id)));
  return row;
}

export async function nameTaken(db: Db, organizationId: string, name: string, except?: string) {
  const [row] = await db
    .select({ id: triggerRules.id })
    .from(triggerRules)
    .where(and(eq(triggerRules.organizationId, organizationId), eq(triggerRules.name, name)));
  return row !== undefined && row.id !== except;
}

export async function insertTrigger(db: Db, values: NewTrigger): Promise<TriggerRow> {
  const [row] = await db.insert(triggerRules).values(values).returning();
  if (!row) throw new Error('trigger insert returned nothing');
  return row;
}

export async function updateTrigger(
  db: Db,
  organizationId: string,
  id: string,
  changes: Partial<NewTrigger>,
): Promise<TriggerRow | undefined> {
  const [row] = await db
    .update(triggerRules)
    .set({ ...changes, updatedAt: new Date() })
    .where(and(eq(triggerRules.organizationId, organizationId), eq(triggerRules.id, id)))
    .returning();
  return row;
}

export async function deleteTrigger(
  db: Db,
  organizationId: string,
  id: string,
): Promise<TriggerRow | undefined> {
  const [row] = await db
    .delete(triggerRules)
    .where(and(eq(triggerRules.organizationId, organizationId), eq(triggerRules.id, id)))
    .returning();
  return row;
}

/** Counts one run of the trigger's action; a failed run also keeps its error. */
export async function recordRun(
  db: Db,
  id: string,
  at: Date,
  error: string | null,
): Promise<TriggerRow | undefined> {
  const [row] = await db
    .update(triggerRules)
    .set({
      runCount: sql`${triggerRules.runCount} + 1`,
      lastRunAt: at,
      ...(error === null ? {} : { lastError: error.slice(0, 1000), lastErrorAt: at }),
    })
    .where(eq(triggerRules.id, id))
    .returning();
  return row;
}

export async function notificationRuleExists(db: Db, organizationId: string, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: notificationRules.id })
    .from(notificationRules)
    .where(and(eq(notificationRules.organizationId, organizationId), eq(notificationRules.id, id)));
  return row !== undefined;
}

/** The ids among `ids` that are alarm rules of the organization. */
export async function alarmRulesAmong(db: Db, organizationId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: alarmRules.id })
    .from(alarmRules)
    .where(and(eq(alarmRules.organizationId, organizationId), inArray(alarmRules.id, ids)));
  return new Set(rows.map((row) => row.id));
}

/** The last stored value of `path` per device of the organization (a gained partition's comparison results). */
export async function latestOfPath(db: Db, organizationId: string, path: string) {
  return db
    .select({ deviceId: latestValues.deviceId, value: latestValues.value })
    .from(latestValues)
    .innerJoin(devices, eq(devices.id, latestValues.deviceId))
    .where(and(eq(devices.organizationId, organizationId), eq(latestValues.path, path)));
}
