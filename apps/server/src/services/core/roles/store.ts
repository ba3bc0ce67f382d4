import { and, asc, count, desc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { escapeLike } from '../../../db/paging.ts';
import {
  applicationPermissions,
  groupMembers,
  groupRoles,
  memberships,
  type RoleKind,
  roles,
  userGroups,
  userRoles,
} from '../../../db/schema.ts';

export type RoleRow = typeof roles.$inferSelect;
export type NewRole = Omit<typeof roles.$inferInsert, 'id' | 'createdAt'>;
export type RoleChanges = Partial<Omit<NewRole, 'organizationId'>>;

export const ROLE_SORTS = { name: roles.name, kind: roles.kind, description: roles.description } as const;
export type RoleSort = keyof typeof ROLE_SORTS;

export type RoleCriteria = {
  organizationId: string;
  search?: string;
  kind?: RoleKind;
  sort: RoleSort;
  order: 'asc' | 'desc';
  page: number;
  pageSize: number;
};

export async function listRoles(db: Db, criteria: RoleCriteria): Promise<{ rows: RoleRow[]; total: number }> {
  const filters: SQL[] = [eq(roles.organizationId, criteria.organizationId)];
  if (criteria.search) {
    const pattern = `%${escapeLike(criteria.search)}%`;
    const match = or(ilike(roles.name, pattern), ilike(roles.description, pattern));
    if (match) filters.push(match);
  }
  if (criteria.kind) filters.push(eq(roles.kind, criteria.kind));
  const where = and(...filters);
  const column = ROLE_SORTS[criteria.sort];
  const rows = await db
    .select()
    .from(roles)
    .where(where)
    .orderBy(criteria.order === 'desc' ? desc(column) : asc(column), asc(roles.id))
    .limit(criteria.pageSize)
    .offset(criteria.page * criteria.pageSize);
  const [total] = await db.select({ value: count() }).from(roles).where(where);
  return { rows, total: total?.value ?? 0 };
}

export async function findRole(db: Db, organizationId: string, id: string): Promise<RoleRow | undefined> {
  const [row] = await db
    .select()
    .from(roles)
    .where(and(eq(roles.organizationId, organizationId), eq(roles.id, id)));
  return row;
}

export async function findRoleByName(db: Db, organizationId: string, name: string) {
  const [row] = await db
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.organizationId, organizationId), eq(roles.name, name)));
  return row;
}

/** The roles among `ids` that belong to the organization. */
export async function rolesOfOrganization(db: Db, organizationId: string, ids: string[]): Promise<RoleRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(roles)
    .where(and(eq(roles.organizationId, organizationId), inArray(roles.id, ids)));
}

export async function insertRole(db: Db, values: NewRole): Promise<RoleRow> {
  const [row] = await db.insert(roles).values(values).returning();
  if (!row) throw new Error('role insert returned nothing');
  return row;
}

export async function updateRole(
  db: Db,
  organizationId: string,
  id: string,
  changes: RoleChanges,
): Promise<RoleRow | undefined> {
  if (Object.keys(changes).length === 0) return findRole(db, organizationId, id);
  const [row] = await db
    .update(roles)
    .set(changes)
    .where(and(eq(roles.organizationId, organizationId), eq(roles.id, id)))
    .returning();
  return row;
}

export async function deleteRole(db: Db, organizationId: string, id: string): Promise<boolean> {
  const deleted = await db
    .delete(roles)
    .where(and(eq(roles.organizationId, organizationId), eq(roles.id, id)))
    .returning({ id: roles.id });
  return deleted.length > 0;
}

export type Usage = { users: number; groups: number };

