import { and, asc, count, desc, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { escapeLike } from '../../../db/paging.ts';
import { groupMembers, groupRoles, roles, userGroups, users } from '../../../db/schema.ts';

export type GroupRow = typeof userGroups.$inferSelect;
export type RoleRef = { id: string; name: string };

const memberCount = sql<number>`(select count(*)::int from ${groupMembers} where ${groupMembers.groupId} = ${userGroups.id})`;

export const GROUP_SORTS = {
  name: userGroups.name,
  description: userGroups.description,
  memberCount,
} as const;
export type GroupSort = keyof typeof GROUP_SORTS;

export type PageCriteria<Sort> = {
  search?: string;
  sort: Sort;
  order: 'asc' | 'desc';
  page: number;
  pageSize: number;
};

export type GroupWithCount = GroupRow & { memberCount: number };

export async function listGroups(
  db: Db,
  organizationId: string,
  criteria: PageCriteria<GroupSort>,
): Promise<{ rows: GroupWithCount[]; total: number }> {
  const filters: SQL[] = [eq(userGroups.organizationId, organizationId)];
  if (criteria.search) filters.push(ilike(userGroups.name, `%${escapeLike(criteria.search)}%`));
  const where = and(...filters);
  const column = GROUP_SORTS[criteria.sort];
  const rows = await db
    .select({
      id: userGroups.id,
      organizationId: userGroups.organizationId,
      name: userGroups.name,
      description: userGroups.description,
      createdAt: userGroups.createdAt,
      memberCount,
    })
    .from(userGroups)
    .where(where)
    .orderBy(criteria.order === 'desc' ? desc(column) : asc(column), asc(userGroups.id))
    .limit(criteria.pageSize)
    .offset(criteria.page * criteria.pageSize);
  const [total] = await db.select({ value: count() }).from(userGroups).where(where);
  return {
    rows: rows.map((row) => ({ ...row, memberCount: Number(row.memberCount) })),
    total: total?.value ?? 0,
  };
}

export async function findGroup(
  db: Db,
  organizationId: string,
  id: string,
): Promise<GroupWithCount | undefined> {
  const [row] = await db
    .select({
      id: userGroups.id,
      organizationId: userGroups.organizationId,
      name: userGroups.name,
      description: userGroups.description,
      createdAt: userGroups.createdAt,
      memberCount,
    })
    .from(userGroups)
    .where(and(eq(userGroups.organizationId, organizationId), eq(userGroups.id, id)));
  return row ? { ...row, memberCount: Number(row.memberCount) } : undefined;
}

export async function findGroupByName(db: Db, organizationId: string, name: string) {
  const [row] = await db
    .select({ id: userGroups.id })
    .from(userGroups)
    .where(and(eq(userGroups.organizationId, organizationId), eq(userGroups.name, name)));
  return row;
}

export async function insertGroup(
  db: Db,
  values: { organizationId: string; name: string; description: string },
): Promise<GroupRow> {
  const [row] = await db.insert(userGroups).values(values).returning();
  if (!row) throw new Error('group insert returned nothing');
  return row;
}

export async function updateGroup(
  db: Db,
  organizationId: string,
  id: string,
  changes: { name?: string; description?: string },
): Promise<boolean> {
  if (Object.keys(changes).length === 0) return true;
  const updated = await db
    .update(userGroups)
    .set(changes)
    .where(and(eq(userGroups.organizationId, organizationId), eq(userGroups.id, id)))
    .returning({ id: userGroups.id });
  return updated.length > 0;
}

export async function deleteGroup(db: Db, organizationId: string, id: string): Promise<boolean> {
  const deleted = await db
    .delete(userGroups)
    .where(and(eq(userGroups.organizationId, organizationId), eq(userGroups.id, id)))
    .returning({ id: userGroups.id });
  return deleted.length > 0;
}

/** The roles each group gives its members, by group id. */
export async function rolesOfGroups(db: Db, groupIds: string[]): Promise<Map<string, RoleRef[]>> {
  const byGroup = new Map<string, RoleRef[]>(groupIds.map((id) => [id, []]));
  if (groupIds.length === 0) return byGroup;
  const rows = await db
    .select({ groupId: groupRoles.groupId, id: roles.id, name: roles.name })
    .from(groupRoles)
    .innerJoin(roles, eq(roles.id, groupRoles.roleId))
    .where(inArray(groupRoles.groupId, groupIds))
    .orderBy(asc(roles.name));
  for (const row of rows) byGroup.get(row.groupId)?.push({ id: row.id, name: row.name });
  return byGroup;
}

export const MEMBER_SORTS = {
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
} as const;
export type MemberSort = keyof typeof MEMBER_SORTS;

function memberSearch(search: string | undefined): SQL | undefined {
  if (!search) return undefined;
  const pattern = `%${escapeLike(search)}%`;
  return or(ilike(users.email, pattern), ilike(users.firstName, pattern), ilike(users.lastName, pattern));
}

const memberColumns = {
  userId: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  roleId: roles.id,
  roleName: roles.name,
};

export type MemberRow = {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  roleId: string | null;
  roleName: string | null;
};

export async function listMembers(
  db: Db,
  groupIds: string[],
  criteria: PageCriteria<MemberSort>,
): Promise<{ rows: (MemberRow & { groupId: string; groupName: string })[]; total: number }> {
  if (groupIds.length === 0) return { rows: [], total: 0 };
  const where = and(inArray(groupMembers.groupId, groupIds), memberSearch(criteria.search));
  const column = MEMBER_SORTS[criteria.sort];
  const rows = await db
    .select({ ...memberColumns, groupId: userGroups.id, groupName: userGroups.name })
    .from(groupMembers)
    .innerJoin(users, eq(users.id, groupMembers.userId))
    .innerJoin(userGroups, eq(userGroups.id, groupMembers.groupId))
    .leftJoin(roles, eq(roles.id, groupMembers.roleId))
    .where(where)
    .orderBy(criteria.order === 'desc' ? desc(column) : asc(column), asc(userGroups.name), asc(users.id))
    .limit(criteria.pageSize)
    .offset(criteria.page * criteria.pageSize);
  const [total] = await db
    .select({ value: count() })
    .from(groupMembers)
    .innerJoin(users, eq(users.id, groupMembers.userId))
    .where(where);
  return { rows, total: total?.value ?? 0 };
}

export async function findMember(db: Db, groupId: string, userId: string): Promise<MemberRow | undefined> {
  const [row] = await db
    .select(memberColumns)
    .from(groupMembers)
    .innerJoin(users, eq(users.id, groupMembers.userId))
    .leftJoin(roles, eq(roles.id, groupMembers.roleId))
    .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId)));
  return row;
}

