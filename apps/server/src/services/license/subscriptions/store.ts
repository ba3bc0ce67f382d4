import { and, desc, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import type { PageWindow } from '../../../db/paging.ts';
import { rowsOf } from '../../../db/rows.ts';
import {
  licenses,
  organizations,
  products,
  productVersions,
  type ResourceType,
  resourceJournal,
} from '../../../db/schema.ts';

export type JournalRow = typeof resourceJournal.$inferSelect;
export type Range = { from?: Date | undefined; to?: Date | undefined };

function journalWhere(
  organizationIds: string[],
  type: ResourceType | undefined,
  range: Range,
): SQL | undefined {
  const conditions: SQL[] = [inArray(resourceJournal.organizationId, organizationIds)];
  if (type) conditions.push(eq(resourceJournal.resourceType, type));
  if (range.from) conditions.push(gte(resourceJournal.at, range.from));
  if (range.to) conditions.push(lt(resourceJournal.at, range.to));
  return and(...conditions);
}

/** Sums are computed as exact numerics in SQL and read as text, so no digit is lost on the way. */
const exactSum = sql<string>`coalesce(sum(${resourceJournal.delta}), 0)::text`;
const entryCount = sql<number>`count(*)::int`;

export async function pageOfEntries(
  db: Db,
  organizationId: string,
  type: ResourceType,
  range: Range,
  window: PageWindow,
): Promise<{ items: JournalRow[]; total: number }> {
  const where = journalWhere([organizationId], type, range);
  const items = await db
    .select()
    .from(resourceJournal)
    .where(where)
    .orderBy(desc(resourceJournal.at), desc(resourceJournal.id))
    .limit(window.pageSize)
    .offset(window.offset);
  const [total] = await db.select({ value: entryCount }).from(resourceJournal).where(where);
  return { items, total: Number(total?.value ?? 0) };
}

/** The exact sum (as a BigInt) and count of the matching entries. */
export async function sumOf(
  db: Db,
  organizationIds: string[],
  type: ResourceType,
  range: Range,
): Promise<{ sum: bigint; count: number }> {
  if (organizationIds.length === 0) return { sum: 0n, count: 0 };
  const [row] = await db
    .select({ sum: exactSum, count: entryCount })
    .from(resourceJournal)
    .where(journalWhere(organizationIds, type, range));
  return { sum: BigInt(row?.sum ?? '0'), count: Number(row?.count ?? 0) };
}

/** Exact sums per resource type over the organizations (types without entries are absent). */
export async function sumsByType(
  db: Db,
  organizationIds: string[],
  range: Range = {},
): Promise<Map<ResourceType, bigint>> {
  if (organizationIds.length === 0) return new Map();
  const rows = await db
    .select({ type: resourceJournal.resourceType, sum: exactSum })
    .from(resourceJournal)
    .where(journalWhere(organizationIds, undefined, range))
    .groupBy(resourceJournal.resourceType);
  return new Map(rows.map((row) => [row.type, BigInt(row.sum)]));
}

/** Exact sums and counts per resource type and UTC bucket key (`YYYY-MM-DD` or `YYYY-MM`) within the range. */
export async function bucketSums(
  db: Db,
  organizationId: string,
  type: ResourceType | undefined,
  bucket: 'day' | 'month',
  range: Required<Range>,
): Promise<{ type: ResourceType; key: string; sum: bigint; count: number }[]> {
  const format = bucket === 'day' ? 'YYYY-MM-DD' : 'YYYY-MM';
  // The format is one of two constants, inlined so GROUP BY sees the same expression as SELECT.
  const key = sql<string>`to_char(${resourceJournal.at} at time zone 'UTC', ${sql.raw(`'${format}'`)})`;
  const rows = await db
    .select({ type: resourceJournal.resourceType, key, sum: exactSum, count: entryCount })
    .from(resourceJournal)
    .where(journalWhere([organizationId], type, range))
    .groupBy(resourceJournal.resourceType, key);
  return rows.map((row) => ({
    type: row.type,
    key: row.key,
    sum: BigInt(row.sum),
    count: Number(row.count),
  }));
}

/**
 * What the ACTIVE (and not yet past their expiry) licences of the organization grant, per resource type:
 * Σ licence quantity × product version quantity, exact.
 */
export async function allowances(
  db: Db,
  organizationId: string,
  now: Date,
): Promise<Map<ResourceType, bigint>> {
  const granted = sql<string>`sum(${licenses.quantity}::numeric * ${productVersions.quantity}::numeric)::text`;
  const rows = await db
    .select({ type: products.resourceType, granted })
    .from(licenses)
    .innerJoin(products, eq(products.id, licenses.productId))
    .innerJoin(
      productVersions,
      and(
        eq(productVersions.productId, licenses.productId),
        eq(productVersions.version, licenses.productVersion),
      ),
    )
    .where(
      and(
        eq(licenses.organizationId, organizationId),
        eq(licenses.status, 'ACTIVE'),
        sql`(${licenses.expiresAt} is null or ${licenses.expiresAt} > ${now})`,
      ),
    )
    .groupBy(products.resourceType);
  return new Map(rows.map((row) => [row.type, BigInt(row.granted)]));
}

export type OrgRow = Pick<typeof organizations.$inferSelect, 'id' | 'name' | 'parentId' | 'hasOwnResources'>;

const orgColumns = {
  id: organizations.id,
  name: organizations.name,
  parentId: organizations.parentId,
  hasOwnResources: organizations.hasOwnResources,
};

export async function findOrg(db: Db, id: string): Promise<OrgRow | undefined> {
  const [row] = await db.select(orgColumns).from(organizations).where(eq(organizations.id, id));
  return row;
}

export async function childrenOf(db: Db, id: string): Promise<OrgRow[]> {
  return db
    .select(orgColumns)
    .from(organizations)
    .where(eq(organizations.parentId, id))
    .orderBy(organizations.name);
}

/** The organizations below `rootId` that draw on its allowances: reached through hasOwnResources=false only. */
export async function pooledBelow(db: Db, rootId: string): Promise<string[]> {
  const result = await db.execute(sql`
    with recursive pool(id) as (
      select id from organizations where parent_id = ${rootId} and has_own_resources = false
      union
      select o.id from organizations o join pool p on o.parent_id = p.id where o.has_own_resources = false
    )
    select id from pool`);
  return rowsOf<{ id: string }>(result).map((row) => row.id);
}
