import type { CorePaths, OkBody } from '@edgeport/api-client';
import { answer, bearer, coreClient } from '../../shared/http/clients.ts';
import type { PageRequest } from '../../shared/ui/DataTable.tsx';

const USERS = '/svc/core/api/v1/organizations/{org}/users';
const USER = '/svc/core/api/v1/organizations/{org}/users/{id}';
const USER_POLICIES = '/svc/core/api/v1/organizations/{org}/users/{id}/securityPolicies';
const USER_POLICY_IDS = '/svc/core/api/v1/organizations/{org}/users/{id}/securityPolicies/{ids}';
const POLICIES = '/svc/core/api/v1/organizations/{org}/securityPolicies';
const ROLES = '/svc/core/api/v1/organizations/{org}/roles';
const GROUPS = '/svc/core/api/v1/organizations/{org}/userGroups';
const INVITATIONS = '/svc/core/api/v1/organizations/{org}/invitations';
const INVITATION = '/svc/core/api/v1/organizations/{org}/invitations/{id}';
const API_KEYS = '/svc/core/api/v1/organizations/{org}/apiKeys';
const API_KEY = '/svc/core/api/v1/organizations/{org}/apiKeys/{id}';

export type UserPage = OkBody<CorePaths, typeof USERS, 'get'>;
export type User = OkBody<CorePaths, typeof USER, 'get'>;
export type UserPolicy = OkBody<CorePaths, typeof USER_POLICIES, 'get'>[number];
export type PolicyOption = OkBody<CorePaths, typeof POLICIES, 'get'>['items'][number];
export type RoleOption = OkBody<CorePaths, typeof ROLES, 'get'>['items'][number];
export type GroupOption = OkBody<CorePaths, typeof GROUPS, 'get'>['items'][number];
export type ApiKey = OkBody<CorePaths, typeof API_KEYS, 'get'>[number];
export type Invitation = OkBody<CorePaths, typeof INVITATION, 'get'>;

type Locale = 'en-US' | 'de-DE' | 'es-ES' | 'fr-FR' | 'it-IT';
export type InviteInput = {
  email: string;
  firstName?: string;
  lastName?: string;
  roleIds?: string[];
  groupIds?: string[];
  locale?: Locale;
};
export type UserChanges = {
  email?: string;
  firstName?: string;
  lastName?: string;
  enabled?: boolean;
  groupPoliciesEnabled?: boolean;
  passwordChangeInvitation?: boolean;
};

export function fetchUsers(token: string, org: string, request: PageRequest, signal?: AbortSignal) {
  return answer(
    coreClient.GET(USERS, { params: { path: { org }, query: request }, headers: bearer(token), signal }),
  );
}

export function fetchUser(token: string, org: string, id: string, signal?: AbortSignal): Promise<User> {
  return answer(coreClient.GET(USER, { params: { path: { org, id } }, headers: bearer(token), signal }));
}

/**
 * A new e-mail becomes a member at once (201); an existing account of the realm is someone else's and is only
 * invited (202): it joins when its owner accepts.
 */
export type InviteOutcome = { kind: 'member'; user: User } | { kind: 'invited'; invitation: Invitation };

export async function inviteUser(token: string, org: string, input: InviteInput): Promise<InviteOutcome> {
  const pending = coreClient.POST(USERS, { params: { path: { org } }, body: input, headers: bearer(token) });
  const body = await answer(pending);
  const { response } = await pending;
  return response.status === 202
    ? { kind: 'invited', invitation: body as Invitation }
    : { kind: 'member', user: body as User };
}

/** Pending invitations of existing accounts, oldest first (the first 1000). */
export async function fetchInvitations(token: string, org: string, signal?: AbortSignal) {
  const page = await answer(
    coreClient.GET(INVITATIONS, {
      params: { path: { org }, query: { pageSize: 1000 } },
      headers: bearer(token),
      signal,
    }),
  );
  return page.items;
}

export async function revokeInvitation(token: string, org: string, id: string): Promise<void> {
  await answer(coreClient.DELETE(INVITATION, { params: { path: { org, id } }, headers: bearer(token) }));
}

export function updateUser(token: string, org: string, id: string, changes: UserChanges): Promise<User> {
  return answer(
    coreClient.PUT(USER, { params: { path: { org, id } }, body: changes, headers: bearer(token) }),
  );
}

export async function deleteUser(token: string, org: string, id: string): Promise<void> {
  await answer(coreClient.DELETE(USER, { params: { path: { org, id } }, headers: bearer(token) }));
}

export function fetchUserPolicies(token: string, org: string, id: string, signal?: AbortSignal) {
  return answer(
    coreClient.GET(USER_POLICIES, { params: { path: { org, id } }, headers: bearer(token), signal }),
  );
}

export function changeUserPolicies(
  token: string,
  org: string,
  id: string,
  policyIds: string[],
  change: 'assign' | 'unassign',
): Promise<UserPolicy[]> {
  const options = { params: { path: { org, id, ids: policyIds.join(',') } }, headers: bearer(token) };
  return answer(
    change === 'assign'
      ? coreClient.POST(USER_POLICY_IDS, options)
      : coreClient.DELETE(USER_POLICY_IDS, options),
  );
}

/** Everything a picker offers, first 1000 by name (roles, groups, policy groups of one organization). */
const PICKER_QUERY = { page: 0, pageSize: 1000, sort: 'name', order: 'asc' } as const;

export async function fetchPolicyOptions(token: string, org: string, signal?: AbortSignal) {
  const page = await answer(
    coreClient.GET(POLICIES, {
      params: { path: { org }, query: PICKER_QUERY },
      headers: bearer(token),
      signal,
    }),
  );
  return page.items;
}

export async function fetchRoleOptions(token: string, org: string, signal?: AbortSignal) {
  const page = await answer(
    coreClient.GET(ROLES, { params: { path: { org }, query: PICKER_QUERY }, headers: bearer(token), signal }),
  );
  return page.items;
}

export async function fetchGroupOptions(token: string, org: string, signal?: AbortSignal) {
  const page = await answer(
    coreClient.GET(GROUPS, {
      params: { path: { org }, query: PICKER_QUERY },
      headers: bearer(token),
      signal,
    }),
  );
  return page.items;
}

export function fetchApiKeys(token: string, org: string, username: string, signal?: AbortSignal) {
  return answer(
    coreClient.GET(API_KEYS, {
      params: { path: { org }, query: { username } },
      headers: bearer(token),
      signal,
    }),
  );
}

/** A new key; the answer carries the secret, which is never shown again. */
export function createApiKey(
  token: string,
  org: string,
  input: { name: string; username: string; expiresAt?: string },
) {
  return answer(
    coreClient.POST(API_KEYS, { params: { path: { org } }, body: input, headers: bearer(token) }),
  );
}

export type CreatedApiKey = Awaited<ReturnType<typeof createApiKey>>;

export async function deleteApiKey(token: string, org: string, id: string): Promise<void> {
  await answer(coreClient.DELETE(API_KEY, { params: { path: { org, id } }, headers: bearer(token) }));
}
