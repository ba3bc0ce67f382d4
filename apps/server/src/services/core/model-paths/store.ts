import { and, asc, count, eq, ilike } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { containsPattern } from '../../../db/paging.ts';
import { modelPaths } from '../../../db/schema.ts';

/** The paths registered in the organization containing `search` (any case). */
export async function registeredPaths(db: Db, organizationId: string, search?: string): Promise<string[]> {
  const rows = await db
    .select({ path: modelPaths.path })
    .from(modelPaths)
    .where(
      and(
        eq(modelPaths.organizationId, organizationId),
        search ? ilike(modelPaths.path, containsPattern(search)) : undefined,
      ),
    )
    .orderBy(asc(modelPaths.path));
  return rows.map((row) => row.path);
}

export async function countRegistered(db: Db, organizationId: string): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(modelPaths)
    .where(eq(modelPaths.organizationId, organizationId));
  return row?.value ?? 0;
}

/** Registers `paths`, keeping those already there; answers the ones that were new. */
export async function registerPaths(db: Db, organizationId: string, paths: string[]): Promise<string[]> {
  const rows = await db
    .insert(modelPaths)
    .values(paths.map((path) => ({ organizationId, path })))
    .onConflictDoNothing()
    .returning({ path: modelPaths.path });
  return rows.map((row) => row.path);
}
