import type { DashboardPaths, OkBody } from '@edgeport/api-client';
import type { DashboardDocument, WidgetDocument } from '@edgeport/dashboard-schema';
import { answer, bearer, dashboardClient } from '../../../shared/http/clients.ts';
import { HttpError } from '../../../shared/http/errors.ts';
import type { Model } from '../../data-models/api.ts';
import { fetchDevices as fetchDevicePage } from '../../devices/api.ts';
import {
  createOne,
  createVersion,
  type Dashboard,
  type DashboardPage,
  type DashboardVersionList,
  fetchVersion as fetchCollectionVersion,
  fetchVersions as fetchCollectionVersions,
  fetchPage,
} from '../api.ts';

/**
 * The editor's calls. The dashboard service's own calls live in `../api.ts` for every feature; below they are bound to
 * the `dashboards` collection (and `widgets` for the palette's saved widgets) under the names the editor uses.
 */
export { fetchModel, fetchModelNames } from '../../data-models/api.ts';
export { fetchDevice } from '../../devices/api.ts';
export { type Dashboard, fetchDashboard, fetchDashboardVersion as fetchVersion } from '../api.ts';

const ASSETS = '/svc/dashboard/api/v1/dashboards/{id}/assets';
const ASSET_UPLOAD = '/svc/dashboard/api/v1/dashboards/{id}/assets/{name}/upload';
const GALLERY_MANIFEST = '/svc/dashboard/api/v1/organizations/manifest';

export type AssetList = OkBody<DashboardPaths, typeof ASSETS, 'get'>;
export type GalleryManifest = OkBody<DashboardPaths, typeof GALLERY_MANIFEST, 'get'>;
export type ModelPath = Model['paths'][number];

// Dashboards ----------------------------------------------------------------------------------------------------------

export function fetchVersions(
  token: string,
  id: string,
  signal?: AbortSignal,
): Promise<DashboardVersionList> {
  return fetchCollectionVersions(token, 'dashboards', id, signal);
}

/** The dashboards the caller can open (button actions "load a dashboard"). */
export function fetchDashboards(token: string, search: string, signal?: AbortSignal): Promise<DashboardPage> {
  return fetchPage(
    token,
    'dashboards',
    'all',
    { page: 0, pageSize: 50, search: search || undefined },
    signal,
  );
}

/** Creates the dashboard of `/new` with its first version. */
export function createDashboard(
  token: string,
  name: string,
  document: DashboardDocument,
): Promise<Dashboard> {
  return createOne(token, 'dashboards', { name, document });
}

/** The editor's Save: a new version that becomes the current one. */
export function saveVersion(token: string, id: string, document: DashboardDocument) {
  return createVersion(token, 'dashboards', id, document);
}

// Saved widgets (the `widgets` collection) ------------------------------------------------------------------------------

export function fetchSavedWidgets(token: string, signal?: AbortSignal): Promise<DashboardPage> {
  return fetchPage(token, 'widgets', 'all', { page: 0, pageSize: 100 }, signal);
}

export async function fetchSavedWidgetDocument(
  token: string,
  id: string,
  version: number,
): Promise<WidgetDocument> {
  const found = await fetchCollectionVersion(token, 'widgets', id, version);
  return found.document as WidgetDocument;
}

// Devices (slots and bindings) -------------------------------------------------------------------------------------------

export function fetchDevices(token: string, org: string, search: string, signal?: AbortSignal) {
  return fetchDevicePage(
    token,
    org,
    { page: 0, pageSize: 50, sort: 'label', order: 'asc', search: search || undefined },
    signal,
  );
}

// Assets ----------------------------------------------------------------------------------------------------------------

export function fetchAssets(token: string, id: string, signal?: AbortSignal): Promise<AssetList> {
  return answer(dashboardClient.GET(ASSETS, { params: { path: { id } }, headers: bearer(token), signal }));
}

export function fetchGalleryManifest(token: string, signal?: AbortSignal): Promise<GalleryManifest> {
  return answer(dashboardClient.GET(GALLERY_MANIFEST, { headers: bearer(token), signal }));
}

/** A one-time address to PUT the asset's bytes to. */
export function fetchUploadUrl(token: string, id: string, name: string) {
  return answer(
    dashboardClient.GET(ASSET_UPLOAD, { params: { path: { id, name } }, headers: bearer(token) }),
  );
}

/**
 * PUTs a file to a one-time upload address, reporting progress (0..1). XMLHttpRequest because fetch reports no upload
 * progress.
 */
export function putWithProgress(
  url: string,
  token: string,
  file: Blob,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('PUT', url);
    request.setRequestHeader('authorization', `Bearer ${token}`);
    if (file.type) request.setRequestHeader('content-type', file.type);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) {
        onProgress(1);
        resolve();
      } else reject(new HttpError('status', { status: request.status }));
    };
    request.onerror = () => reject(new HttpError('network'));
    request.onabort = () => reject(new HttpError('aborted'));
    signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(file);
  });
}
