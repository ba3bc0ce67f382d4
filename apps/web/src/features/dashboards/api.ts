import type { DashboardPaths, OkBody } from '@edgeport/api-client';
import type { dashboards as contract } from '@edgeport/contract';
import { attachmentName, readWithProgress, saveFile } from '../../shared/files/download.ts';
import { answer, bearer, coreClient, dashboardClient, mappingsClient } from '../../shared/http/clients.ts';
import { HttpError } from '../../shared/http/errors.ts';
import type { PageRequest } from '../../shared/ui/DataTable.tsx';
import { type Device, fetchDevice, fetchLatestValues, writeSetpoint } from '../devices/api.ts';

/**
 * The dashboard service's calls (spec 7 "Dashboard") for every feature. Its three collections, `dashboards`, `flows`
 * and `widgets`, answer the same calls with the same shapes (one server implementation, one contract), so the calls
 * take the collection and the types are those of `/dashboards`.
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
const PRESETS = '/svc/mappings/api/v1/organizations/{org}/presets';
const DEVICES = '/svc/core/api/v1/organizations/{org}/devices';

export type DashboardPage = OkBody<DashboardPaths, typeof LIST, 'get'>;
export type Dashboard = OkBody<DashboardPaths, typeof ONE, 'get'>;
export type DashboardVersionList = OkBody<DashboardPaths, typeof VERSIONS, 'get'>;
export type VersionSummary = DashboardVersionList[number];
export type DashboardVersion = OkBody<DashboardPaths, typeof VERSION, 'get'>;
export type { Device };
/** "All", "Mine" and "Shared with me" (spec 7: the list, /mine and /sharedWithMe). */
export type ListScope = 'all' | 'mine' | 'shared';
/** One user of a list share: with a level they get it, without one they lose both (spec 4). */
export type ShareEntry = { user: string; level?: 'r' | 'r/w' };

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

export function fetchOne(
  token: string,
  collection: Collection,
  id: string,
  signal?: AbortSignal,
): Promise<Dashboard> {
  return answer(
    dashboardClient.GET(at(collection, ONE), { params: { path: { id } }, headers: bearer(token), signal }),
  );
}

/** A new dashboard, flow or widget with its first version (an empty document when none is given). */
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

export async function deleteOne(token: string, collection: Collection, id: string): Promise<void> {
  await answer(
    dashboardClient.DELETE(at(collection, ONE), { params: { path: { id } }, headers: bearer(token) }),
  );
}

export function fetchVersions(
  token: string,
  collection: Collection,
  id: string,
  signal?: AbortSignal,
): Promise<DashboardVersionList> {
  return answer(
    dashboardClient.GET(at(collection, VERSIONS), {
      params: { path: { id } },
      headers: bearer(token),
      signal,
    }),
  );
}

/** One version with its document (migrated to the current schema version by the server). */
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

