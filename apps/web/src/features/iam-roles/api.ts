import type { CorePaths, OkBody } from '@edgeport/api-client';
import { answer, bearer, coreClient } from '../../shared/http/clients.ts';
import type { PageRequest } from '../../shared/ui/DataTable.tsx';

const ROLES = '/svc/core/api/v1/organizations/{org}/roles';
const ROLE = '/svc/core/api/v1/organizations/{org}/roles/{id}';
const CATALOGUE = '/svc/core/api/v1/applicationpermissions/all';
const MODEL_PATHS = '/svc/core/api/v1/organizations/{org}/modelPaths';

export type RolePage = OkBody<CorePaths, typeof ROLES, 'get'>;
export type Role = OkBody<CorePaths, typeof ROLE, 'get'>;
export type RoleKind = Role['kind'];
export type RolePermission = Role['permissions'][number];
export type ModelPathPermission = Role['modelPathPermissions'][number];
export type DeviceAccess = Role['deviceAccess'];
export type ApplicationPermission = OkBody<CorePaths, typeof CATALOGUE, 'get'>['items'][number];

/** What the editor sends: every field of a role but its id and usage. */
export type RoleInput = Omit<Role, 'id' | 'usage'>;

export const ROLE_KINDS: readonly RoleKind[] = ['general', 'data', 'device'];

/** The route listing the roles of a kind (spec 2: /roles, /roles/data, /roles/device). */
export function rolesPathOf(kind: RoleKind): string {
  return kind === 'general' ? '/roles' : `/roles/${kind}`;
}

export function fetchRoles(
  token: string,
  org: string,
  request: PageRequest & { kind?: RoleKind },
  signal?: AbortSignal,
): Promise<RolePage> {
  return answer(
    coreClient.GET(ROLES, { params: { path: { org }, query: request }, headers: bearer(token), signal }),
  );
}

export function fetchRole(token: string, org: string, id: string, signal?: AbortSignal): Promise<Role> {
  return answer(coreClient.GET(ROLE, { params: { path: { org, id } }, headers: bearer(token), signal }));
}

export async function roleNameExists(token: string, org: string, name: string): Promise<boolean> {
  const { exists } = await answer(
    coreClient.GET('/svc/core/api/v1/organizations/{org}/roles/{id}/exists', {
      params: { path: { org, id: name } },
      headers: bearer(token),
    }),
  );
  return exists;
}

export function createRole(token: string, org: string, role: RoleInput): Promise<Role> {
  return answer(coreClient.POST(ROLES, { params: { path: { org } }, body: role, headers: bearer(token) }));
}

export function updateRole(token: string, org: string, id: string, role: RoleInput): Promise<Role> {
  return answer(coreClient.PUT(ROLE, { params: { path: { org, id } }, body: role, headers: bearer(token) }));
}

export async function deleteRole(token: string, org: string, id: string): Promise<void> {
  await answer(coreClient.DELETE(ROLE, { params: { path: { org, id } }, headers: bearer(token) }));
}

/** The whole application-permission catalogue (spec 9: 500 a page, by name). */
export async function fetchApplicationPermissions(
  token: string,
  signal?: AbortSignal,
): Promise<ApplicationPermission[]> {
  const pageSize = 500;
  const all: ApplicationPermission[] = [];
  for (let page = 0; page < 100; page++) {
    const result = await answer(
      coreClient.GET(CATALOGUE, { params: { query: { page, pageSize } }, headers: bearer(token), signal }),
    );
    all.push(...result.items);
    if (all.length >= result.total || result.items.length === 0) break;
  }
  return all;
}

/** The most suggestions the model path rows offer: one page of the organization's known paths. */
const MODEL_PATH_SUGGESTIONS = 1000;

/** The model paths known in the organization (registered or of its data models), sorted by path. */
export async function fetchKnownModelPaths(
  token: string,
  org: string,
  signal?: AbortSignal,
): Promise<string[]> {
  const result = await answer(
    coreClient.GET(MODEL_PATHS, {
      params: { path: { org }, query: { pageSize: MODEL_PATH_SUGGESTIONS } },
      headers: bearer(token),
      signal,
    }),
  );
  return result.items.map((item) => item.path);
}
