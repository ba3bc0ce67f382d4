import { and, eq, inArray, or } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { memberships, organizations, realms, users } from '../../../db/schema.ts';
import { isUuid } from '../../../db/uuid.ts';

export type OrganizationRow = typeof organizations.$inferSelect;

export async function findOrganization(
  db: Db,
  realm: string,
  ref: string,
): Promise<OrganizationRow | undefined> {
  const match = isUuid(ref)
    ? or(eq(organizations.id, ref), eq(organizations.resourceId, ref))
    : eq(organizations.resourceId, ref);
  const [row] = await db
    .select()
    .from(organizations)
    .where(and(eq(organizations.realm, realm), match));
  return row;
}

export async function organizationsOfMember(
  db: Db,
  realm: string,
  userId: string,
): Promise<OrganizationRow[]> {
  const direct = db
    .select({ id: memberships.organizationId })
    .from(memberships)
    .where(eq(memberships.userId, userId));
  return db
    .select()
    .from(organizations)
    .where(and(eq(organizations.realm, realm), inArray(organizations.id, direct)))
    .orderBy(organizations.name);
}

export async function childOrganizations(db: Db, parentIds: string[]): Promise<OrganizationRow[]> {
  if (parentIds.length === 0) return [];
  return db.select().from(organizations).where(inArray(organizations.parentId, parentIds));
}

export async function updateOrganization(
  db: Db,
  id: string,
  changes: Partial<Pick<OrganizationRow, 'name' | 'iotEnabled' | 'vpnEnabled'>>,
): Promise<OrganizationRow | undefined> {
  if (Object.keys(changes).length === 0) {
    const [row] = await db.select().from(organizations).where(eq(organizations.id, id));
    return row;
  }
  const [row] = await db.update(organizations).set(changes).where(eq(organizations.id, id)).returning();
  return row;
}

export async function realmsWithEmail(db: Db, email: string) {
  return db
    .select({ name: realms.name, displayName: realms.displayName })
    .from(realms)
    .innerJoin(users, eq(users.realm, realms.name))
    .where(eq(users.email, email))
    .orderBy(realms.name);
}

export async function findRealm(db: Db, name: string) {
  const [row] = await db.select().from(realms).where(eq(realms.name, name));
  return row;
}

/** The operator's organization of a realm (`realms.owner_organization_id`), if it has one. */
export async function realmOwnerId(db: Db, realm: string): Promise<string | null> {
  const [row] = await db
    .select({ owner: realms.ownerOrganizationId })
    .from(realms)
    .where(eq(realms.name, realm));
  return row?.owner ?? null;
}
