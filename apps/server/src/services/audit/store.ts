import { and, asc, count, desc, eq, gte, ilike, like, lte, max, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { escapeLike } from '../../db/paging.ts';
import { auditLog } from '../../db/schema.ts';

export type NewAuditRecord = typeof auditLog.$inferInsert;
export type AuditRecord = typeof auditLog.$inferSelect;

export async function insertAuditRecord(db: Db, record: NewAuditRecord): Promise<void> {
  await db.insert(auditLog).values(record);
}

/** The filters of the log, already checked by the service. */
export type EntryCriteria = {
  organizationId: string;
  who?: string;
  /** Exact action, or an action prefix when it ends with a dot. */
  what?: string;
  resourceType?: string;
  resourceId?: string;
  from?: Date;
  to?: Date;
  search?: string;
  /** Only records up to this id (keeps a long export stable while new records arrive). */
  maxId?: number;
};

export type EntryOrder = { sort: 'at' | 'actorEmail' | 'action' | 'resourceType'; order: 'asc' | 'desc' };

const SORT_COLUMNS = {
  at: auditLog.at,
  actorEmail: auditLog.actorEmail,
  action: auditLog.action,
  resourceType: auditLog.resourceType,
} as const;

function where(criteria: EntryCriteria): SQL | undefined {
  const conditions: SQL[] = [eq(auditLog.organizationId, criteria.organizationId)];
  if (criteria.who) conditions.push(ilike(auditLog.actorEmail, `%${escapeLike(criteria.who)}%`));
  if (criteria.what) {
    conditions.push(
      criteria.what.endsWith('.')
        ? like(auditLog.action, `${escapeLike(criteria.what)}%`)
        : eq(auditLog.action, criteria.what),
    );
  }
  if (criteria.resourceType) conditions.push(eq(auditLog.resourceType, criteria.resourceType));
  if (criteria.resourceId) conditions.push(eq(auditLog.resourceId, criteria.resourceId));
  if (criteria.from) conditions.push(gte(auditLog.at, criteria.from));
  if (criteria.to) conditions.push(lte(auditLog.at, criteria.to));
  if (criteria.search) conditions.push(ilike(auditLog.resourceName, `%${escapeLike(criteria.search)}%`));
  if (criteria.maxId !== undefined) conditions.push(lte(auditLog.id, criteria.maxId));
  return and(...conditions);
}

function orderBy({ sort, order }: EntryOrder): SQL[] {
  const direction = order === 'asc' ? asc : desc;
  // The id breaks ties, so pages neither repeat nor skip records with equal sort values.
  if (sort === 'at') return [direction(auditLog.at), direction(auditLog.id)];
  return [direction(SORT_COLUMNS[sort]), desc(auditLog.at), desc(auditLog.id)];
}

export async function findEntries(
  db: Db,
  criteria: EntryCriteria,
  order: EntryOrder,
  offset: number,
  limit: number,
): Promise<AuditRecord[]> {
  return db
    .select()
    .from(auditLog)
    .where(where(criteria))
    .orderBy(...orderBy(order))
    .offset(offset)
    .limit(limit);
}

export async function countEntries(db: Db, criteria: EntryCriteria): Promise<number> {
  const [row] = await db.select({ total: count() }).from(auditLog).where(where(criteria));
  return row?.total ?? 0;
}

/** The newest record id of the organization (0 when its log is empty). */
export async function latestEntryId(db: Db, organizationId: string): Promise<number> {
  const [row] = await db
    .select({ id: max(auditLog.id) })
    .from(auditLog)
    .where(eq(auditLog.organizationId, organizationId));
  return Number(row?.id ?? 0);
}

const FACET_LIMIT = 500;

export async function distinctActions(db: Db, organizationId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ value: auditLog.action })
    .from(auditLog)
    .where(eq(auditLog.organizationId, organizationId))
    .orderBy(auditLog.action)
    .limit(FACET_LIMIT);
  return rows.map((row) => row.value);
}

export async function distinctResourceTypes(db: Db, organizationId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ value: auditLog.resourceType })
    .from(auditLog)
    .where(eq(auditLog.organizationId, organizationId))
    .orderBy(auditLog.resourceType)
    .limit(FACET_LIMIT);
  return rows.map((row) => row.value);
}
