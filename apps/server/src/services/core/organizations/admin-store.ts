import { and, count, eq, gt, inArray, isNull, lte } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { devices, importTokens, organizations } from '../../../db/schema.ts';
import type { OrganizationRow } from './store.ts';

/** Nesting limit of organizations (the permission token follows at most this many ancestors). */
export const MAX_ORGANIZATION_DEPTH = 30;

export async function organizationById(db: Db, id: string): Promise<OrganizationRow | undefined> {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, id));
  return row;
}

export async function childrenOf(db: Db, parentId: string): Promise<OrganizationRow[]> {
  return db
    .select()
    .from(organizations)
    .where(eq(organizations.parentId, parentId))
    .orderBy(organizations.name, organizations.id);
}

/** Every organization below `rootId`, level by level (parents before their children). */
export async function descendantsOf(db: Db, rootId: string): Promise<OrganizationRow[]> {
  const found: OrganizationRow[] = [];
  const seen = new Set([rootId]);
  let level = [rootId];
  while (level.length > 0 && found.length < 100_000) {
    const rows = await db
      .select()
      .from(organizations)
      .where(inArray(organizations.parentId, level))
      .orderBy(organizations.name, organizations.id);
    const fresh = rows.filter((row) => !seen.has(row.id));
    for (const row of fresh) seen.add(row.id);
    found.push(...fresh);
    level = fresh.map((row) => row.id);
  }
  return found;
}

export async function countChildren(db: Db, organizationId: string): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(organizations)
    .where(eq(organizations.parentId, organizationId));
  return row?.total ?? 0;
}

export async function countDevices(db: Db, organizationId: string): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(devices)
    .where(eq(devices.organizationId, organizationId));
  return row?.total ?? 0;
}

export async function countTopLevel(db: Db, realm: string): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(organizations)
    .where(and(eq(organizations.realm, realm), isNull(organizations.parentId)));
  return row?.total ?? 0;
}

export async function deleteOrganization(db: Db, id: string): Promise<void> {
  await db.delete(organizations).where(eq(organizations.id, id));
}

export async function setParent(db: Db, id: string, parentId: string): Promise<OrganizationRow | undefined> {
  const [row] = await db.update(organizations).set({ parentId }).where(eq(organizations.id, id)).returning();
  return row;
}

export async function insertImportToken(
  db: Db,
  token: { tokenHash: string; organizationId: string; createdBy: string | null; expiresAt: Date },
): Promise<void> {
  await db.delete(importTokens).where(lte(importTokens.expiresAt, new Date()));
  await db.insert(importTokens).values(token);
}

/** A token that has not expired, with the organization it moves things into. */
export async function findImportToken(db: Db, tokenHash: string) {
  const [row] = await db
    .select({ expiresAt: importTokens.expiresAt, organization: organizations })
    .from(importTokens)
    .innerJoin(organizations, eq(organizations.id, importTokens.organizationId))
    .where(and(eq(importTokens.tokenHash, tokenHash), gt(importTokens.expiresAt, new Date())));
  return row;
}

/** Uses the token up: answers whether it was still there and valid (only one caller ever gets true). */
export async function consumeImportToken(db: Db, tokenHash: string): Promise<boolean> {
  const rows = await db
    .delete(importTokens)
    .where(and(eq(importTokens.tokenHash, tokenHash), gt(importTokens.expiresAt, new Date())))
    .returning({ tokenHash: importTokens.tokenHash });
  return rows.length > 0;
}
