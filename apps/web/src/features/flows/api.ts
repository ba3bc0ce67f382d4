import type { CorePaths, DashboardPaths, OkBody } from '@edgeport/api-client';
import type { dashboards as contract } from '@edgeport/contract';
import { emptyDocument, type FlowDocument } from '@edgeport/dashboard-schema';
import { answer, bearer, coreClient, dashboardClient } from '../../shared/http/clients.ts';
import type { PageRequest } from '../../shared/ui/DataTable.tsx';

/**
 * The dashboard service's three collections (spec 7 "Dashboard"): `dashboards`, `flows` and `widgets` answer the
 * same calls with the same shapes (one server implementation, one contract), so the calls below take the collection
 * and the types are those of `/dashboards`.
 */
export type Collection = contract.Collection;

const LIST = '/svc/dashboard/api/v1/dashboards';
const MINE = '/svc/dashboard/api/v1/dashboards/mine';
const SHARED = '/svc/dashboard/api/v1/dashboards/sharedWithMe';
const ONE = '/svc/dashboard/api/v1/dashboards/{id}';
const VERSIONS = '/svc/dashboard/api/v1/dashboards/{id}/versions';
const VERSION = '/svc/dashboard/api/v1/dashboards/{id}/versions/{v}';
const CURRENT = '/svc/dashboard/api/v1/dashboards/{id}/versions/{v}/current';
const DERIVE = '/svc/dashboard/api/v1/dashboards/{id}/versions/{v}/versions/{v2}';
const READERS = '/svc/dashboard/api/v1/dashboards/{id}/readers';
const USERS = '/svc/core/api/v1/organizations/{org}/users';

export type DashboardPage = OkBody<DashboardPaths, typeof LIST, 'get'>;
export type Dashboard = OkBody<DashboardPaths, typeof ONE, 'get'>;
export type Access = Dashboard['access'];
export type VersionSummary = OkBody<DashboardPaths, typeof VERSIONS, 'get'>[number];
export type DashboardVersion = OkBody<DashboardPaths, typeof VERSION, 'get'>;
export type OrganizationUser = OkBody<CorePaths, typeof USERS, 'get'>['items'][number];
/** "All", "Mine" and "Shared with me" (spec 7: the list, /mine and /sharedWithMe). */
export type ListScope = 'all' | 'mine' | 'shared';
export type ShareLevel = 'r' | 'r/w';
/** One user of a list share: with a level they get it, without one they lose both (spec 4). */
export type ShareEntry = { user: string; level?: ShareLevel };

/** The `/dashboards` path with the collection put in (the shapes of the three collections are one contract). */
function at<Path extends string>(collection: Collection, path: Path): Path {
  return path.replace('/api/v1/dashboards', `/api/v1/${collection}`) as Path;
}

const SCOPE_PATH = { all: LIST, mine: MINE, shared: SHARED } as const;

export function fetchPage(
  token: string,
  collection: Collection,
  scope: ListScope,
  request: PageRequest,
  signal?: AbortSignal,
): Promise<DashboardPage> {
  const path = at(collection, SCOPE_PATH[scope]) as typeof LIST;
  return answer(dashboardClient.GET(path, { params: { query: request }, headers: bearer(token), signal }));
}

/** Everything a picker offers (the flow editor's dashboards and flows), first 1000 by name. */
export async function fetchAll(
  token: string,
  collection: Collection,
  signal?: AbortSignal,
): Promise<Dashboard[]> {
  const page = await fetchPage(
    token,
    collection,
    'all',
    { page: 0, pageSize: 1000, sort: 'name', order: 'asc' },
    signal,
  );
  return page.items;
}

export function fetchOne(token: string, collection: Collection, id: string, signal?: AbortSignal) {
  return answer(
    dashboardClient.GET(at(collection, ONE), { params: { path: { id } }, headers: bearer(token), signal }),
  );
}

