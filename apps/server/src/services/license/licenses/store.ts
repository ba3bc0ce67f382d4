import type { licenseProducts } from '@edgeport/contract';
import {
  and,
  count,
  desc,
  eq,
  gt,
  gte,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../../db/index.ts';
import { containsPattern, fetchPage, orderOf, pageWindow } from '../../../db/paging.ts';
import {
  deviceLicenses,
  groupMembers,
  groupRoles,
  type LicenseStatus,
  licenseEvents,
  licenses,
  memberships,
  organizations,
  products,
  productVersions,
  roles,
  userGroups,
  userRoles,
  users,
} from '../../../db/schema.ts';
import { languagesOf } from '../../notifications/recipients.ts';
import type { Language } from '../../notifications/texts.ts';

export type LicenseRow = typeof licenses.$inferSelect;
export type VersionRow = typeof productVersions.$inferSelect;
export type ProductRef = {
  id: string;
  code: string;
  name: string;
  resourceType: licenseProducts.ResourceType;
};

/** A licence with what the answers show: its product, the terms of its version and the two organizations' names. */
export type LicenseView = LicenseRow & {
  product: ProductRef;
  version: VersionRow;
  organizationName: string;
  issuerOrganizationName: string | null;
};

const issuer = alias(organizations, 'issuer');

function selectViews(db: Db) {
  return db
    .select({
      license: licenses,
      product: {
        id: products.id,
        code: products.code,
        name: products.name,
        resourceType: products.resourceType,
      },
      version: productVersions,
      organizationName: organizations.name,
      issuerOrganizationName: issuer.name,
    })
    .from(licenses)
    .innerJoin(products, eq(products.id, licenses.productId))
    .innerJoin(
      productVersions,
      and(
        eq(productVersions.productId, licenses.productId),
        eq(productVersions.version, licenses.productVersion),
      ),
    )
    .innerJoin(organizations, eq(organizations.id, licenses.organizationId))
    .leftJoin(issuer, eq(issuer.id, licenses.issuerOrganizationId));
}

type Selected = {
  license: LicenseRow;
  product: ProductRef;
  version: VersionRow;
  organizationName: string;
  issuerOrganizationName: string | null;
};

const flatten = (row: Selected): LicenseView => ({
  ...row.license,
  product: row.product,
  version: row.version,
  organizationName: row.organizationName,
  issuerOrganizationName: row.issuerOrganizationName,
});

/** Whose licences: the ones an organization holds, or the ones a dealer issued (optionally to one client). */
export type Scope = { holder: string } | { issuer: string; clientId?: string | undefined };

function scopeCondition(scope: Scope): SQL | undefined {
  if ('holder' in scope) return eq(licenses.organizationId, scope.holder);
  return and(
    eq(licenses.issuerOrganizationId, scope.issuer),
    scope.clientId ? eq(licenses.organizationId, scope.clientId) : undefined,
  );
}

type Filter = { status?: LicenseStatus | undefined; search?: string | undefined };

function whereOf(scope: Scope, filter: Filter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [scopeCondition(scope)];
  if (filter.status) conditions.push(eq(licenses.status, filter.status));
  if (filter.search?.trim()) {
    const pattern = containsPattern(filter.search);
    conditions.push(
      'holder' in scope
        ? or(ilike(licenses.licenseCode, pattern), ilike(products.name, pattern))
        : or(
            ilike(licenses.licenseCode, pattern),
            ilike(products.name, pattern),
            ilike(organizations.name, pattern),
          ),
    );
  }
  return and(...conditions);
}

const SORT_COLUMNS = {
  createdAt: licenses.createdAt,
  expiresAt: licenses.expiresAt,
  activatedAt: licenses.activatedAt,
  status: licenses.status,
  licenseCode: licenses.licenseCode,
};

export async function pageOfLicenses(
  db: Db,
  scope: Scope,
  query: Filter & { page?: number; pageSize?: number; sort?: string; order?: 'asc' | 'desc' },
) {
  const window = pageWindow({ ...query, pageSize: query.pageSize ?? 200 });
  const where = whereOf(scope, query);
  const order = orderOf(
    { ...query, order: query.order ?? (query.sort ? 'asc' : 'desc') },
    SORT_COLUMNS,
    'createdAt',
    licenses.id,
  );
  const page = await fetchPage(
    window,
    selectViews(db)
      .where(where)
      .orderBy(...order)
      .offset(window.offset)
      .limit(window.pageSize),
    db
      .select({ total: count() })
      .from(licenses)
      .innerJoin(products, eq(products.id, licenses.productId))
      .innerJoin(organizations, eq(organizations.id, licenses.organizationId))
      .where(where),
  );
  return { ...page, items: page.items.map(flatten) };
}

export async function countLicenses(db: Db, scope: Scope, filter: Filter): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(licenses)
    .innerJoin(products, eq(products.id, licenses.productId))
    .innerJoin(organizations, eq(organizations.id, licenses.organizationId))
    .where(whereOf(scope, filter));
  return row?.total ?? 0;
}

