import { and, asc, count, desc, eq, ilike, inArray, max, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { escapeLike } from '../../../db/paging.ts';
import { rowsOf } from '../../../db/rows.ts';
import {
  type DashboardKind,
  dashboardShares,
  dashboards,
  dashboardVersions,
  devices,
  memberships,
  type ShareLevel,
  users,
} from '../../../db/schema.ts';
import type { DashboardRow } from '../access.ts';

export type VersionRow = typeof dashboardVersions.$inferSelect;
export type ShareRow = { dashboardId: string; userId: string; level: ShareLevel };

export const DASHBOARD_SORTS = { name: dashboards.name, updatedAt: dashboards.updatedAt } as const;
export type DashboardSort = keyof typeof DASHBOARD_SORTS;

/** Which rows a list holds: those the caller may open, owns, or has been given by others. */
export type ListScope = 'all' | 'visible' | 'mine' | 'shared';

export type DashboardCriteria = {
  organizationId: string;
  kind: DashboardKind;
  userId: string;
  scope: ListScope;
  search?: string;
  sort: DashboardSort;
  order: 'asc' | 'desc';
  page: number;
  pageSize: number;
};

function sharedWith(userId: string): SQL {
  return sql`exists (select 1 from ${dashboardShares} where ${dashboardShares.dashboardId} = ${dashboards.id} and ${dashboardShares.userId} = ${userId})`;
}

export async function pageOfDashboards(
  db: Db,
  criteria: DashboardCriteria,
): Promise<{ rows: DashboardRow[]; total: number }> {
  const filters: (SQL | undefined)[] = [
    eq(dashboards.organizationId, criteria.organizationId),
    eq(dashboards.kind, criteria.kind),
  ];
  if (criteria.scope === 'visible')
    filters.push(or(eq(dashboards.ownerId, criteria.userId), sharedWith(criteria.userId)));
  if (criteria.scope === 'mine') filters.push(eq(dashboards.ownerId, criteria.userId));
  if (criteria.scope === 'shared') filters.push(sharedWith(criteria.userId));
  const search = criteria.search?.trim();
  if (search) filters.push(ilike(dashboards.name, `%${escapeLike(search)}%`));
  const where = and(...filters);
  const column = DASHBOARD_SORTS[criteria.sort];
  const direction = criteria.order === 'desc' ? desc : asc;
  const rows = await db
    .select()
    .from(dashboards)
    .where(where)
    .orderBy(direction(column), direction(dashboards.id))
    .limit(criteria.pageSize)
    .offset(criteria.page * criteria.pageSize);
  const [total] = await db.select({ value: count() }).from(dashboards).where(where);
  return { rows, total: total?.value ?? 0 };
}

export async function findDashboardByName(
  db: Db,
  organizationId: string,
  kind: DashboardKind,
  name: string,
): Promise<DashboardRow | undefined> {
  const [row] = await db
    .select()
    .from(dashboards)
    .where(
      and(
        eq(dashboards.organizationId, organizationId),
        eq(dashboards.kind, kind),
        eq(dashboards.name, name),
      ),
    );
  return row;
}

/** A new dashboard with its version 1, in one transaction. */
export async function insertDashboard(
  db: Db,
  input: {
    organizationId: string;
    kind: DashboardKind;
    name: string;
    description: string;
    ownerId: string | null;
    document: Record<string, unknown>;
  },
): Promise<DashboardRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(dashboards)
      .values({
        organizationId: input.organizationId,
        kind: input.kind,
        name: input.name,
        description: input.description,
        ownerId: input.ownerId,
        currentVersion: 1,
      })
      .returning();
    if (!row) throw new Error('insert returned no row');
    await tx.insert(dashboardVersions).values({
      dashboardId: row.id,
      version: 1,
      document: input.document,
      createdBy: input.ownerId,
    });
    return row;
  });
}

export async function updateDashboard(
  db: Db,
  id: string,
  changes: { name?: string; description?: string; currentVersion?: number },
): Promise<DashboardRow> {
  const [row] = await db
    .update(dashboards)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(dashboards.id, id))
    .returning();
  if (!row) throw new Error(`dashboard ${id} vanished`);
  return row;
}

export async function deleteDashboard(db: Db, id: string): Promise<void> {
  await db.delete(dashboards).where(eq(dashboards.id, id));
}

// --- Shares ---------------------------------------------------------------------------------------------------------

export async function sharesOf(db: Db, dashboardIds: readonly string[]): Promise<ShareRow[]> {
  if (dashboardIds.length === 0) return [];
  return db
    .select({
      dashboardId: dashboardShares.dashboardId,
      userId: dashboardShares.userId,
      level: dashboardShares.level,
    })
    .from(dashboardShares)
    .where(inArray(dashboardShares.dashboardId, [...dashboardIds]))
    .orderBy(asc(dashboardShares.createdAt), asc(dashboardShares.userId));
}

/** Sets each user's level (one row per user: a reader made editor is no reader any more). */
export async function upsertShares(
  db: Db,
  dashboardId: string,
  entries: readonly { userId: string; level: ShareLevel }[],
): Promise<void> {
  if (entries.length === 0) return;
  await db
    .insert(dashboardShares)
    .values(entries.map((entry) => ({ dashboardId, userId: entry.userId, level: entry.level })))
    .onConflictDoUpdate({
      target: [dashboardShares.dashboardId, dashboardShares.userId],
      set: { level: sql`excluded.level` },
    });
}