/** The editors' Save: a new version with the document that becomes the current one. */
export function createVersion(
  token: string,
  collection: Collection,
  id: string,
  document: contract.VersionCreate['document'],
  comment?: string,
) {
  return answer(
    dashboardClient.POST(at(collection, VERSIONS), {
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

export function fetchDashboard(token: string, id: string, signal?: AbortSignal): Promise<Dashboard> {
  return fetchOne(token, 'dashboards', id, signal);
}

export function fetchDashboardVersion(
  token: string,
  id: string,
  version: number,
  signal?: AbortSignal,
): Promise<DashboardVersion> {
  return fetchVersion(token, 'dashboards', id, version, signal);
}

/**
 * The query keys of the collection lists, pickers, items and versions (TanStack Query); `all` covers everything a
 * change to one of them may affect. The viewer and the editor keep their own keys (DASHBOARD_VIEW_KEY and the
 * editor's): they cache other shapes with other lifetimes.
 */
export const collectionKeys = {
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

/** The first part of the viewer's query keys. */
export const DASHBOARD_VIEW_KEY = 'dashboard-view';

/** A dashboard asset's address (GET /{id}/assets/{name}/download) or a gallery asset's. */
export function assetAddress(dashboardId: string | undefined, source: 'dashboard' | 'gallery', name: string) {
  const asset = encodeURIComponent(name);
  if (source === 'gallery') return `/svc/dashboard/api/v1/gallery/assets/${asset}/download`;
  if (!dashboardId) return '';
  return `/svc/dashboard/api/v1/dashboards/${encodeURIComponent(dashboardId)}/assets/${asset}/download`;
}

/** An asset's bytes, with the caller's token for the portal's own services. */
export async function fetchAssetBlob(token: string, url: string, signal?: AbortSignal): Promise<Blob> {
  let response: Response;
  try {
    response = await fetch(url, { headers: url.startsWith('/svc/') ? bearer(token) : {}, signal });
  } catch (cause) {
    throw new HttpError(signal?.aborted ? 'aborted' : 'network', { cause });
  }
  if (!response.ok) throw new HttpError('status', { status: response.status });
  return response.blob();
}

/** How many devices a slot's picker lists (per preset of the slot's model). */
const SLOT_DEVICE_LIMIT = 200;

/**
 * The devices a slot may show, by label: those whose preset follows the slot's model, or any device of the
 * organization when the slot names no model (`search` narrows by label, alias or serial number).
 */
export async function fetchSlotDevices(
  token: string,
  org: string,
  modelId: string | undefined,
  search: string,
  signal?: AbortSignal,
): Promise<Device[]> {
  const list = async (presetId?: string) => {
    const query = {
      page: 0,
      pageSize: SLOT_DEVICE_LIMIT,
      sort: 'label',
      order: 'asc' as const,
      ...(search.trim() && { search: search.trim() }),
      ...(presetId && { presetId }),
    };
    const page = await answer(
      coreClient.GET(DEVICES, { params: { path: { org }, query }, headers: bearer(token), signal }),
    );
    return page.items;
  };
  if (!modelId) return list();
  const presets = await answer(
    mappingsClient.GET(PRESETS, {
      params: { path: { org }, query: { modelId, pageSize: 1000 } },
      headers: bearer(token),
      signal,
    }),
  );
  const pages = await Promise.all(presets.items.map((preset) => list(preset.id)));
  return pages.flat().sort((a, b) => a.label.localeCompare(b.label));
}

export { fetchDevice, fetchLatestValues, writeSetpoint };

// The viewer's data export and remembered choices, the palette's gallery, the image inspector's storage gauge ----------
const EXPORT = '/svc/dashboard/api/v1/dashboards/{id}/version/LATEST/data';
const PREFERENCES = '/svc/dashboard/api/v1/userPreferences';
const GALLERY_WIDGETS = '/svc/dashboard/api/v1/organizations/gallery/widgets';
const ASSET_STORAGE = '/svc/dashboard/api/v1/assetstorage';

export type PreferenceList = OkBody<DashboardPaths, typeof PREFERENCES, 'get'>;
export type GalleryWidgetList = OkBody<DashboardPaths, typeof GALLERY_WIDGETS, 'get'>;
export type GalleryWidget = GalleryWidgetList[number];
export type AssetStorage = OkBody<DashboardPaths, typeof ASSET_STORAGE, 'get'>;

/** The caller's stored preferences for one dashboard (every key). */
export function fetchPreferences(
  token: string,
  dashboardId: string,
  signal?: AbortSignal,
): Promise<PreferenceList> {
  return answer(
    dashboardClient.GET(PREFERENCES, {
      params: { query: { dashboardId } },
      headers: bearer(token),
      signal,
    }),
  );
}

/** Stores one preference of the caller for the dashboard (inserted or replaced). */
export async function putPreference(
  token: string,
  dashboardId: string,
  key: string,
  value: unknown,
): Promise<void> {
  await answer(
    dashboardClient.PUT(PREFERENCES, { body: { dashboardId, key, value }, headers: bearer(token) }),
  );
}

export function fetchGalleryWidgets(token: string, signal?: AbortSignal): Promise<GalleryWidgetList> {
  return answer(dashboardClient.GET(GALLERY_WIDGETS, { headers: bearer(token), signal }));
}

export function fetchAssetStorage(token: string, signal?: AbortSignal): Promise<AssetStorage> {
  return answer(dashboardClient.GET(ASSET_STORAGE, { headers: bearer(token), signal }));
}

export type DataExportRequest = NonNullable<
  DashboardPaths[typeof EXPORT]['post']['requestBody']
>['content']['application/json'];

/**
 * The CSV of the values the dashboard's current version shows between from and to, read with progress (bytes) and
 * saved under the name the server gives. Answers the bytes received. Failures are HttpErrors with the server's message.
 */
export async function downloadDashboardData(
  token: string,
  dashboardId: string,
  request: DataExportRequest,
  onProgress: (bytes: number) => void,
  signal: AbortSignal,
): Promise<number> {
  const { data, response } = await dashboardClient.POST(EXPORT, {
    params: { path: { id: dashboardId } },
    body: request,
    headers: { ...bearer(token), accept: 'text/csv' },
    parseAs: 'stream',
    signal,
  });
  if (!response.ok || !data) throw new HttpError('status', { status: response.status });
  let chunks: Uint8Array<ArrayBuffer>[];
  try {
    chunks = await readWithProgress(data as ReadableStream<Uint8Array<ArrayBuffer>>, onProgress);
  } catch (cause) {
    throw new HttpError(signal.aborted ? 'aborted' : 'network', { cause });
  }
  saveFile(
    chunks,
    'text/csv;charset=utf-8',
    attachmentName(response.headers.get('content-disposition'), 'dashboard-data.csv'),
  );
  return chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
}
