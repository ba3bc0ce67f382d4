import type { DashboardPaths, OkBody } from '@edgeport/api-client';
import { attachmentName, readWithProgress, saveFile } from '../../shared/files/download.ts';
import { answer, bearer, dashboardClient } from '../../shared/http/clients.ts';
import { HttpError } from '../../shared/http/errors.ts';

/**
 * The dashboard service's calls used by the viewer's data export and remembered choices, the palette's gallery and
 * the image inspector's storage gauge (spec 7 "Dashboard").
 */
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

export type DataExportRequest = { from: string; to: string; slots: Record<string, string> };

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
