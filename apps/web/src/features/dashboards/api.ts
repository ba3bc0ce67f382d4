import type { DashboardPaths, OkBody } from '@edgeport/api-client';
import { answer, bearer, coreClient, dashboardClient, mappingsClient } from '../../shared/http/clients.ts';
import { HttpError } from '../../shared/http/errors.ts';
import { type Device, fetchDevice, fetchLatestValues, writeSetpoint } from '../devices/api.ts';

const DASHBOARD = '/svc/dashboard/api/v1/dashboards/{id}';
const VERSION = '/svc/dashboard/api/v1/dashboards/{id}/versions/{v}';
const PRESETS = '/svc/mappings/api/v1/organizations/{org}/presets';
const DEVICES = '/svc/core/api/v1/organizations/{org}/devices';

export type Dashboard = OkBody<DashboardPaths, typeof DASHBOARD, 'get'>;
export type DashboardVersion = OkBody<DashboardPaths, typeof VERSION, 'get'>;
export type { Device };

/** The query keys of the viewer's calls (TanStack Query). */
export const DASHBOARD_VIEW_KEY = 'dashboard-view';

export function fetchDashboard(token: string, id: string, signal?: AbortSignal): Promise<Dashboard> {
  return answer(dashboardClient.GET(DASHBOARD, { params: { path: { id } }, headers: bearer(token), signal }));
}

/** One version with its document (migrated to the current schema version by the server). */
export function fetchDashboardVersion(
  token: string,
  id: string,
  version: number,
  signal?: AbortSignal,
): Promise<DashboardVersion> {
  return answer(
    dashboardClient.GET(VERSION, { params: { path: { id, v: version } }, headers: bearer(token), signal }),
  );
}

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
export const SLOT_DEVICE_LIMIT = 200;

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
