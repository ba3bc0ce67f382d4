import type { CorePaths, OkBody, PlatformPaths } from '@edgeport/api-client';
import { attachmentName, saveFile } from '../../shared/files/download.ts';
import { answer, bearer, coreClient, platformClient } from '../../shared/http/clients.ts';
import { HttpError } from '../../shared/http/errors.ts';
import { readCsvWithProgress } from './csv-progress.ts';

const DEVICES = '/svc/core/api/v1/organizations/{org}/devices';
const PATHS = '/svc/platform/api/v1/organizations/{org}/data/paths';
const QUERY = '/svc/platform/api/v1/organizations/{org}/data/query';

export type DevicePage = OkBody<CorePaths, typeof DEVICES, 'get'>;
export type Device = DevicePage['items'][number];
export type DataPaths = OkBody<PlatformPaths, typeof PATHS, 'get'>;
export type DataPath = DataPaths['paths'][number];
export type DataResult = OkBody<PlatformPaths, typeof QUERY, 'post'>;
export type DataSeries = DataResult['series'][number];

/** The first devices whose label, alias or serial number contains `search`. */
export function searchDevices(
  token: string,
  org: string,
  search: string,
  signal?: AbortSignal,
): Promise<DevicePage> {
  return answer(
    coreClient.GET(DEVICES, {
      params: { path: { org }, query: { search: search.trim() || undefined, pageSize: 20, sort: 'label' } },
      headers: bearer(token),
      signal,
    }),
  );
}

/** The model paths the devices have that the caller may read. */
export function fetchPaths(
  token: string,
  org: string,
  deviceIds: string[],
  signal?: AbortSignal,
): Promise<DataPaths> {
  return answer(
    platformClient.GET(PATHS, {
      params: { path: { org }, query: { deviceIds } },
      headers: bearer(token),
      signal,
    }),
  );
}

export type DataQuery = { deviceIds: string[]; paths: string[]; from: number; to: number; maxPoints: number };

/** The series of the devices and paths in the range (the server reduces each to at most maxPoints). */
export function queryData(
  token: string,
  org: string,
  query: DataQuery,
  signal?: AbortSignal,
): Promise<DataResult> {
  return answer(
    platformClient.POST(QUERY, {
      params: { path: { org } },
      body: {
        deviceIds: query.deviceIds,
        paths: query.paths,
        from: new Date(query.from).toISOString(),
        to: new Date(query.to).toISOString(),
        maxPoints: query.maxPoints,
      },
      headers: bearer(token),
      signal,
    }),
  );
}

export type ExportProgress = { bytes: number; rows: number };

/**
 * Downloads the CSV of the devices' paths in the range (no time-out: `signal` cancels), reporting bytes and records
 * received, and saves it under the name the server gives. Answers the final counts.
 */
export async function downloadDataCsv(
  token: string,
  org: string,
  query: Omit<DataQuery, 'maxPoints'>,
  onProgress: (progress: ExportProgress) => void,
  signal: AbortSignal,
): Promise<ExportProgress> {
  const params = new URLSearchParams();
  for (const id of query.deviceIds) params.append('deviceIds', id);
  for (const path of query.paths) params.append('paths', path);
  params.set('from', new Date(query.from).toISOString());
  params.set('to', new Date(query.to).toISOString());
  const url = `/svc/platform/api/v1/organizations/${encodeURIComponent(org)}/data/export.csv?${params}`;
  let response: Response;
  try {
    response = await fetch(url, { headers: { ...bearer(token), accept: 'text/csv' }, signal });
  } catch (cause) {
    throw new HttpError(signal.aborted ? 'aborted' : 'network', { cause });
  }
  if (!response.ok || !response.body) throw new HttpError('status', { status: response.status });
  let result: Awaited<ReturnType<typeof readCsvWithProgress>>;
  try {
    result = await readCsvWithProgress(response.body, onProgress);
  } catch (cause) {
    throw new HttpError(signal.aborted ? 'aborted' : 'network', { cause });
  }
  saveFile(
    result.chunks,
    'text/csv;charset=utf-8',
    attachmentName(response.headers.get('content-disposition'), 'data.csv'),
  );
  return { bytes: result.bytes, rows: result.rows };
}
