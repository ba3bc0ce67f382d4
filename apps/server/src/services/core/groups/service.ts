import type { common, core } from '@edgeport/contract';
import { isUniqueViolation } from '../../../db/errors.ts';
import type { Db } from '../../../db/index.ts';
import { pageWindow, sortKey } from '../../../db/paging.ts';
import { badRequest, conflict, notFound } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { recordAudit } from '../../audit/service.ts';
import { authorizeInOrganization } from '../organizations/service.ts';
import { rolesAmong } from '../roles/service.ts';
import { isOrganizationMember } from '../users/service.ts';
import * as store from './store.ts';

type Organization = Awaited<ReturnType<typeof authorizeInOrganization>>;

function paging(query: common.PageQuery) {
  return {
    ...pageWindow(query),
    search: query.search?.trim() || undefined,
    order: query.order ?? 'asc',
  } as const;
}

function toGroup(row: store.GroupWithCount, roles: store.RoleRef[]): core.UserGroup {
  return { id: row.id, name: row.name, description: row.description, memberCount: row.memberCount, roles };
}

function toMember(row: store.MemberRow): core.UserGroupMember {
  return {
    userId: row.userId,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    role: row.roleId !== null && row.roleName !== null ? { id: row.roleId, name: row.roleName } : null,
  };
}

async function groupIn(db: Db, org: Organization, id: string): Promise<store.GroupWithCount> {
  const row = await store.findGroup(db, org.id, id);
  if (!row) throw notFound(`group '${id}' not found in this organization`);
  return row;
}

async function present(db: Db, row: store.GroupWithCount): Promise<core.UserGroup> {
  return toGroup(row, (await store.rolesOfGroups(db, [row.id])).get(row.id) ?? []);
}

async function ensureNameFree(db: Db, org: Organization, name: string, except?: string) {
  const existing = await store.findGroupByName(db, org.id, name);
  if (existing && existing.id !== except)
    throw conflict(`a group named '${name}' already exists in this organization`);
}

export async function listGroups(db: Db, principal: Principal, ref: string, query: common.PageQuery) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'usergroups');
  const { page, pageSize, search, order } = paging(query);
  const sort = sortKey(query.sort, Object.keys(store.GROUP_SORTS) as store.GroupSort[], 'name');
  const { rows, total } = await store.listGroups(db, org.id, { search, sort, order, page, pageSize });
  const roles = await store.rolesOfGroups(
    db,
    rows.map((row) => row.id),
  );
  return { items: rows.map((row) => toGroup(row, roles.get(row.id) ?? [])), total, page, pageSize };
}

export async function getGroup(db: Db, principal: Principal, ref: string, id: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'usergroups');
  return present(db, await groupIn(db, org, id));
}

export async function createGroup(db: Db, principal: Principal, ref: string, input: core.UserGroupCreate) {
  const org = await authorizeInOrganization(db, principal, ref, 'CREATE', 'usergroups');
  const name = input.name.trim();
  await ensureNameFree(db, org, name);
  let row: store.GroupRow;
  try {
    row = await store.insertGroup(db, { organizationId: org.id, name, description: input.description ?? '' });
  } catch (error) {
    if (isUniqueViolation(error))
      throw conflict(`a group named '${name}' already exists in this organization`);
    throw error;
  }
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'usergroups.create',
    resourceType: 'usergroups',
    resourceId: row.id,
    resourceName: row.name,
  });
  return toGroup({ ...row, memberCount: 0 }, []);
}

export async function updateGroup(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
  input: core.UserGroupUpdate,
) {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'usergroups');
  const before = await groupIn(db, org, id);
  const changes: { name?: string; description?: string } = {};
  if (input.name !== undefined) changes.name = input.name.trim();
  if (input.description !== undefined) changes.description = input.description;
  if (changes.name !== undefined) await ensureNameFree(db, org, changes.name, id);
  try {
    if (!(await store.updateGroup(db, org.id, id, changes)))
      throw notFound(`group '${id}' not found in this organization`);
  } catch (error) {
    if (isUniqueViolation(error))
      throw conflict(`a group named '${changes.name}' already exists in this organization`);
    throw error;
  }
  const after = await groupIn(db, org, id);
  if (Object.keys(changes).length === 0) return present(db, after);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'usergroups.update',
    resourceType: 'usergroups',
    resourceId: id,
    resourceName: after.name,
    detail: {
      changed: Object.keys(changes),
      ...(after.name !== before.name && { previousName: before.name }),
    },
  });
  return present(db, after);
}

export async function deleteGroup(db: Db, principal: Principal, ref: string, id: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'DELETE', 'usergroups');
  const row = await groupIn(db, org, id);
  if (!(await store.deleteGroup(db, org.id, id)))
    throw notFound(`group '${id}' not found in this organization`);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'usergroups.delete',
    resourceType: 'usergroups',
    resourceId: id,
    resourceName: row.name,
    detail: { memberCount: row.memberCount },
  });
}

