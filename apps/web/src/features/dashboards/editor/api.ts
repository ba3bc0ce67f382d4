import type { CorePaths, DashboardPaths, MappingsPaths, OkBody } from '@edgeport/api-client';
import type { DashboardDocument, WidgetDocument } from '@edgeport/dashboard-schema';
import { answer, bearer, coreClient, dashboardClient, mappingsClient } from '../../../shared/http/clients.ts';
import { HttpError } from '../../../shared/http/errors.ts';

const DASHBOARDS = '/svc/dashboard/api/v1/dashboards';
const DASHBOARD = '/svc/dashboard/api/v1/dashboards/{id}';
const VERSIONS = '/svc/dashboard/api/v1/dashboards/{id}/versions';
const VERSION = '/svc/dashboard/api/v1/dashboards/{id}/versions/{v}';
const SAVED_WIDGETS = '/svc/dashboard/api/v1/widgets';
const SAVED_WIDGET_VERSION = '/svc/dashboard/api/v1/widgets/{id}/versions/{v}';
const ASSETS = '/svc/dashboard/api/v1/dashboards/{id}/assets';
const ASSET_UPLOAD = '/svc/dashboard/api/v1/dashboards/{id}/assets/{name}/upload';
const GALLERY_MANIFEST = '/svc/dashboard/api/v1/organizations/manifest';
const MODEL_NAMES = '/svc/mappings/api/v1/organizations/{org}/models/names';
const MODEL = '/svc/mappings/api/v1/organizations/{org}/models/{id}';
const DEVICES = '/svc/core/api/v1/organizations/{org}/devices';
const DEVICE = '/svc/core/api/v1/organizations/{org}/devices/{id}';

export type Dashboard = OkBody<DashboardPaths, typeof DASHBOARD, 'get'>;
export type DashboardPage = OkBody<DashboardPaths, typeof DASHBOARDS, 'get'>;
export type DashboardVersion = OkBody<DashboardPaths, typeof VERSION, 'get'>;
export type DashboardVersionList = OkBody<DashboardPaths, typeof VERSIONS, 'get'>;
export type AssetList = OkBody<DashboardPaths, typeof ASSETS, 'get'>;
export type GalleryManifest = OkBody<DashboardPaths, typeof GALLERY_MANIFEST, 'get'>;
export type ModelNames = OkBody<MappingsPaths, typeof MODEL_NAMES, 'get'>;
export type Model = OkBody<MappingsPaths, typeof MODEL, 'get'>;
export type ModelPath = Model['paths'][number];
export type DevicePage = OkBody<CorePaths, typeof DEVICES, 'get'>;
export type Device = DevicePage['items'][number];

// Dashboards ----------------------------------------------------------------------------------------------------------

export function fetchDashboard(token: string, id: string, signal?: AbortSignal): Promise<Dashboard> {
  return answer(dashboardClient.GET(DASHBOARD, { params: { path: { id } }, headers: bearer(token), signal }));
}

export function fetchVersion(
  token: string,
  id: string,
  version: number,
  signal?: AbortSignal,
): Promise<DashboardVersion> {
  return answer(
    dashboardClient.GET(VERSION, { params: { path: { id, v: version } }, headers: bearer(token), signal }),
  );
}

export function fetchVersions(
  token: string,
  id: string,
  signal?: AbortSignal,
): Promise<DashboardVersionList> {
  return answer(dashboardClient.GET(VERSIONS, { params: { path: { id } }, headers: bearer(token), signal }));
}

/** The dashboards the caller can open (button actions "load a dashboard"). */
export function fetchDashboards(token: string, search: string, signal?: AbortSignal): Promise<DashboardPage> {
  return answer(
    dashboardClient.GET(DASHBOARDS, {
      params: { query: { page: 0, pageSize: 50, search: search || undefined } },
      headers: bearer(token),
      signal,
    }),
  );
}

/** Creates the dashboard of `/new` with its first version. */
export function createDashboard(token: string, name: string, document: DashboardDocument) {
  return answer(dashboardClient.POST(DASHBOARDS, { body: { name, document }, headers: bearer(token) }));
}

/** The editor's Save: a new version that becomes the current one. */
export function saveVersion(token: string, id: string, document: DashboardDocument) {
  return answer(
    dashboardClient.POST(VERSIONS, {
      params: { path: { id } },
      body: { document, current: true },
      headers: bearer(token),
    }),
  );
}

// Saved widgets (the `widgets` collection) ------------------------------------------------------------------------------

export function fetchSavedWidgets(token: string, signal?: AbortSignal) {
  return answer(
    dashboardClient.GET(SAVED_WIDGETS, {
      params: { query: { page: 0, pageSize: 100 } },
      headers: bearer(token),
      signal,
    }),
  );
}

export async function fetchSavedWidgetDocument(
  token: string,
  id: string,
  version: number,
): Promise<WidgetDocument> {
  const found = await answer(
    dashboardClient.GET(SAVED_WIDGET_VERSION, {
      params: { path: { id, v: version } },
      headers: bearer(token),
    }),
  );
  return found.document as WidgetDocument;
}

// Models and devices (slots and bindings) --------------------------------------------------------------------------------

export function fetchModelNames(token: string, org: string, signal?: AbortSignal): Promise<ModelNames> {
  return answer(
    mappingsClient.GET(MODEL_NAMES, { params: { path: { org } }, headers: bearer(token), signal }),
  );
}

/** A model with the paths of its current version. */
export function fetchModel(token: string, org: string, id: string, signal?: AbortSignal): Promise<Model> {
  return answer(mappingsClient.GET(MODEL, { params: { path: { org, id } }, headers: bearer(token), signal }));
}

export function fetchDevices(token: string, org: string, search: string, signal?: AbortSignal) {
  return answer(
    coreClient.GET(DEVICES, {
      params: {
        path: { org },
        query: { page: 0, pageSize: 50, sort: 'label', order: 'asc', search: search || undefined },
      },
      headers: bearer(token),
      signal,
    }),
  );
}

export function fetchDevice(token: string, org: string, id: string, signal?: AbortSignal) {
  return answer(coreClient.GET(DEVICE, { params: { path: { org, id } }, headers: bearer(token), signal }));
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
