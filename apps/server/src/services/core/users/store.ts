import type { core } from '@edgeport/contract';
import { and, asc, count, desc, eq, ilike, inArray, like, notInArray, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { escapeLike } from '../../../db/paging.ts';
import {
  apiKeys,
  groupMembers,
  memberships,
  organizations,
  roles,
  securityPolicies,
  userGroups,
  userRoles,
  userSecurityPolicies,
  users,
} from '../../../db/schema.ts';
import { recordUsage, releaseUsage } from '../../license/subscriptions/journal.ts';

export type AccountRow = typeof users.$inferSelect;
export type NamedRow = { userId: string; id: string; name: string };

const SORT_COLUMNS = {
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  createdAt: users.createdAt,
} as const satisfies Record<core.UserSortField, unknown>;

/** `%`, `_` and `\` match themselves in a search. */
function likePattern(search: string): string {
  return `%${escapeLike(search)}%`;
}

function matches(search: string | undefined): SQL | undefined {
  const text = search?.trim();
  if (!text) return undefined;
  const pattern = likePattern(text);
  // E-mails are stored in lower case: a plain LIKE on them is cheaper than ILIKE.
  return or(
    like(users.email, likePattern(text.toLowerCase())),
    ilike(users.firstName, pattern),
    ilike(users.lastName, pattern),
  );
}

export type MemberPage = {
  search?: string;
  sort: core.UserSortField;
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
};

/**
 * One page of an organization's members and the number of all matching ones: at most two queries whatever the size. The
 * page is read from the realm's accounts in e-mail order (their unique index) filtered by membership, so early pages
 * stop after a few rows; without a search the count only touches the memberships' primary key, with one the count
 * comes with the page.
 */
export async function membersPage(db: Db, org: { id: string; realm: string }, page: MemberPage) {
  const members = db
    .select({ id: memberships.userId })
    .from(memberships)
    .where(eq(memberships.organizationId, org.id));
  const search = matches(page.search);
  const where = and(eq(users.realm, org.realm), inArray(users.id, members), search);
  const direction = page.order === 'desc' ? desc : asc;
  // E-mails are unique in a realm: they make every order total, so pages never overlap.
  const order =
    page.sort === 'email' ? [direction(users.email)] : [direction(SORT_COLUMNS[page.sort]), asc(users.email)];
  if (search) {
    // A search reads the matching rows once: the window count rides along with the page.
    const found = await db
      .select({ user: users, total: sql<number>`count(*) over ()`.mapWith(Number) })
      .from(users)
      .where(where)
      .orderBy(...order)
      .limit(page.limit)
      .offset(page.offset);
    if (found.length > 0 || page.offset === 0) {
      return { rows: found.map((row) => row.user), total: found[0]?.total ?? 0 };
    }
    const [beyond] = await db.select({ value: count() }).from(users).where(where);
    return { rows: [], total: beyond?.value ?? 0 };
  }
  const rows = await db
    .select()
    .from(users)
    .where(where)
    .orderBy(...order)
    .limit(page.limit)
    .offset(page.offset);
  const [total] = await db
    .select({ value: count() })
    .from(memberships)
    .where(eq(memberships.organizationId, org.id));
  return { rows, total: total?.value ?? 0 };
}

/** Direct roles of this organization held by the given users. */
export async function rolesOfUsers(db: Db, organizationId: string, userIds: string[]): Promise<NamedRow[]> {
  if (userIds.length === 0) return [];
  return db
    .select({ userId: userRoles.userId, id: roles.id, name: roles.name })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(and(eq(roles.organizationId, organizationId), inArray(userRoles.userId, userIds)))
    .orderBy(roles.name);
}

/** Groups of this organization the given users are members of. */
export async function groupsOfUsers(db: Db, organizationId: string, userIds: string[]): Promise<NamedRow[]> {
  if (userIds.length === 0) return [];
  return db
    .select({ userId: groupMembers.userId, id: userGroups.id, name: userGroups.name })
    .from(groupMembers)
    .innerJoin(userGroups, eq(userGroups.id, groupMembers.groupId))
    .where(and(eq(userGroups.organizationId, organizationId), inArray(groupMembers.userId, userIds)))
    .orderBy(userGroups.name);
}

/** The account, if it is a member of the organization. */
export async function findMember(db: Db, organizationId: string, userId: string) {
  const [row] = await db
    .select({ user: users })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
  return row?.user;
}

export async function findMemberByEmail(db: Db, organizationId: string, email: string) {
  const [row] = await db
    .select({ user: users })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.organizationId, organizationId), eq(users.email, email)));
  return row?.user;
}

export async function isMember(db: Db, organizationId: string, userId: string): Promise<boolean> {
  return (await findMember(db, organizationId, userId)) !== undefined;
}

/** Of `userIds`, the accounts that are members of an organization not among `organizationIds`. */
export async function membersElsewhere(
  db: Db,
  userIds: string[],
  organizationIds: string[],
): Promise<string[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .selectDistinct({ userId: memberships.userId })
    .from(memberships)
    .where(
      and(inArray(memberships.userId, userIds), notInArray(memberships.organizationId, organizationIds)),
    );
  return rows.map((row) => row.userId);
}

export async function findAccountByEmail(db: Db, realm: string, email: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.realm, realm), eq(users.email, email)));
  return row;
}

