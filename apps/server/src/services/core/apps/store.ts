import type { core } from '@edgeport/contract';
import { and, asc, count, desc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../../db/index.ts';
import { containsPattern, pageWindow, sortKey } from '../../../db/paging.ts';
import { appLikes, apps } from '../../../db/schema.ts';

export type AppRow = typeof apps.$inferSelect;

const SORT_COLUMNS: Record<(typeof core.APP_SORT_KEYS)[number], AnyPgColumn> = {
  name: apps.name,
  publisher: apps.publisher,
  id: apps.id,
};

function searchCondition(search: string | undefined): SQL | undefined {
  if (!search?.trim()) return undefined;
  const pattern = containsPattern(search);
  return or(ilike(apps.name, pattern), ilike(apps.description, pattern), ilike(apps.publisher, pattern));
}

export async function listApps(db: Db, query: core.AppsQuery): Promise<{ rows: AppRow[]; total: number }> {
  const { pageSize, offset } = pageWindow(query);
  const key = sortKey(query.sort, Object.keys(SORT_COLUMNS) as (keyof typeof SORT_COLUMNS)[], 'name');
  const direction = query.order === 'desc' ? desc : asc;
  const where = searchCondition(query.search);
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(apps)
      .where(where)
      .orderBy(direction(SORT_COLUMNS[key]), direction(apps.id))
      .limit(pageSize)
      .offset(offset),
    db.select({ total: count() }).from(apps).where(where),
  ]);
  return { rows, total: counted?.total ?? 0 };
}

export async function findApp(db: Db, id: string): Promise<AppRow | undefined> {
  const [row] = await db.select().from(apps).where(eq(apps.id, id));
  return row;
}

/** Every registered entry address (the framing policy allows their origins). */
export async function entryUrls(db: Db): Promise<string[]> {
  return (await db.select({ entryUrl: apps.entryUrl }).from(apps)).map((row) => row.entryUrl);
}

export type NewApp = Pick<AppRow, 'id' | 'name' | 'entryUrl'> &
  Partial<Pick<AppRow, 'description' | 'publisher' | 'version' | 'plans'>>;

/** Registers an app, or updates the one with that id (demo seed and test fixtures). */
export async function upsertApp(db: Db, app: NewApp): Promise<AppRow> {
  const values = { description: '', publisher: '', version: '1.0.0', plans: [], ...app };
  const [row] = await db
    .insert(apps)
    .values(values)
    .onConflictDoUpdate({
      target: apps.id,
      set: {
        name: values.name,
        description: values.description,
        publisher: values.publisher,
        entryUrl: values.entryUrl,
        version: values.version,
        plans: values.plans,
      },
    })
    .returning();
  if (!row) throw new Error(`app ${app.id} was not stored`);
  return row;
}

/** Like counts of the given apps, and which of them `userId` likes. */
export async function likesOf(
  db: Db,
  appIds: string[],
  userId: string,
): Promise<{ counts: Map<string, number>; liked: Set<string> }> {
  if (appIds.length === 0) return { counts: new Map(), liked: new Set() };
  const [counted, mine] = await Promise.all([
    db
      .select({ appId: appLikes.appId, total: count() })
      .from(appLikes)
      .where(inArray(appLikes.appId, appIds))
      .groupBy(appLikes.appId),
    db
      .select({ appId: appLikes.appId })
      .from(appLikes)
      .where(and(inArray(appLikes.appId, appIds), eq(appLikes.userId, userId))),
  ]);
  return {
    counts: new Map(counted.map((row) => [row.appId, row.total])),
    liked: new Set(mine.map((row) => row.appId)),
  };
}

/** Adds the user's like (idempotent). */
export async function addLike(db: Db, appId: string, userId: string): Promise<boolean> {
  const rows = await db.insert(appLikes).values({ appId, userId }).onConflictDoNothing().returning();
  return rows.length > 0;
}

/** Removes the user's like (idempotent). */
export async function removeLike(db: Db, appId: string, userId: string): Promise<boolean> {
  const rows = await db
    .delete(appLikes)
    .where(and(eq(appLikes.appId, appId), eq(appLikes.userId, userId)))
    .returning();
  return rows.length > 0;
}
