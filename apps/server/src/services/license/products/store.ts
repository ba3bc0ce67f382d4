import type { licenseProducts } from '@edgeport/contract';
import { and, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { containsPattern, fetchPage, orderOf, pageWindow } from '../../../db/paging.ts';
import { licenses, products, productVersions } from '../../../db/schema.ts';

export type ProductRow = typeof products.$inferSelect;
export type VersionRow = typeof productVersions.$inferSelect;
export type ProductWithVersion = ProductRow & { current: VersionRow };

const SORT_COLUMNS = {
  code: products.code,
  name: products.name,
  resourceType: products.resourceType,
  createdAt: products.createdAt,
  updatedAt: products.updatedAt,
};

type Filter = { search?: string | undefined; resourceType?: licenseProducts.ResourceType | undefined };

function whereOf(organizationId: string, filter: Filter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [eq(products.organizationId, organizationId)];
  if (filter.resourceType) conditions.push(eq(products.resourceType, filter.resourceType));
  if (filter.search?.trim()) {
    const pattern = containsPattern(filter.search);
    conditions.push(or(ilike(products.code, pattern), ilike(products.name, pattern)));
  }
  return and(...conditions);
}

function joined(db: Db) {
  return db
    .select({ product: products, current: productVersions })
    .from(products)
    .innerJoin(
      productVersions,
      and(eq(productVersions.productId, products.id), eq(productVersions.version, products.currentVersion)),
    );
}

const flatten = (row: { product: ProductRow; current: VersionRow }): ProductWithVersion => ({
  ...row.product,
  current: row.current,
});

export async function pageOfProducts(
  db: Db,
  organizationId: string,
  query: licenseProducts.ProductListQuery,
) {
  const window = pageWindow({ ...query, pageSize: query.pageSize ?? 10_000 });
  const where = whereOf(organizationId, query);
  const order = orderOf({ ...query, order: query.order ?? 'asc' }, SORT_COLUMNS, 'name', products.id);
  const page = await fetchPage(
    window,
    joined(db)
      .where(where)
      .orderBy(...order)
      .offset(window.offset)
      .limit(window.pageSize),
    db.select({ total: count() }).from(products).where(where),
  );
  return { ...page, items: page.items.map(flatten) };
}

export async function countProducts(db: Db, organizationId: string, filter: Filter): Promise<number> {
  const [row] = await db.select({ total: count() }).from(products).where(whereOf(organizationId, filter));
  return row?.total ?? 0;
}

export async function findProduct(
  db: Db,
  organizationId: string,
  id: string,
): Promise<ProductWithVersion | undefined> {
  const [row] = await joined(db).where(and(eq(products.organizationId, organizationId), eq(products.id, id)));
  return row && flatten(row);
}

export async function codeTaken(db: Db, organizationId: string, code: string): Promise<boolean> {
  const [row] = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.organizationId, organizationId), eq(products.code, code)));
  return row !== undefined;
}

export type VersionValues = Omit<typeof productVersions.$inferInsert, 'productId' | 'version' | 'createdAt'>;

export async function insertProduct(
  db: Db,
  values: Pick<ProductRow, 'organizationId' | 'code' | 'name' | 'description' | 'resourceType'>,
  version: VersionValues,
): Promise<ProductWithVersion> {
  const [product] = await db
    .insert(products)
    .values({ ...values, currentVersion: 1 })
    .returning();
  if (!product) throw new Error('product insert returned nothing');
  const [current] = await db
    .insert(productVersions)
    .values({ ...version, productId: product.id, version: 1 })
    .returning();
  if (!current) throw new Error('product version insert returned nothing');
  return { ...product, current };
}

export async function updateProduct(
  db: Db,
  organizationId: string,
  id: string,
  changes: Partial<Pick<ProductRow, 'name' | 'description'>>,
  now: Date,
): Promise<void> {
  await db
    .update(products)
    .set({ ...changes, updatedAt: now })
    .where(and(eq(products.organizationId, organizationId), eq(products.id, id)));
}

export async function versionsOf(db: Db, productId: string): Promise<VersionRow[]> {
  return db
    .select()
    .from(productVersions)
    .where(eq(productVersions.productId, productId))
    .orderBy(desc(productVersions.version));
}

export async function findVersion(
  db: Db,
  productId: string,
  version: number,
): Promise<VersionRow | undefined> {
  const [row] = await db
    .select()
    .from(productVersions)
    .where(and(eq(productVersions.productId, productId), eq(productVersions.version, version)));
  return row;
}

/** Adds the next version and makes it current (the product row is locked so two calls do not take one number). */
export async function addVersion(
  db: Db,
  product: ProductRow,
  version: VersionValues,
  now: Date,
): Promise<VersionRow> {
  const [locked] = await db
    .select({ currentVersion: products.currentVersion })
    .from(products)
    .where(eq(products.id, product.id))
    .for('update');
  const [latest] = await db
    .select({ version: productVersions.version })
    .from(productVersions)
    .where(eq(productVersions.productId, product.id))
    .orderBy(desc(productVersions.version))
    .limit(1);
  const next = Math.max(latest?.version ?? 0, locked?.currentVersion ?? 0) + 1;
  const [row] = await db
    .insert(productVersions)
    .values({ ...version, productId: product.id, version: next })
    .returning();
  if (!row) throw new Error('product version insert returned nothing');
  await db.update(products).set({ currentVersion: next, updatedAt: now }).where(eq(products.id, product.id));
  return row;
}

export async function licenseCountOf(db: Db, productId: string): Promise<number> {
  const [row] = await db.select({ total: count() }).from(licenses).where(eq(licenses.productId, productId));
  return row?.total ?? 0;
}

export async function deleteProduct(db: Db, organizationId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(products)
    .where(and(eq(products.organizationId, organizationId), eq(products.id, id)))
    .returning({ id: products.id });
  return rows.length > 0;
}
