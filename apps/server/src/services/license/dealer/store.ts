import type { licenseProducts } from '@edgeport/contract';
import { and, count, eq, ilike, inArray, or, type SQL, sql, sum } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { containsPattern, fetchPage, orderOf, pageWindow } from '../../../db/paging.ts';
import {
  devices,
  licenses,
  organizations,
  products,
  productVersions,
  resourceJournal,
} from '../../../db/schema.ts';
import type { OrganizationRow } from '../../core/organizations/store.ts';

type ClientCounts = { licenseCount: number; activeLicenseCount: number; deviceCount: number };
export type ClientRow = OrganizationRow & ClientCounts;

/** Licences held per organization (all, and ACTIVE) and its devices. */
async function withCounts(db: Db, rows: OrganizationRow[]): Promise<ClientRow[]> {
  const counts = new Map<string, ClientCounts>();
  const entryOf = (organizationId: string): ClientCounts => {
    let entry = counts.get(organizationId);
    if (!entry) {
      entry = { licenseCount: 0, activeLicenseCount: 0, deviceCount: 0 };
      counts.set(organizationId, entry);
    }
    return entry;
  };
  if (rows.length > 0) {
    const ids = rows.map((row) => row.id);
    const [grouped, deviceCounts] = await Promise.all([
      db
        .select({ organizationId: licenses.organizationId, status: licenses.status, n: count() })
        .from(licenses)
        .where(inArray(licenses.organizationId, ids))
        .groupBy(licenses.organizationId, licenses.status),
      db
        .select({ organizationId: devices.organizationId, n: count() })
        .from(devices)
        .where(inArray(devices.organizationId, ids))
        .groupBy(devices.organizationId),
    ]);
    for (const row of grouped) {
      const entry = entryOf(row.organizationId);
      entry.licenseCount += row.n;
      if (row.status === 'ACTIVE') entry.activeLicenseCount += row.n;
    }
    for (const row of deviceCounts) entryOf(row.organizationId).deviceCount = row.n;
  }
  return rows.map((row) => ({
    ...row,
    ...(counts.get(row.id) ?? { licenseCount: 0, activeLicenseCount: 0, deviceCount: 0 }),
  }));
}

const SORT_COLUMNS = {
  name: organizations.name,
  createdAt: organizations.createdAt,
  resourceId: organizations.resourceId,
};

function clientsWhere(dealerId: string, search: string | undefined): SQL | undefined {
  const pattern = search?.trim() ? containsPattern(search) : undefined;
  return and(
    eq(organizations.parentId, dealerId),
    pattern ? or(ilike(organizations.name, pattern), ilike(organizations.resourceId, pattern)) : undefined,
  );
}

export async function pageOfClients(db: Db, dealerId: string, query: licenseProducts.ClientListQuery) {
  const window = pageWindow(query);
  const where = clientsWhere(dealerId, query.search);
  const order = orderOf({ ...query, order: query.order ?? 'asc' }, SORT_COLUMNS, 'name', organizations.id);
  const page = await fetchPage(
    window,
    db
      .select()
      .from(organizations)
      .where(where)
      .orderBy(...order)
      .offset(window.offset)
      .limit(window.pageSize),
    db.select({ total: count() }).from(organizations).where(where),
  );
  return { ...page, items: await withCounts(db, page.items) };
}

/** A direct sub-organization of the dealer, or undefined. */
export async function findClient(db: Db, dealerId: string, id: string): Promise<ClientRow | undefined> {
  const rows = await db
    .select()
    .from(organizations)
    .where(and(eq(organizations.parentId, dealerId), eq(organizations.id, id)));
  const [row] = await withCounts(db, rows);
  return row;
}

/** What the organization's ACTIVE licences grant, per resource type (integer sums). */
export async function allowances(db: Db, organizationId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({
      resourceType: products.resourceType,
      allowance: sql<string>`coalesce(sum(${licenses.quantity}::bigint * ${productVersions.quantity}), 0)`,
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
    .where(and(eq(licenses.organizationId, organizationId), eq(licenses.status, 'ACTIVE')))
    .groupBy(products.resourceType);
  return new Map(rows.map((row) => [row.resourceType, Number(row.allowance)]));
}

/** The metered use per resource type: the sum of the journal's entries. */
export async function usage(db: Db, organizationId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ resourceType: resourceJournal.resourceType, used: sum(resourceJournal.delta) })
    .from(resourceJournal)
    .where(eq(resourceJournal.organizationId, organizationId))
    .groupBy(resourceJournal.resourceType);
  return new Map(rows.map((row) => [row.resourceType, Number(row.used ?? 0)]));
}

export async function updateAccount(
  db: Db,
  id: string,
  changes: Partial<Pick<OrganizationRow, 'dealer' | 'hasOwnResources' | 'inAppPurchases'>>,
): Promise<OrganizationRow | undefined> {
  if (Object.keys(changes).length === 0) {
    const [row] = await db.select().from(organizations).where(eq(organizations.id, id));
    return row;
  }
  const [row] = await db.update(organizations).set(changes).where(eq(organizations.id, id)).returning();
  return row;
}
