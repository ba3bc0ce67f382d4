import type { dashboards as contract } from '@edgeport/contract';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { type DashboardKind, dashboardShares, dashboards } from '../../db/schema.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import { abilityIn, type Principal } from '../../http/principal.ts';
import { authorizeInOrganization } from '../core/organizations/service.ts';
import type { OrganizationRow } from '../core/organizations/store.ts';

export type DashboardRow = typeof dashboards.$inferSelect;
export type AccessLevel = contract.AccessLevel;

/** What each level may do; an owner may do everything. */
const RANK: Record<AccessLevel, number> = { r: 0, 'r/w': 1, owner: 2 };

/**
 * The caller's organization (from the permission token) after checking `action` on `dashboards` there. The dashboard
 * service has no organization in its paths: the token's organization is the one it acts in. IoT off: denied.
 */
export async function dashboardOrganization(
  db: Db,
  principal: Principal,
  action: 'READ' | 'CREATE' | 'UPDATE' | 'DELETE' = 'READ',
): Promise<OrganizationRow> {
  if (!principal.organizationId) throw forbidden('a permission token of an organization is required');
  return authorizeInOrganization(db, principal, principal.organizationId, action, 'dashboards');
}

/** The caller's level on a dashboard: owner, a share, or 'owner' for holders of UPDATE on dashboards; else none. */
export async function accessLevel(
  db: Db,
  principal: Principal,
  org: OrganizationRow,
  row: DashboardRow,
): Promise<AccessLevel | undefined> {
  if (row.ownerId === principal.userId) return 'owner';
  if (abilityIn(principal, org).can('UPDATE', 'dashboards')) return 'owner';
  const [share] = await db
    .select({ level: dashboardShares.level })
    .from(dashboardShares)
    .where(and(eq(dashboardShares.dashboardId, row.id), eq(dashboardShares.userId, principal.userId)));
  return share?.level;
}

/**
 * A dashboard (flow, widget) of the caller's organization that the caller holds at least `needed` on. Unknown, of
 * another organization or another kind, or not visible to the caller: 404. Visible but not enough: 403.
 */
export async function dashboardWithAccess(
  db: Db,
  principal: Principal,
  kind: DashboardKind,
  id: string,
  needed: AccessLevel = 'r',
): Promise<{ org: OrganizationRow; row: DashboardRow; access: AccessLevel }> {
  const org = await dashboardOrganization(db, principal);
  const [row] = await db
    .select()
    .from(dashboards)
    .where(and(eq(dashboards.id, id), eq(dashboards.organizationId, org.id), eq(dashboards.kind, kind)));
  return checkedAccess(db, principal, org, row, kind, id, needed);
}

/** Like `dashboardWithAccess`, for a dashboard, flow or widget of any kind (user preferences name just an id). */
export async function anyDashboardWithAccess(
  db: Db,
  principal: Principal,
  id: string,
  needed: AccessLevel = 'r',
): Promise<{ org: OrganizationRow; row: DashboardRow; access: AccessLevel }> {
  const org = await dashboardOrganization(db, principal);
  const [row] = await db
    .select()
    .from(dashboards)
    .where(and(eq(dashboards.id, id), eq(dashboards.organizationId, org.id)));
  return checkedAccess(db, principal, org, row, row?.kind ?? 'dashboard', id, needed);
}

async function checkedAccess(
  db: Db,
  principal: Principal,
  org: OrganizationRow,
  row: DashboardRow | undefined,
  kind: DashboardKind,
  id: string,
  needed: AccessLevel,
): Promise<{ org: OrganizationRow; row: DashboardRow; access: AccessLevel }> {
  const access = row && (await accessLevel(db, principal, org, row));
  if (!row || !access) throw notFound(`${kind} '${id}' not found`);
  if (RANK[access] < RANK[needed]) {
    throw forbidden(
      needed === 'owner'
        ? `only the ${kind}'s owner may do this`
        : `the ${kind} is shared read-only with you`,
    );
  }
  return { org, row, access };
}
