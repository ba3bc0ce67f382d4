import { and, count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { apiKeys, memberships, users } from '../../../db/schema.ts';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

const listed = {
  id: apiKeys.id,
  name: apiKeys.name,
  prefix: apiKeys.prefix,
  userId: apiKeys.userId,
  username: users.email,
  createdAt: apiKeys.createdAt,
  expiresAt: apiKeys.expiresAt,
  lastUsedAt: apiKeys.lastUsedAt,
};

export type ListedApiKey = {
  id: string;
  name: string;
  prefix: string;
  userId: string;
  username: string;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
};

/** The member of the organization with this e-mail. */
export async function memberByEmail(db: Db, organizationId: string, email: string) {
  const [row] = await db
    .select({ id: users.id, email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.organizationId, organizationId), eq(users.email, email)));
  return row;
}

export async function keysOf(db: Db, organizationId: string, userId: string): Promise<ListedApiKey[]> {
  return db
    .select(listed)
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(and(eq(apiKeys.organizationId, organizationId), eq(apiKeys.userId, userId)))
    .orderBy(desc(apiKeys.createdAt));
}

export async function countKeys(db: Db, organizationId: string, userId: string): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.organizationId, organizationId), eq(apiKeys.userId, userId)));
  return row?.value ?? 0;
}

export async function insertKey(
  db: Db,
  key: Pick<ApiKeyRow, 'userId' | 'organizationId' | 'name' | 'prefix' | 'secretHash' | 'expiresAt'>,
): Promise<ApiKeyRow> {
  const [row] = await db.insert(apiKeys).values(key).returning();
  if (!row) throw new Error('api key insert returned nothing');
  return row;
}

/** The key, only if it belongs to the organization. */
export async function findKey(db: Db, organizationId: string, id: string): Promise<ListedApiKey | undefined> {
  const [row] = await db
    .select(listed)
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(and(eq(apiKeys.organizationId, organizationId), eq(apiKeys.id, id)));
  return row;
}

export async function deleteKey(db: Db, organizationId: string, id: string): Promise<void> {
  await db.delete(apiKeys).where(and(eq(apiKeys.organizationId, organizationId), eq(apiKeys.id, id)));
}
