import type { core } from '@edgeport/contract';
import { asc, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../../db/index.ts';
import { containsPattern, pageWindow, sortKey } from '../../../db/paging.ts';
import { apps } from '../../../db/schema.ts';

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
  Partial<Pick<AppRow, 'description' | 'publisher'>>;

/** Registers an app, or updates the one with that id (demo seed and test fixtures). */
export async function upsertApp(db: Db, app: NewApp): Promise<AppRow> {
  const values = { description: '', publisher: '', ...app };
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
      },
    })
    .returning();
  if (!row) throw new Error(`app ${app.id} was not stored`);
  return row;
}