export async function deleteShares(db: Db, dashboardId: string, userIds: readonly string[]): Promise<number> {
  if (userIds.length === 0) return 0;
  const removed = await db
    .delete(dashboardShares)
    .where(and(eq(dashboardShares.dashboardId, dashboardId), inArray(dashboardShares.userId, [...userIds])))
    .returning({ userId: dashboardShares.userId });
  return removed.length;
}

/** Of the given users, those who are members of the organization. */
export async function membersAmong(
  db: Db,
  organizationId: string,
  userIds: readonly string[],
): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), inArray(memberships.userId, [...userIds])));
  return new Set(rows.map((row) => row.userId));
}

/** Display names (first and last name, else e-mail) of users. */
export async function namesOf(db: Db, userIds: readonly (string | null)[]): Promise<Map<string, string>> {
  const ids = [...new Set(userIds.filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(inArray(users.id, ids));
  return new Map(rows.map((row) => [row.id, `${row.firstName} ${row.lastName}`.trim() || row.email]));
}

// --- Versions -------------------------------------------------------------------------------------------------------

export type VersionSummaryRow = Omit<VersionRow, 'document'>;

export async function versionsOf(db: Db, dashboardId: string): Promise<VersionSummaryRow[]> {
  return db
    .select({
      dashboardId: dashboardVersions.dashboardId,
      version: dashboardVersions.version,
      derivedFrom: dashboardVersions.derivedFrom,
      comment: dashboardVersions.comment,
      createdBy: dashboardVersions.createdBy,
      createdAt: dashboardVersions.createdAt,
    })
    .from(dashboardVersions)
    .where(eq(dashboardVersions.dashboardId, dashboardId))
    .orderBy(desc(dashboardVersions.version));
}

export async function findVersion(
  db: Db,
  dashboardId: string,
  version: number,
): Promise<VersionRow | undefined> {
  const [row] = await db
    .select()
    .from(dashboardVersions)
    .where(and(eq(dashboardVersions.dashboardId, dashboardId), eq(dashboardVersions.version, version)));
  return row;
}

export async function highestVersion(db: Db, dashboardId: string): Promise<number> {
  const [row] = await db
    .select({ value: max(dashboardVersions.version) })
    .from(dashboardVersions)
    .where(eq(dashboardVersions.dashboardId, dashboardId));
  return row?.value ?? 0;
}

/**
 * Inserts version `version` (undefined: the highest + 1) and, when `current`, makes it the dashboard's current one;
 * undefined when the number is taken by then (a concurrent save).
 */
export async function insertVersion(
  db: Db,
  input: {
    dashboardId: string;
    version?: number;
    document: Record<string, unknown>;
    derivedFrom: number | null;
    comment: string;
    createdBy: string;
    current: boolean;
  },
): Promise<VersionRow | undefined> {
  return db.transaction(async (tx) => {
    // Serializes saves of one dashboard: the row lock is held until the transaction ends.
    await tx.execute(
      sql`select 1 from ${dashboards} where ${dashboards.id} = ${input.dashboardId} for update`,
    );
    const highest = await highestVersion(tx as unknown as Db, input.dashboardId);
    const version = input.version ?? highest + 1;
    if (version !== highest + 1) return undefined;
    const [row] = await tx
      .insert(dashboardVersions)
      .values({
        dashboardId: input.dashboardId,
        version,
        document: input.document,
        derivedFrom: input.derivedFrom,
        comment: input.comment,
        createdBy: input.createdBy,
      })
      .returning();
    await tx
      .update(dashboards)
      .set({ updatedAt: new Date(), ...(input.current && { currentVersion: version }) })
      .where(eq(dashboards.id, input.dashboardId));
    return row;
  });
}

export async function deleteVersion(db: Db, dashboardId: string, version: number): Promise<number> {
  const removed = await db
    .delete(dashboardVersions)
    .where(
      and(
        eq(dashboardVersions.dashboardId, dashboardId),
        eq(dashboardVersions.version, version),
        // Never the current one, even if it became current meanwhile.
        sql`${dashboardVersions.version} <> (select ${dashboards.currentVersion} from ${dashboards} where ${dashboards.id} = ${dashboardId})`,
      ),
    )
    .returning({ version: dashboardVersions.version });
  return removed.length;
}

// --- Data export ----------------------------------------------------------------------------------------------------

/** Of the given devices, those of the organization with their labels. */
export async function devicesOfOrganization(
  db: Db,
  organizationId: string,
  ids: readonly string[],
): Promise<Map<string, { id: string; label: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: devices.id, label: devices.label })
    .from(devices)
    .where(and(eq(devices.organizationId, organizationId), inArray(devices.id, [...ids])));
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * The stored values of the given paths of a device between from and to (inclusive), oldest first: one record per
 * time and path, from the day partitions and the compacted blocks alike (telemetry_series).
 */
export async function telemetryOf(
  db: Db,
  deviceId: string,
  paths: readonly string[],
  range: { from: Date; to: Date },
  limit: number,
): Promise<{ ts: string; values: Record<string, unknown> }[]> {
  if (paths.length === 0) return [];
  const result = await db.execute(sql`
    select to_char(s.ts at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ts, p.path, s.value
    from unnest(array[${sql.join(
      paths.map((path) => sql`${path}::text`),
      sql`, `,
    )}]) as p(path)
    cross join lateral telemetry_series(${deviceId}::uuid, p.path, ${range.from.toISOString()}::timestamptz,
      ${range.to.toISOString()}::timestamptz) as s
    order by s.ts, s.source, s.seq
    limit ${limit}`);
  const rows = rowsOf<{ ts: string; path: string; value: unknown }>(result);
  return rows.map((row) => ({ ts: row.ts, values: { [row.path]: row.value } }));
}