export async function upsertMember(db: Db, groupId: string, userId: string, roleId: string | null) {
  await db
    .insert(groupMembers)
    .values({ groupId, userId, roleId })
    .onConflictDoUpdate({ target: [groupMembers.groupId, groupMembers.userId], set: { roleId } });
}

export async function removeMember(db: Db, groupId: string, userId: string): Promise<boolean> {
  const deleted = await db
    .delete(groupMembers)
    .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId)))
    .returning({ userId: groupMembers.userId });
  return deleted.length > 0;
}

/** The ids of the organization's groups the user belongs to. */
export async function groupIdsOfUser(db: Db, organizationId: string, userId: string): Promise<string[]> {
  const rows = await db
    .select({ id: userGroups.id })
    .from(groupMembers)
    .innerJoin(userGroups, eq(userGroups.id, groupMembers.groupId))
    .where(and(eq(groupMembers.userId, userId), eq(userGroups.organizationId, organizationId)));
  return rows.map((row) => row.id);
}

/** Of `ids`, those naming a user group of the organization. */
export async function groupsOfOrganization(
  db: Db,
  organizationId: string,
  ids: string[],
): Promise<RoleRef[]> {
  if (ids.length === 0) return [];
  return db
    .select({ id: userGroups.id, name: userGroups.name })
    .from(userGroups)
    .where(and(eq(userGroups.organizationId, organizationId), inArray(userGroups.id, ids)));
}

export async function addGroupRoles(db: Db, groupId: string, roleIds: string[]) {
  if (roleIds.length === 0) return;
  await db
    .insert(groupRoles)
    .values(roleIds.map((roleId) => ({ groupId, roleId })))
    .onConflictDoNothing();
}

export async function removeGroupRoles(db: Db, groupId: string, roleIds: string[]) {
  if (roleIds.length === 0) return;
  await db
    .delete(groupRoles)
    .where(and(eq(groupRoles.groupId, groupId), inArray(groupRoles.roleId, roleIds)));
}
