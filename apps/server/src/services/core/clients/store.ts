import type { common } from '@edgeport/contract';
import { and, count, eq, ilike, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { containsPattern, fetchPage, orderOf, pageWindow } from '../../../db/paging.ts';
import { serviceClients } from '../../../db/schema.ts';

export type ClientRow = typeof serviceClients.$inferSelect;

const SORT_COLUMNS = { name: serviceClients.name, createdAt: serviceClients.createdAt };

export async function pageOfClients(db: Db, organizationId: string, query: common.PageQuery) {
  const window = pageWindow(query);
  const conditions: SQL[] = [eq(serviceClients.organizationId, organizationId)];
  if (query.search?.trim()) conditions.push(ilike(serviceClients.name, containsPattern(query.search)));
  const where = and(...conditions);
  const order = orderOf(query, SORT_COLUMNS, 'name', serviceClients.id);
  return fetchPage(
    window,
    db
      .select()
      .from(serviceClients)
      .where(where)
      .orderBy(...order)
      .offset(window.offset)
      .limit(window.pageSize),
    db.select({ total: count() }).from(serviceClients).where(where),
  );
}

export async function findClient(db: Db, organizationId: string, id: string): Promise<ClientRow | undefined> {
  const [row] = await db
    .select()
    .from(serviceClients)
    .where(and(eq(serviceClients.organizationId, organizationId), eq(serviceClients.id, id)));
  return row;
}

export async function nameTaken(db: Db, organizationId: string, name: string): Promise<boolean> {
  const [row] = await db
    .select({ id: serviceClients.id })
    .from(serviceClients)
    .where(and(eq(serviceClients.organizationId, organizationId), eq(serviceClients.name, name)));
  return row !== undefined;
}

export async function insertClient(db: Db, organizationId: string, name: string): Promise<ClientRow> {
  const [row] = await db.insert(serviceClients).values({ organizationId, name }).returning();
  if (!row) throw new Error('service client insert returned nothing');
  return row;
}

export async function deleteClient(db: Db, organizationId: string, id: string): Promise<void> {
  await db
    .delete(serviceClients)
    .where(and(eq(serviceClients.organizationId, organizationId), eq(serviceClients.id, id)));
}

export async function setSecret(
  db: Db,
  organizationId: string,
  id: string,
  secretHash: string,
  at: Date,
): Promise<ClientRow | undefined> {
  const [row] = await db
    .update(serviceClients)
    .set({ secretHash, secretCreatedAt: at })
    .where(and(eq(serviceClients.organizationId, organizationId), eq(serviceClients.id, id)))
    .returning();
  return row;
}
