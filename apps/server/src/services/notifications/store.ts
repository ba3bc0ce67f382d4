import type { notifications } from '@edgeport/contract';
import { and, asc, count, desc, eq, inArray, isNull, lte, min, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import {
  alarmRules,
  groupMembers,
  memberships,
  notificationDeliveries,
  notificationRules,
  notificationSettings,
  organizations,
  userGroups,
  userPreferences,
  users,
} from '../../db/schema.ts';

export type RuleRow = typeof notificationRules.$inferSelect;
export type DeliveryRow = typeof notificationDeliveries.$inferSelect;
export type NewDelivery = typeof notificationDeliveries.$inferInsert;
export type SettingsRow = typeof notificationSettings.$inferSelect;

export type RuleValues = {
  name: string;
  enabled: boolean;
  language: string | null;
  source: notifications.NotificationSource;
  recipients: notifications.Recipients;
};

export type OrganizationRef = { id: string; name: string; realm: string };

export async function findOrganization(db: Db, id: string): Promise<OrganizationRef | undefined> {
  const [row] = await db
    .select({ id: organizations.id, name: organizations.name, realm: organizations.realm })
    .from(organizations)
    .where(eq(organizations.id, id));
  return row;
}

// Notification rules

export function rulesOf(db: Db, organizationId: string): Promise<RuleRow[]> {
  return db
    .select()
    .from(notificationRules)
    .where(eq(notificationRules.organizationId, organizationId))
    .orderBy(asc(notificationRules.name), asc(notificationRules.id));
}

export function enabledRulesOf(db: Db, organizationId: string): Promise<RuleRow[]> {
  return db
    .select()
    .from(notificationRules)
    .where(and(eq(notificationRules.organizationId, organizationId), eq(notificationRules.enabled, true)))
    .orderBy(asc(notificationRules.name));
}

export async function findRule(db: Db, organizationId: string, id: string): Promise<RuleRow | undefined> {
  const [row] = await db
    .select()
    .from(notificationRules)
    .where(and(eq(notificationRules.organizationId, organizationId), eq(notificationRules.id, id)));
  return row;
}

export async function findRuleByName(db: Db, organizationId: string, name: string) {
  const [row] = await db
    .select({ id: notificationRules.id })
    .from(notificationRules)
    .where(and(eq(notificationRules.organizationId, organizationId), eq(notificationRules.name, name)));
  return row;
}

export async function insertRule(db: Db, organizationId: string, values: RuleValues): Promise<RuleRow> {
  const [row] = await db
    .insert(notificationRules)
    .values({ organizationId, ...values })
    .returning();
  if (!row) throw new Error('notification rule insert returned nothing');
  return row;
}

export async function updateRule(
  db: Db,
  organizationId: string,
  id: string,
  values: RuleValues,
): Promise<RuleRow | undefined> {
  const [row] = await db
    .update(notificationRules)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(notificationRules.organizationId, organizationId), eq(notificationRules.id, id)))
    .returning();
  return row;
}

export async function deleteRule(db: Db, organizationId: string, id: string): Promise<boolean> {
  const deleted = await db
    .delete(notificationRules)
    .where(and(eq(notificationRules.organizationId, organizationId), eq(notificationRules.id, id)))
    .returning({ id: notificationRules.id });
  return deleted.length > 0;
}

// References a rule makes (all must belong to the organization)

export async function membersAmong(db: Db, organizationId: string, userIds: string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .select({ id: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), inArray(memberships.userId, userIds)));
  return new Set(rows.map((row) => row.id));
}

export async function groupsAmong(db: Db, organizationId: string, groupIds: string[]): Promise<Set<string>> {
  if (groupIds.length === 0) return new Set();
  const rows = await db
    .select({ id: userGroups.id })
    .from(userGroups)
    .where(and(eq(userGroups.organizationId, organizationId), inArray(userGroups.id, groupIds)));
  return new Set(rows.map((row) => row.id));
}

export async function alarmRulesAmong(db: Db, organizationId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: alarmRules.id })
    .from(alarmRules)
    .where(and(eq(alarmRules.organizationId, organizationId), inArray(alarmRules.id, ids)));
  return new Set(rows.map((row) => row.id));
}

export type RecipientUser = { id: string; email: string; locale: string | null };

/**
 * The enabled accounts a rule reaches: the listed users that are (still) members of the organization, and the
 * members of the listed groups of the organization.
 */
export async function recipientUsers(
  db: Db,
  organizationId: string,
  userIds: string[],
  groupIds: string[],
): Promise<RecipientUser[]> {
  const found = new Map<string, RecipientUser>();
  const columns = { id: users.id, email: users.email, locale: users.locale };
  if (userIds.length > 0) {
    const rows = await db
      .select(columns)
      .from(users)
      .innerJoin(memberships, eq(memberships.userId, users.id))
      .where(
        and(
          eq(memberships.organizationId, organizationId),
          inArray(users.id, userIds),
          eq(users.enabled, true),
        ),
      );
    for (const row of rows) found.set(row.id, row);
  }
  if (groupIds.length > 0) {
    const rows = await db
      .select(columns)
      .from(groupMembers)
      .innerJoin(userGroups, eq(userGroups.id, groupMembers.groupId))
      .innerJoin(users, eq(users.id, groupMembers.userId))
      .where(
        and(
          eq(userGroups.organizationId, organizationId),
          inArray(userGroups.id, groupIds),
          eq(users.enabled, true),
        ),
      );
    for (const row of rows) found.set(row.id, row);
  }
  return [...found.values()];
}

