import { eq } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { realms, themes } from '../../db/schema.ts';

export type ThemeRow = typeof themes.$inferSelect;

export async function themeOf(db: Db, organizationId: string): Promise<ThemeRow | undefined> {
  const [row] = await db.select().from(themes).where(eq(themes.organizationId, organizationId));
  return row;
}

/**
 * The theme of the realm's owner organization, which brands its login page and mails. A tenant sharing the realm
 * (self-onboarded) never does, whatever it saves: without an owner theme the realm has the default look.
 */
export async function themeOfRealm(db: Db, realm: string): Promise<ThemeRow | undefined> {
  const [row] = await db
    .select({ theme: themes })
    .from(realms)
    .innerJoin(themes, eq(themes.organizationId, realms.ownerOrganizationId))
    .where(eq(realms.name, realm));
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