export type NewAccount = {
  realm: string;
  email: string;
  firstName: string;
  lastName: string;
  locale: string | null;
  requiredActions: string[];
};

export async function insertAccount(db: Db, account: NewAccount): Promise<AccountRow> {
  const [row] = await db
    .insert(users)
    .values({ ...account, passwordHash: null })
    .returning();
  if (!row) throw new Error('user insert returned nothing');
  return row;
}

/** Makes the account a member holding the roles directly and belonging to the groups (with no member role). */
export async function addMembership(
  db: Db,
  organizationId: string,
  userId: string,
  roleIds: string[],
  groupIds: string[],
): Promise<void> {
  const joined = await db
    .insert(memberships)
    .values({ organizationId, userId })
    .onConflictDoNothing()
    .returning({ userId: memberships.userId });
  if (joined.length > 0) {
    await recordUsage(db, {
      organizationId,
      resourceType: 'users',
      delta: 1,
      reason: 'user.joined',
      subjectId: userId,
    });
  }
  if (roleIds.length > 0) {
    await db
      .insert(userRoles)
      .values(roleIds.map((roleId) => ({ userId, roleId })))
      .onConflictDoNothing();
  }
  if (groupIds.length > 0) {
    await db
      .insert(groupMembers)
      .values(groupIds.map((groupId) => ({ groupId, userId, roleId: null })))
      .onConflictDoNothing();
  }
}

export async function updateAccount(
  db: Db,
  userId: string,
  changes: Partial<typeof users.$inferInsert>,
): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db.update(users).set(changes).where(eq(users.id, userId));
}

/**
 * Takes the account out of the organization: its direct roles there, its places in the organization's groups, its
 * security policies and API keys there, and the membership. Answers how many memberships the account has left.
 */
export async function removeMember(db: Db, organizationId: string, userId: string): Promise<number> {
  const orgRoles = db.select({ id: roles.id }).from(roles).where(eq(roles.organizationId, organizationId));
  const orgGroups = db
    .select({ id: userGroups.id })
    .from(userGroups)
    .where(eq(userGroups.organizationId, organizationId));
  const orgPolicies = db
    .select({ id: securityPolicies.id })
    .from(securityPolicies)
    .where(eq(securityPolicies.organizationId, organizationId));
  await db.delete(userRoles).where(and(eq(userRoles.userId, userId), inArray(userRoles.roleId, orgRoles)));
  await db
    .delete(groupMembers)
    .where(and(eq(groupMembers.userId, userId), inArray(groupMembers.groupId, orgGroups)));
  await db
    .delete(userSecurityPolicies)
    .where(and(eq(userSecurityPolicies.userId, userId), inArray(userSecurityPolicies.policyId, orgPolicies)));
  await db.delete(apiKeys).where(and(eq(apiKeys.userId, userId), eq(apiKeys.organizationId, organizationId)));
  await releaseUsage(db, {
    organizationId,
    resourceType: 'users',
    reason: 'user.removed',
    subjectId: userId,
  });
  await db
    .delete(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
  const [left] = await db.select({ value: count() }).from(memberships).where(eq(memberships.userId, userId));
  return left?.value ?? 0;
}

export async function deleteAccount(db: Db, userId: string): Promise<void> {
  await db.delete(users).where(eq(users.id, userId));
}

/** Members of any of the organizations matching the search; one row per membership. */
export async function searchMembers(
  db: Db,
  organizationIds: string[],
  search: string,
  limit: number,
  offset: number,
) {
  const where = and(inArray(memberships.organizationId, organizationIds), matches(search));
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: users.id,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
        enabled: users.enabled,
        organization: { id: organizations.id, name: organizations.name },
      })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
      .where(where)
      .orderBy(asc(users.email), asc(organizations.name), asc(organizations.id))
      .limit(limit)
      .offset(offset),
    db
      .select({ value: count() })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(where),
  ]);
  return { rows, total: total?.value ?? 0 };
}

/** The security policy groups of the organization assigned to the user. */
export async function policiesOfUser(db: Db, organizationId: string, userId: string) {
  return db
    .select({
      id: securityPolicies.id,
      name: securityPolicies.name,
      description: securityPolicies.description,
    })
    .from(userSecurityPolicies)
    .innerJoin(securityPolicies, eq(securityPolicies.id, userSecurityPolicies.policyId))
    .where(and(eq(userSecurityPolicies.userId, userId), eq(securityPolicies.organizationId, organizationId)))
    .orderBy(securityPolicies.name);
}

/** Of `ids`, those naming a security policy group of the organization. */
export async function policiesInOrganization(db: Db, organizationId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: securityPolicies.id })
    .from(securityPolicies)
    .where(and(eq(securityPolicies.organizationId, organizationId), inArray(securityPolicies.id, ids)));
}

export async function assignPolicies(db: Db, userId: string, policyIds: string[]): Promise<void> {
  if (policyIds.length === 0) return;
  await db
    .insert(userSecurityPolicies)
    .values(policyIds.map((policyId) => ({ userId, policyId })))
    .onConflictDoNothing();
}

export async function unassignPolicies(db: Db, userId: string, policyIds: string[]): Promise<void> {
  if (policyIds.length === 0) return;
  await db
    .delete(userSecurityPolicies)
    .where(and(eq(userSecurityPolicies.userId, userId), inArray(userSecurityPolicies.policyId, policyIds)));
}
