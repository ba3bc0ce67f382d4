import type { CorePaths, OkBody } from '@edgeport/api-client';
import { answer, bearer, coreClient } from '../../shared/http/clients.ts';
import type { PageRequest } from '../../shared/ui/DataTable.tsx';

const GROUPS = '/svc/core/api/v1/organizations/{org}/userGroups';
const GROUP = '/svc/core/api/v1/organizations/{org}/userGroups/{id}';
const MEMBERS = '/svc/core/api/v1/organizations/{org}/userGroups/{id}/members';
const MEMBER = '/svc/core/api/v1/organizations/{org}/userGroups/{id}/members/{user}';
const GROUP_ROLES = '/svc/core/api/v1/organizations/{org}/userGroups/{id}/roles/{roles}';
const USERS = '/svc/core/api/v1/organizations/{org}/users';
const ROLES = '/svc/core/api/v1/organizations/{org}/roles';

export type GroupPage = OkBody<CorePaths, typeof GROUPS, 'get'>;
export type Group = OkBody<CorePaths, typeof GROUP, 'get'>;
export type MemberPage = OkBody<CorePaths, typeof MEMBERS, 'get'>;
export type Member = MemberPage['items'][number];
export type UserOption = OkBody<CorePaths, typeof USERS, 'get'>['items'][number];
export type RoleOption = OkBody<CorePaths, typeof ROLES, 'get'>['items'][number];
export type GroupInput = { name: string; description: string };

export function fetchGroups(token: string, org: string, request: PageRequest, signal?: AbortSignal) {
  return answer(
    coreClient.GET(GROUPS, { params: { path: { org }, query: request }, headers: bearer(token), signal }),
  );
}

export function fetchGroup(token: string, org: string, id: string, signal?: AbortSignal): Promise<Group> {
  return answer(coreClient.GET(GROUP, { params: { path: { org, id } }, headers: bearer(token), signal }));
}

export function createGroup(token: string, org: string, input: GroupInput): Promise<Group> {
  return answer(coreClient.POST(GROUPS, { params: { path: { org } }, body: input, headers: bearer(token) }));
}

export function updateGroup(token: string, org: string, id: string, input: GroupInput): Promise<Group> {
  return answer(
    coreClient.PUT(GROUP, { params: { path: { org, id } }, body: input, headers: bearer(token) }),
  );
}

export async function deleteGroup(token: string, org: string, id: string): Promise<void> {
  await answer(coreClient.DELETE(GROUP, { params: { path: { org, id } }, headers: bearer(token) }));
}

export function fetchMembers(
  token: string,
  org: string,
  id: string,
  request: PageRequest,
  signal?: AbortSignal,
): Promise<MemberPage> {
  return answer(
    coreClient.GET(MEMBERS, {
      params: { path: { org, id }, query: request },
      headers: bearer(token),
      signal,
    }),
  );
}

/** Adds a member with a role (or none), or changes the role of a member already in the group. */
export function putMember(
  token: string,
  org: string,
  id: string,
  user: string,
  role: string | null,
): Promise<Member> {
  return answer(
    coreClient.POST(MEMBER, {
      params: { path: { org, id, user }, query: role ? { role } : {} },
      headers: bearer(token),
    }),
  );
}

export async function removeMember(token: string, org: string, id: string, user: string): Promise<void> {
  await answer(coreClient.DELETE(MEMBER, { params: { path: { org, id, user } }, headers: bearer(token) }));
}

export function addGroupRoles(token: string, org: string, id: string, roleIds: string[]): Promise<Group> {
  return answer(
    coreClient.POST(GROUP_ROLES, {
      params: { path: { org, id, roles: roleIds.join(',') } },
      headers: bearer(token),
    }),
  );
}

export function removeGroupRoles(token: string, org: string, id: string, roleIds: string[]): Promise<Group> {
  return answer(
    coreClient.DELETE(GROUP_ROLES, {
      params: { path: { org, id, roles: roleIds.join(',') } },
      headers: bearer(token),
    }),
  );
}

/** Members of the organization matching a search (the member picker). */
export async function searchUsers(
  token: string,
  org: string,
  search: string,
  signal?: AbortSignal,
): Promise<UserOption[]> {
  const page = await answer(
    coreClient.GET(USERS, {
      params: {
        path: { org },
        query: { page: 0, pageSize: 20, sort: 'email', ...(search.trim() ? { search: search.trim() } : {}) },
      },
      headers: bearer(token),
      signal,
    }),
  );
  return page.items;
}

/** The organization's roles for the role pickers (sorted by name). */
export async function fetchRoleOptions(
  token: string,
  org: string,
  signal?: AbortSignal,
): Promise<RoleOption[]> {
  const page = await answer(
    coreClient.GET(ROLES, {
      params: { path: { org }, query: { page: 0, pageSize: 1000, sort: 'name' } },
      headers: bearer(token),
      signal,
    }),
  );
  return page.items;
}
