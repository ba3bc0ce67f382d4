import type { common } from '@edgeport/contract';
import { and, count, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { containsPattern, fetchPage, orderOf, pageWindow } from '../../../db/paging.ts';
import {
  deviceSecurityPolicies,
  devices,
  type SecurityPolicyRules,
  securityPolicies,
  userSecurityPolicies,
} from '../../../db/schema.ts';

export type PolicyRow = typeof securityPolicies.$inferSelect;
export type PolicyWithCounts = PolicyRow & { deviceCount: number; userCount: number; childCount: number };

const SORT_COLUMNS = { name: securityPolicies.name, createdAt: securityPolicies.createdAt };

// Correlated counts; spelled out in SQL because Drizzle leaves columns of a one-table select unqualified.
const counts = {
  deviceCount:
    sql<number>`(select count(*) from device_security_policies d where d.policy_id = "security_policies"."id")`
      .mapWith(Number)
      .as('device_count'),
  userCount:
    sql<number>`(select count(*) from user_security_policies u where u.policy_id = "security_policies"."id")`
      .mapWith(Number)
      .as('user_count'),
  childCount:
    sql<number>`(select count(*) from security_policies nested where nested.parent_id = "security_policies"."id")`
      .mapWith(Number)
      .as('child_count'),
};

const columns = {
  id: securityPolicies.id,
  organizationId: securityPolicies.organizationId,
  parentId: securityPolicies.parentId,
  name: securityPolicies.name,
  description: securityPolicies.description,
  rules: securityPolicies.rules,
  createdAt: securityPolicies.createdAt,
  ...counts,
};

function matching(organizationId: string, search: string | undefined, parentId?: string): SQL | undefined {
  const conditions: (SQL | undefined)[] = [eq(securityPolicies.organizationId, organizationId)];
  if (parentId) conditions.push(eq(securityPolicies.parentId, parentId));
  if (search?.trim()) {
    const pattern = containsPattern(search);
    conditions.push(or(ilike(securityPolicies.name, pattern), ilike(securityPolicies.description, pattern)));
  }
  return and(...conditions);
}

/** A page of the organization's policies (or of the ones nested directly in `parentId`). */
export async function pageOfPolicies(
  db: Db,
  organizationId: string,
  query: common.PageQuery,
  parentId?: string,
) {
  const window = pageWindow(query);
  const where = matching(organizationId, query.search, parentId);
  const order = orderOf(query, SORT_COLUMNS, 'name', securityPolicies.id);
  return fetchPage(
    window,
    db
      .select(columns)
      .from(securityPolicies)
      .where(where)
      .orderBy(...order)
      .offset(window.offset)
      .limit(window.pageSize),
    db.select({ total: count() }).from(securityPolicies).where(where),
  );
}

export async function findPolicy(
  db: Db,
  organizationId: string,
  id: string,
): Promise<PolicyWithCounts | undefined> {
  const [row] = await db
    .select(columns)
    .from(securityPolicies)
    .where(and(eq(securityPolicies.organizationId, organizationId), eq(securityPolicies.id, id)));
  return row;
}

export async function nameTaken(db: Db, organizationId: string, name: string, exceptId?: string) {
  const [row] = await db
    .select({ id: securityPolicies.id })
    .from(securityPolicies)
    .where(and(eq(securityPolicies.organizationId, organizationId), eq(securityPolicies.name, name)));
  return row !== undefined && row.id !== exceptId;
}

export async function parentOf(
  db: Db,
  organizationId: string,
  id: string,
): Promise<string | null | undefined> {
  const [row] = await db
    .select({ parentId: securityPolicies.parentId })
    .from(securityPolicies)
    .where(and(eq(securityPolicies.organizationId, organizationId), eq(securityPolicies.id, id)));
  return row?.parentId;
}

export async function insertPolicy(
  db: Db,
  values: {
    organizationId: string;
    name: string;
    description: string;
    parentId: string | null;
    rules: SecurityPolicyRules;
  },
): Promise<PolicyRow> {
  const [row] = await db.insert(securityPolicies).values(values).returning();
  if (!row) throw new Error('security policy insert returned nothing');
  return row;
}

export async function updatePolicy(
  db: Db,
  organizationId: string,
  id: string,
  changes: Partial<Pick<PolicyRow, 'name' | 'description' | 'parentId' | 'rules'>>,
): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db
    .update(securityPolicies)
    .set(changes)
    .where(and(eq(securityPolicies.organizationId, organizationId), eq(securityPolicies.id, id)));
}