// --- members --------------------------------------------------------------------------------------------------

async function memberPage(db: Db, groupIds: string[], query: common.PageQuery) {
  const { page, pageSize, search, order } = paging(query);
  const sort = sortKey(query.sort, Object.keys(store.MEMBER_SORTS) as store.MemberSort[], 'email');
  const { rows, total } = await store.listMembers(db, groupIds, { search, sort, order, page, pageSize });
  return { rows, total, page, pageSize };
}

export async function listMembers(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
  query: common.PageQuery,
) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'usergroups');
  const group = await groupIn(db, org, id);
  const { rows, ...rest } = await memberPage(db, [group.id], query);
  return { items: rows.map(toMember), ...rest };
}

/** Members of the groups the caller belongs to in the organization (any member of it may ask). */
export async function listMyGroupMembers(db: Db, principal: Principal, ref: string, query: common.PageQuery) {
  const org = await authorizeInOrganization(db, principal, ref, 'ACCESS', 'portal');
  const groupIds = await store.groupIdsOfUser(db, org.id, principal.userId);
  const { rows, ...rest } = await memberPage(db, groupIds, query);
  return {
    items: rows.map(
      (row): core.MyGroupMember => ({ groupId: row.groupId, groupName: row.groupName, ...toMember(row) }),
    ),
    ...rest,
  };
}

async function roleOfOrganization(db: Db, org: Organization, roleId: string): Promise<store.RoleRef> {
  const [role] = await rolesAmong(db, org.id, [roleId]);
  if (!role) throw notFound(`role '${roleId}' not found in this organization`);
  return role;
}

export async function putMember(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
  userId: string,
  roleId: string | undefined,
) {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'usergroups');
  const group = await groupIn(db, org, id);
  if (!(await isOrganizationMember(db, org.id, userId)))
    throw notFound(`user '${userId}' is not a member of this organization`);
  const role = roleId === undefined ? null : await roleOfOrganization(db, org, roleId);
  const before = await store.findMember(db, group.id, userId);
  await store.upsertMember(db, group.id, userId, role?.id ?? null);
  const member = await store.findMember(db, group.id, userId);
  if (!member) throw notFound(`user '${userId}' is not a member of this group`);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: before ? 'usergroups.changeMemberRole' : 'usergroups.addMember',
    resourceType: 'usergroups',
    resourceId: group.id,
    resourceName: group.name,
    detail: {
      userId,
      email: member.email,
      role: role?.name ?? null,
      ...(before && { previousRole: before.roleName }),
    },
  });
  return toMember(member);
}

export async function deleteMember(db: Db, principal: Principal, ref: string, id: string, userId: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'usergroups');
  const group = await groupIn(db, org, id);
  const member = await store.findMember(db, group.id, userId);
  if (!member || !(await store.removeMember(db, group.id, userId)))
    throw notFound(`user '${userId}' is not a member of this group`);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'usergroups.removeMember',
    resourceType: 'usergroups',
    resourceId: group.id,
    resourceName: group.name,
    detail: { userId, email: member.email },
  });
}

// --- roles of a group -----------------------------------------------------------------------------------------

function parseRoleIds(joined: string): string[] {
  const ids = [...new Set(joined.split(',').map((id) => id.trim().toLowerCase()))];
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
  const bad = ids.find((id) => !UUID.test(id));
  if (bad !== undefined) throw badRequest(`params/roles: '${bad}' is not a role id`);
  return ids;
}

async function rolesAllOfOrganization(db: Db, org: Organization, joined: string): Promise<store.RoleRef[]> {
  const ids = parseRoleIds(joined);
  const found = await rolesAmong(db, org.id, ids);
  const known = new Set(found.map((role) => role.id));
  const missing = ids.find((roleId) => !known.has(roleId));
  if (missing !== undefined) throw notFound(`role '${missing}' not found in this organization`);
  return found;
}

export async function changeGroupRoles(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
  joined: string,
  change: 'add' | 'remove',
) {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'usergroups');
  const group = await groupIn(db, org, id);
  const roles = await rolesAllOfOrganization(db, org, joined);
  const roleIds = roles.map((role) => role.id);
  if (change === 'add') await store.addGroupRoles(db, group.id, roleIds);
  else await store.removeGroupRoles(db, group.id, roleIds);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: change === 'add' ? 'usergroups.addRoles' : 'usergroups.removeRoles',
    resourceType: 'usergroups',
    resourceId: group.id,
    resourceName: group.name,
    detail: { roles: roles.map((role) => role.name) },
  });
  return present(db, group);
}

/** Of `ids`, the user groups of the organization, by id and name (for other areas: the invitation of a user). */
export async function groupsAmong(db: Db, organizationId: string, ids: string[]) {
  return store.groupsOfOrganization(db, organizationId, ids);
}