/** A licence by id inside the scope (another organization's id answers undefined). */
export async function findLicense(db: Db, scope: Scope, id: string): Promise<LicenseView | undefined> {
  const [row] = await selectViews(db).where(and(scopeCondition(scope), eq(licenses.id, id)));
  return row && flatten(row);
}

export async function findByCode(db: Db, holder: string, code: string): Promise<LicenseView | undefined> {
  const [row] = await selectViews(db).where(
    and(eq(licenses.organizationId, holder), eq(licenses.licenseCode, code)),
  );
  return row && flatten(row);
}

export async function findById(db: Db, id: string): Promise<LicenseView | undefined> {
  const [row] = await selectViews(db).where(eq(licenses.id, id));
  return row && flatten(row);
}

/** Every licence of the holders, newest first (a client's detail). */
export async function licensesOf(db: Db, scope: Scope): Promise<LicenseView[]> {
  const rows = await selectViews(db)
    .where(scopeCondition(scope))
    .orderBy(desc(licenses.createdAt), desc(licenses.id))
    .limit(1000);
  return rows.map(flatten);
}

export type Counts = licenseProducts.DeviceLicenseCounts;
export const NO_DEVICE_LICENSES: Counts = { total: 0, available: 0, active: 0, expired: 0 };

function addCount(counts: Counts, status: string, n: number): Counts {
  const next = { ...counts, total: counts.total + n };
  if (status === 'AVAILABLE') next.available += n;
  else if (status === 'ACTIVE') next.active += n;
  else next.expired += n;
  return next;
}

/** Device licences per licence, by status. */
export async function deviceLicenseCounts(db: Db, licenseIds: string[]): Promise<Map<string, Counts>> {
  const out = new Map<string, Counts>();
  if (licenseIds.length === 0) return out;
  const rows = await db
    .select({ licenseId: deviceLicenses.licenseId, status: deviceLicenses.status, n: count() })
    .from(deviceLicenses)
    .where(inArray(deviceLicenses.licenseId, licenseIds))
    .groupBy(deviceLicenses.licenseId, deviceLicenses.status);
  for (const row of rows) {
    if (!row.licenseId) continue;
    out.set(row.licenseId, addCount(out.get(row.licenseId) ?? NO_DEVICE_LICENSES, row.status, row.n));
  }
  return out;
}

/** Every device licence of an organization, by status (the client's detail). */
export async function organizationDeviceLicenseCounts(db: Db, organizationId: string): Promise<Counts> {
  const rows = await db
    .select({ status: deviceLicenses.status, n: count() })
    .from(deviceLicenses)
    .where(eq(deviceLicenses.organizationId, organizationId))
    .groupBy(deviceLicenses.status);
  return rows.reduce((counts, row) => addCount(counts, row.status, row.n), NO_DEVICE_LICENSES);
}

export async function insertLicense(
  db: Db,
  values: typeof licenses.$inferInsert,
): Promise<LicenseRow | undefined> {
  const [row] = await db.insert(licenses).values(values).onConflictDoNothing().returning();
  return row;
}

/** Changes a licence if it is still in one of `from` (answers undefined when another call changed it first). */
export async function updateLicense(
  db: Db,
  id: string,
  from: LicenseStatus[],
  values: Partial<Pick<LicenseRow, 'status' | 'autorenew' | 'activatedAt' | 'expiresAt' | 'warnedDays'>>,
  now: Date,
): Promise<LicenseRow | undefined> {
  const [row] = await db
    .update(licenses)
    .set({ ...values, updatedAt: now })
    .where(and(eq(licenses.id, id), inArray(licenses.status, from)))
    .returning();
  return row;
}

export async function deleteLicense(db: Db, holder: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(licenses)
    .where(and(eq(licenses.organizationId, holder), eq(licenses.id, id), eq(licenses.status, 'ISSUED')))
    .returning({ id: licenses.id });
  return rows.length > 0;
}