/** How many users hold each role directly and how many groups give it (as group role or member role). */
export async function usageOf(db: Db, roleIds: string[]): Promise<Map<string, Usage>> {
  const usage = new Map<string, Usage>(roleIds.map((id) => [id, { users: 0, groups: 0 }]));
  if (roleIds.length === 0) return usage;
  const direct = await db
    .select({ roleId: userRoles.roleId, value: count() })
    .from(userRoles)
    .where(inArray(userRoles.roleId, roleIds))
    .groupBy(userRoles.roleId);
  for (const row of direct) {
    const entry = usage.get(row.roleId);
    if (entry) entry.users = row.value;
  }
  const asGroupRole = await db
    .select({ roleId: groupRoles.roleId, groupId: groupRoles.groupId })
    .from(groupRoles)
    .where(inArray(groupRoles.roleId, roleIds));
  const asMemberRole = await db
    .selectDistinct({ roleId: groupMembers.roleId, groupId: groupMembers.groupId })
    .from(groupMembers)
    .where(inArray(groupMembers.roleId, roleIds));
  const groups = new Map<string, Set<string>>();
  for (const row of [...asGroupRole, ...asMemberRole]) {
    if (!row.roleId) continue;
    const set = groups.get(row.roleId) ?? new Set<string>();
    set.add(row.groupId);
    groups.set(row.roleId, set);
  }
  for (const [roleId, set] of groups) {
    const entry = usage.get(roleId);
    if (entry) entry.groups = set.size;
  }
  return usage;
}

/** The members among `userIds` of the organization. */
export async function membersAmong(db: Db, organizationId: string, userIds: string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), inArray(memberships.userId, userIds)));
  return new Set(rows.map((row) => row.userId));
}

/** The ids among `groupIds` that are groups of the organization. */
export async function groupsOfOrganization(
  db: Db,
  organizationId: string,
  groupIds: string[],
): Promise<Set<string>> {
  if (groupIds.length === 0) return new Set();
  const rows = await db
    .select({ id: userGroups.id })
    .from(userGroups)
    .where(and(eq(userGroups.organizationId, organizationId), inArray(userGroups.id, groupIds)));
  return new Set(rows.map((row) => row.id));
}

/** Where a user's roles in one organization come from: direct grants and group memberships. */
export type Holdings = {
  directRoleIds: string[];
  /** Group id -> the role the user carries as member there (or null). */
  groups: Map<string, string | null>;
};

export async function holdingsIn(db: Db, organizationId: string, userId: string): Promise<Holdings> {
  const direct = await db
    .select({ roleId: userRoles.roleId })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(and(eq(userRoles.userId, userId), eq(roles.organizationId, organizationId)));
  const groups = await db
    .select({ groupId: groupMembers.groupId, roleId: groupMembers.roleId })
    .from(groupMembers)
    .innerJoin(userGroups, eq(userGroups.id, groupMembers.groupId))
    .where(and(eq(groupMembers.userId, userId), eq(userGroups.organizationId, organizationId)));
  return {
    directRoleIds: direct.map((row) => row.roleId),
    groups: new Map(groups.map((row) => [row.groupId, row.roleId])),
  };
}

/** The roles the groups give their members. */
export async function roleIdsOfGroups(db: Db, groupIds: string[]): Promise<string[]> {
  if (groupIds.length === 0) return [];
  const rows = await db
    .select({ roleId: groupRoles.roleId })
    .from(groupRoles)
    .where(inArray(groupRoles.groupId, groupIds));
  return rows.map((row) => row.roleId);
}

export type CataloguePage = { rows: (typeof applicationPermissions.$inferSelect)[]; total: number };

export async function catalogue(db: Db, page: number, pageSize: number): Promise<CataloguePage> {
  const rows = await db
    .select()
    .from(applicationPermissions)
    .orderBy(asc(applicationPermissions.name))
    .limit(pageSize)
    .offset(page * pageSize);
  const [total] = await db.select({ value: count() }).from(applicationPermissions);
  return { rows, total: total?.value ?? 0 };
}

export async function catalogueEntries(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(applicationPermissions)
    .where(inArray(applicationPermissions.id, ids))
    .orderBy(asc(applicationPermissions.name));
}