/** The portal locale preference (`portal` / `locale`) of each user that saved one. */
export async function localePreferences(db: Db, userIds: string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ userId: userPreferences.userId, value: userPreferences.value1 })
    .from(userPreferences)
    .where(
      and(
        inArray(userPreferences.userId, userIds),
        eq(userPreferences.serviceName, 'portal'),
        eq(userPreferences.property, 'locale'),
      ),
    );
  return new Map(rows.map((row) => [row.userId, row.value]));
}

// Deliveries

export async function insertDeliveries(db: Db, rows: NewDelivery[]): Promise<DeliveryRow[]> {
  if (rows.length === 0) return [];
  return db.insert(notificationDeliveries).values(rows).returning();
}

export type DeliveryFilter = {
  status?: DeliveryRow['status'];
  channel?: DeliveryRow['channel'];
  page: number;
  pageSize: number;
};

export async function listDeliveries(
  db: Db,
  organizationId: string,
  filter: DeliveryFilter,
): Promise<{ rows: DeliveryRow[]; total: number }> {
  const conditions: SQL[] = [eq(notificationDeliveries.organizationId, organizationId)];
  if (filter.status) conditions.push(eq(notificationDeliveries.status, filter.status));
  if (filter.channel) conditions.push(eq(notificationDeliveries.channel, filter.channel));
  const where = and(...conditions);
  const rows = await db
    .select()
    .from(notificationDeliveries)
    .where(where)
    .orderBy(desc(notificationDeliveries.createdAt), desc(notificationDeliveries.id))
    .limit(filter.pageSize)
    .offset(filter.page * filter.pageSize);
  const [total] = await db.select({ value: count() }).from(notificationDeliveries).where(where);
  return { rows, total: total?.value ?? 0 };
}

export async function findDelivery(
  db: Db,
  organizationId: string,
  id: string,
): Promise<DeliveryRow | undefined> {
  const [row] = await db
    .select()
    .from(notificationDeliveries)
    .where(and(eq(notificationDeliveries.organizationId, organizationId), eq(notificationDeliveries.id, id)));
  return row;
}

/** A FAILED delivery starts over: no attempts, PENDING, due now. Undefined when it is not FAILED (any more). */
export async function restartDelivery(
  db: Db,
  organizationId: string,
  id: string,
  now: Date,
): Promise<DeliveryRow | undefined> {
  const [row] = await db
    .update(notificationDeliveries)
    .set({ status: 'PENDING', attempts: 0, nextAttemptAt: now, lastError: null, sentAt: null })
    .where(
      and(
        eq(notificationDeliveries.organizationId, organizationId),
        eq(notificationDeliveries.id, id),
        eq(notificationDeliveries.status, 'FAILED'),
      ),
    )
    .returning();
  return row;
}

const isDue = (now: Date) =>
  and(
    eq(notificationDeliveries.status, 'PENDING'),
    or(isNull(notificationDeliveries.nextAttemptAt), lte(notificationDeliveries.nextAttemptAt, now)),
  );

/**
 * Takes up to `limit` due PENDING deliveries for one attempt each: their next attempt moves to `leaseUntil`, so that
 * no other worker takes them meanwhile and one whose worker died is taken again once the lease ran out.
 */
export async function claimDue(db: Db, now: Date, leaseUntil: Date, limit: number): Promise<DeliveryRow[]> {
  const due = db
    .select({ id: notificationDeliveries.id })
    .from(notificationDeliveries)
    .where(isDue(now))
    .orderBy(asc(notificationDeliveries.nextAttemptAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(notificationDeliveries)
    .set({ nextAttemptAt: leaseUntil })
    .where(and(inArray(notificationDeliveries.id, due), isDue(now)))
    .returning();
}

/** When the next PENDING delivery is due (undefined: none is pending). */
export async function nextDue(db: Db): Promise<Date | undefined> {
  const [row] = await db
    .select({ at: min(notificationDeliveries.nextAttemptAt) })
    .from(notificationDeliveries)
    .where(eq(notificationDeliveries.status, 'PENDING'));
  return row?.at ?? undefined;
}

export type AttemptOutcome =
  | { status: 'SENT'; attempts: number; at: Date }
  | { status: 'PENDING'; attempts: number; error: string; nextAttemptAt: Date }
  | { status: 'FAILED'; attempts: number; error: string };

export async function recordAttempt(db: Db, id: string, outcome: AttemptOutcome): Promise<void> {
  const values =
    outcome.status === 'SENT'
      ? {
          status: outcome.status,
          attempts: outcome.attempts,
          sentAt: outcome.at,
          nextAttemptAt: null,
          lastError: null,
        }
      : outcome.status === 'PENDING'
        ? {
            status: outcome.status,
            attempts: outcome.attempts,
            nextAttemptAt: outcome.nextAttemptAt,
            lastError: outcome.error,
          }
        : {
            status: outcome.status,
            attempts: outcome.attempts,
            nextAttemptAt: null,
            lastError: outcome.error,
          };
  await db.update(notificationDeliveries).set(values).where(eq(notificationDeliveries.id, id));
}

// Channel settings

export async function findSettings(db: Db, organizationId: string): Promise<SettingsRow | undefined> {
  const [row] = await db
    .select()
    .from(notificationSettings)
    .where(eq(notificationSettings.organizationId, organizationId));
  return row;
}

export type SettingsValues = Partial<
  Pick<SettingsRow, 'sender' | 'webhookSecret' | 'quietHours' | 'allowedWebhookHosts'>
>;

export async function saveSettings(
  db: Db,
  organizationId: string,
  values: SettingsValues,
): Promise<SettingsRow> {
  const updatedAt = new Date();
  const [row] = await db
    .insert(notificationSettings)
    .values({ organizationId, ...values, updatedAt })
    .onConflictDoUpdate({ target: notificationSettings.organizationId, set: { ...values, updatedAt } })
    .returning();
  if (!row) throw new Error('notification settings upsert returned nothing');
  return row;
}
