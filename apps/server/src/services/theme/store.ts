import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { organizations, themes } from '../../db/schema.ts';

export type ThemeRow = typeof themes.$inferSelect;

export async function themeOf(db: Db, organizationId: string): Promise<ThemeRow | undefined> {
  const [row] = await db.select().from(themes).where(eq(themes.organizationId, organizationId));
  return row;
}

/** The theme of a realm's first root organization, which brands its login page. */
export async function themeOfRealm(db: Db, realm: string): Promise<ThemeRow | undefined> {
  const [row] = await db
    .select({ theme: themes })
    .from(organizations)
    .innerJoin(themes, eq(themes.organizationId, organizations.id))
    .where(and(eq(organizations.realm, realm), isNull(organizations.parentId)))
    .orderBy(asc(organizations.createdAt))
    .limit(1);
  return row?.theme;
}

export async function saveTheme(
  db: Db,
  organizationId: string,
  theme: Omit<ThemeRow, 'organizationId' | 'updatedAt'>,
) {
  const values = { organizationId, ...theme, updatedAt: new Date() };
  const [row] = await db
    .insert(themes)
    .values(values)
    .onConflictDoUpdate({ target: themes.organizationId, set: values })
    .returning();
  if (!row) throw new Error('theme upsert returned nothing');
  return row;
}