export function createOne(
  token: string,
  collection: Collection,
  input: { name: string; description?: string; document?: Record<string, unknown> },
): Promise<Dashboard> {
  return answer(
    dashboardClient.POST(at(collection, LIST), {
      body: input as contract.DashboardCreate,
      headers: bearer(token),
    }),
  );
}

export function createFlow(token: string, name: string): Promise<Dashboard> {
  return createOne(token, 'flows', { name, document: emptyDocument('flow') });
}

export async function deleteOne(token: string, collection: Collection, id: string): Promise<void> {
  await answer(
    dashboardClient.DELETE(at(collection, ONE), { params: { path: { id } }, headers: bearer(token) }),
  );
}

export function fetchVersions(token: string, collection: Collection, id: string, signal?: AbortSignal) {
  return answer(
    dashboardClient.GET(at(collection, VERSIONS), {
      params: { path: { id } },
      headers: bearer(token),
      signal,
    }),
  );
}

export function fetchVersion(
  token: string,
  collection: Collection,
  id: string,
  version: number,
  signal?: AbortSignal,
): Promise<DashboardVersion> {
  return answer(
    dashboardClient.GET(at(collection, VERSION), {
      params: { path: { id, v: version } },
      headers: bearer(token),
      signal,
    }),
  );
}

/** The flow editor's Save: a new version of the flow that becomes the current one. */
export function saveFlowVersion(token: string, id: string, document: FlowDocument, comment?: string) {
  return answer(
    dashboardClient.POST(at('flows', VERSIONS), {
      params: { path: { id } },
      body: { document, current: true, ...(comment ? { comment } : {}) },
      headers: bearer(token),
    }),
  );
}

/** "Derive a version": v2 (the next free number) copied from v, not current until made so. */
export function deriveVersion(token: string, collection: Collection, id: string, v: number, v2: number) {
  return answer(
    dashboardClient.POST(at(collection, DERIVE), {
      params: { path: { id, v, v2 } },
      headers: bearer(token),
    }),
  );
}

export function makeCurrent(token: string, collection: Collection, id: string, v: number) {
  return answer(
    dashboardClient.POST(at(collection, CURRENT), {
      params: { path: { id, v } },
      headers: bearer(token),
    }),
  );
}

export async function deleteVersion(token: string, collection: Collection, id: string, v: number) {
  await answer(
    dashboardClient.DELETE(at(collection, VERSION), {
      params: { path: { id, v } },
      headers: bearer(token),
    }),
  );
}

/** Spec 4: share with a list; each user gets the level given, a user without one is removed from both lists. */
export function shareWith(
  token: string,
  collection: Collection,
  id: string,
  users: ShareEntry[],
): Promise<Dashboard> {
  return answer(
    dashboardClient.POST(at(collection, READERS), {
      params: { path: { id } },
      body: { users },
      headers: bearer(token),
    }),
  );
}

/** The organization's members the share dialog offers (core users list, first 1000 by e-mail). */
export async function fetchOrganizationUsers(
  token: string,
  org: string,
  signal?: AbortSignal,
): Promise<OrganizationUser[]> {
  const page = await answer(
    coreClient.GET(USERS, {
      params: { path: { org }, query: { page: 0, pageSize: 1000, sort: 'email', order: 'asc' } },
      headers: bearer(token),
      signal,
    }),
  );
  return page.items;
}

export const flowsKeys = {
  all: (org: string) => ['flows', org] as const,
  page: (org: string, collection: Collection, scope: ListScope, request: PageRequest) =>
    ['flows', org, collection, 'page', scope, request] as const,
  picker: (org: string, collection: Collection) => ['flows', org, collection, 'picker'] as const,
  one: (org: string, collection: Collection, id: string) => ['flows', org, collection, 'one', id] as const,
  versions: (org: string, collection: Collection, id: string) =>
    ['flows', org, collection, 'versions', id] as const,
  version: (org: string, collection: Collection, id: string, version: number) =>
    ['flows', org, collection, 'version', id, version] as const,
  users: (org: string) => ['flows', org, 'users'] as const,
};