export async function insertDeviceLicenses(
  db: Db,
  rows: {
    organizationId: string;
    activationKey: string;
    vpn: boolean;
    licenseId: string;
    expiresAt: Date | null;
  }[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const inserted = await db
    .insert(deviceLicenses)
    .values(rows)
    .onConflictDoNothing()
    .returning({ id: deviceLicenses.id });
  return inserted.length;
}

export async function deleteDeviceLicensesOf(db: Db, licenseId: string): Promise<number> {
  const rows = await db
    .delete(deviceLicenses)
    .where(eq(deviceLicenses.licenseId, licenseId))
    .returning({ id: deviceLicenses.id });
  return rows.length;
}

/** The term of a licence's device licences follows the licence's. */
export async function setDeviceLicenseExpiry(
  db: Db,
  licenseId: string,
  expiresAt: Date | null,
): Promise<void> {
  await db.update(deviceLicenses).set({ expiresAt }).where(eq(deviceLicenses.licenseId, licenseId));
}

/** Expires every device licence of a licence; answers the devices that had one (their access ends). */
export async function expireDeviceLicenses(db: Db, licenseId: string): Promise<string[]> {
  const rows = await db
    .update(deviceLicenses)
    .set({ status: 'EXPIRED' })
    .where(eq(deviceLicenses.licenseId, licenseId))
    .returning({ deviceId: deviceLicenses.deviceId });
  return rows.flatMap((row) => (row.deviceId ? [row.deviceId] : []));
}

/** After a renewal: the expired device licences of the licence come back (ACTIVE with their device, else AVAILABLE). */
export async function restoreDeviceLicenses(db: Db, licenseId: string, expiresAt: Date): Promise<void> {
  await db
    .update(deviceLicenses)
    .set({
      expiresAt,
      status: sql`case when ${deviceLicenses.deviceId} is not null then 'ACTIVE' else 'AVAILABLE' end`,
    })
    .where(and(eq(deviceLicenses.licenseId, licenseId), eq(deviceLicenses.status, 'EXPIRED')));
  await setDeviceLicenseExpiry(db, licenseId, expiresAt);
}

export async function insertEvent(
  db: Db,
  values: {
    organizationId: string;
    licenseId: string | null;
    event: licenseProducts.LicenseEvent;
    detail: Record<string, unknown>;
    at: Date;
  },
): Promise<void> {
  await db.insert(licenseEvents).values(values);
}

/** The latest expiry of the organization's ACTIVE licences and that licence. */
export async function latestActiveExpiry(db: Db, holder: string) {
  const [row] = await db
    .select({ id: licenses.id, expiresAt: licenses.expiresAt })
    .from(licenses)
    .where(
      and(eq(licenses.organizationId, holder), eq(licenses.status, 'ACTIVE'), isNotNull(licenses.expiresAt)),
    )
    .orderBy(desc(licenses.expiresAt), desc(licenses.id))
    .limit(1);
  return row;
}

export async function hasActiveLicense(db: Db, holder: string): Promise<boolean> {
  const [row] = await db
    .select({ n: count() })
    .from(licenses)
    .where(and(eq(licenses.organizationId, holder), eq(licenses.status, 'ACTIVE')));
  return (row?.n ?? 0) > 0;
}

export async function pageOfEvents(
  db: Db,
  organizationId: string,
  query: { page?: number; pageSize?: number; from?: Date; to?: Date; licenseId?: string; event?: string },
) {
  const window = pageWindow(query);
  const where = and(
    eq(licenseEvents.organizationId, organizationId),
    query.from ? gte(licenseEvents.at, query.from) : undefined,
    query.to ? lt(licenseEvents.at, query.to) : undefined,
    query.licenseId ? eq(licenseEvents.licenseId, query.licenseId) : undefined,
    query.event ? eq(licenseEvents.event, query.event) : undefined,
  );
  return fetchPage(
    window,
    db
      .select({
        id: licenseEvents.id,
        licenseId: licenseEvents.licenseId,
        licenseCode: licenses.licenseCode,
        productName: products.name,
        event: licenseEvents.event,
        detail: licenseEvents.detail,
        at: licenseEvents.at,
      })
      .from(licenseEvents)
      .leftJoin(licenses, eq(licenses.id, licenseEvents.licenseId))
      .leftJoin(products, eq(products.id, licenses.productId))
      .where(where)
      .orderBy(desc(licenseEvents.at), desc(licenseEvents.id))
      .offset(window.offset)
      .limit(window.pageSize),
    db.select({ total: count() }).from(licenseEvents).where(where),
  );
}

/** ACTIVE licences whose term ends at or before `until` (the expiry sweep). */
export async function activeEndingBy(db: Db, until: Date, limit: number): Promise<LicenseRow[]> {
  return db
    .select()
    .from(licenses)
    .where(and(eq(licenses.status, 'ACTIVE'), lte(licenses.expiresAt, until)))
    .orderBy(licenses.expiresAt)
    .limit(limit);
}

/** Locks the licence row for the rest of the transaction and answers it as it is now. */
export async function lockLicense(db: Db, id: string): Promise<LicenseRow | undefined> {
  const [row] = await db.select().from(licenses).where(eq(licenses.id, id)).for('update');
  return row;
}

const DAY = 24 * 60 * 60 * 1000;

/** ACTIVE licences inside a warning window (days ahead) whose warning for that window was not sent yet. */
export async function dueForWarning(
  db: Db,
  now: Date,
  windows: number[],
  limit: number,
): Promise<LicenseRow[]> {
  const conditions = windows.map((days) =>
    and(
      lte(licenses.expiresAt, new Date(now.getTime() + days * DAY)),
      sql`not (${licenses.warnedDays} @> ${JSON.stringify([days])}::jsonb)`,
    ),
  );
  return db
    .select()
    .from(licenses)
    .where(and(eq(licenses.status, 'ACTIVE'), gt(licenses.expiresAt, now), or(...conditions)))
    .orderBy(licenses.expiresAt, licenses.id)
    .limit(limit);
}

/** Marks warnings sent, if the licence is still ACTIVE with the same term (answers whether it did). */
export async function markWarned(db: Db, row: LicenseRow, warnedDays: number[]): Promise<boolean> {
  if (!row.expiresAt) return false;
  const updated = await db
    .update(licenses)
    .set({ warnedDays })
    .where(
      and(
        eq(licenses.id, row.id),
        eq(licenses.status, 'ACTIVE'),
        eq(licenses.expiresAt, row.expiresAt),
        sql`${licenses.warnedDays} = ${JSON.stringify(row.warnedDays)}::jsonb`,
      ),
    )
    .returning({ id: licenses.id });
  return updated.length > 0;
}

export type Administrator = { id: string; email: string; locale: string | null; language: Language };

/**
 * The users of an organization who administer it: their roles there grant UPDATE on organizations. Each comes with
 * the language e-mail to them is written in (as for notifications: portal locale, else account locale, else English).
 */
export async function administratorsOf(db: Db, organizationId: string): Promise<Administrator[]> {
  const direct = await db
    .select({ id: users.id, email: users.email, locale: users.locale, permissions: roles.permissions })
    .from(users)
    .innerJoin(
      memberships,
      and(eq(memberships.userId, users.id), eq(memberships.organizationId, organizationId)),
    )
    .innerJoin(userRoles, eq(userRoles.userId, users.id))
    .innerJoin(roles, and(eq(roles.id, userRoles.roleId), eq(roles.organizationId, organizationId)))
    .where(eq(users.enabled, true));
  const throughGroups = await db
    .select({ id: users.id, email: users.email, locale: users.locale, permissions: roles.permissions })
    .from(users)
    .innerJoin(groupMembers, eq(groupMembers.userId, users.id))
    .innerJoin(
      userGroups,
      and(eq(userGroups.id, groupMembers.groupId), eq(userGroups.organizationId, organizationId)),
    )
    .innerJoin(groupRoles, eq(groupRoles.groupId, userGroups.id))
    .innerJoin(roles, and(eq(roles.id, groupRoles.roleId), eq(roles.organizationId, organizationId)))
    .where(eq(users.enabled, true));
  const found = new Map<string, { id: string; email: string; locale: string | null }>();
  for (const row of [...direct, ...throughGroups]) {
    const administers = row.permissions.some(
      (entry) => entry.rsname === 'organizations' && !entry.inverted && entry.scopes.includes('UPDATE'),
    );
    if (administers) found.set(row.id, { id: row.id, email: row.email, locale: row.locale });
  }
  const admins = [...found.values()];
  const languages = await languagesOf(db, admins, 'en');
  return admins.map((admin) => ({ ...admin, language: languages.get(admin.id) ?? 'en' }));
}

export async function organizationOf(db: Db, id: string) {
  const [row] = await db
    .select({ id: organizations.id, name: organizations.name, realm: organizations.realm })
    .from(organizations)
    .where(eq(organizations.id, id));
  return row;
}

/** Device licences issued on their own (no licence) whose term ran out while ACTIVE. */
export async function standaloneEndedBy(db: Db, now: Date, limit: number) {
  return db
    .select()
    .from(deviceLicenses)
    .where(
      and(
        eq(deviceLicenses.status, 'ACTIVE'),
        isNull(deviceLicenses.licenseId),
        lte(deviceLicenses.expiresAt, now),
      ),
    )
    .orderBy(deviceLicenses.expiresAt, deviceLicenses.id)
    .limit(limit);
}

/**
 * Ends or extends a standalone device licence's term, only while it is still ACTIVE and due at `now` (another
 * instance's sweep may have done it already: then nothing changes and the answer is false).
 */
export async function updateDueDeviceLicense(
  db: Db,
  id: string,
  now: Date,
  values: Partial<Pick<typeof deviceLicenses.$inferSelect, 'status' | 'expiresAt'>>,
): Promise<boolean> {
  const rows = await db
    .update(deviceLicenses)
    .set(values)
    .where(
      and(eq(deviceLicenses.id, id), eq(deviceLicenses.status, 'ACTIVE'), lte(deviceLicenses.expiresAt, now)),
    )
    .returning({ id: deviceLicenses.id });
  return rows.length > 0;
}