export async function deletePolicy(db: Db, organizationId: string, id: string): Promise<void> {
  await db
    .delete(securityPolicies)
    .where(and(eq(securityPolicies.organizationId, organizationId), eq(securityPolicies.id, id)));
}

export async function assignDevice(db: Db, policyId: string, deviceId: string): Promise<boolean> {
  const rows = await db
    .insert(deviceSecurityPolicies)
    .values({ policyId, deviceId })
    .onConflictDoNothing()
    .returning({ deviceId: deviceSecurityPolicies.deviceId });
  return rows.length > 0;
}

export async function unassignDevice(db: Db, policyId: string, deviceId: string): Promise<boolean> {
  const rows = await db
    .delete(deviceSecurityPolicies)
    .where(and(eq(deviceSecurityPolicies.policyId, policyId), eq(deviceSecurityPolicies.deviceId, deviceId)))
    .returning({ deviceId: deviceSecurityPolicies.deviceId });
  return rows.length > 0;
}

const DEVICE_SORT = { label: devices.label, serialNumber: devices.serialNumber };

export async function pageOfPolicyDevices(db: Db, policyId: string, query: common.PageQuery) {
  const window = pageWindow(query);
  const conditions: (SQL | undefined)[] = [eq(deviceSecurityPolicies.policyId, policyId)];
  if (query.search?.trim()) {
    const pattern = containsPattern(query.search);
    conditions.push(
      or(ilike(devices.label, pattern), ilike(devices.alias, pattern), ilike(devices.serialNumber, pattern)),
    );
  }
  const where = and(...conditions);
  const order = orderOf(query, DEVICE_SORT, 'label', devices.id);
  return fetchPage(
    window,
    db
      .select({
        id: devices.id,
        label: devices.label,
        alias: devices.alias,
        serialNumber: devices.serialNumber,
      })
      .from(deviceSecurityPolicies)
      .innerJoin(devices, eq(devices.id, deviceSecurityPolicies.deviceId))
      .where(where)
      .orderBy(...order)
      .offset(window.offset)
      .limit(window.pageSize),
    db
      .select({ total: count() })
      .from(deviceSecurityPolicies)
      .innerJoin(devices, eq(devices.id, deviceSecurityPolicies.deviceId))
      .where(where),
  );
}

/** The rules of the policy groups assigned to a user, in any organization, with the groups nested inside them. */
export async function rulesAssignedToUser(db: Db, userId: string): Promise<SecurityPolicyRules[]> {
  const assigned = db
    .select({ id: userSecurityPolicies.policyId })
    .from(userSecurityPolicies)
    .where(eq(userSecurityPolicies.userId, userId));
  const found = new Map<string, SecurityPolicyRules>();
  let level = await db
    .select({ id: securityPolicies.id, rules: securityPolicies.rules })
    .from(securityPolicies)
    .where(inArray(securityPolicies.id, assigned));
  // Nesting cannot form cycles (refused on save); the bound only guards against a damaged table.
  for (let depth = 0; level.length > 0 && depth < 32; depth++) {
    const fresh = level.filter((row) => !found.has(row.id));
    for (const row of fresh) found.set(row.id, row.rules);
    if (fresh.length === 0) break;
    level = await db
      .select({ id: securityPolicies.id, rules: securityPolicies.rules })
      .from(securityPolicies)
      .where(
        inArray(
          securityPolicies.parentId,
          fresh.map((row) => row.id),
        ),
      );
  }
  return [...found.values()];
}
