import type { AuditPaths, OkBody } from '@edgeport/api-client';
import { attachmentName, readWithProgress, saveFile } from '../../shared/files/download.ts';
import { answer, auditClient, bearer } from '../../shared/http/clients.ts';
import { HttpError } from '../../shared/http/errors.ts';
import { type EntryFilter, filterParams } from './log-query.ts';

const ENTRIES = '/svc/audit/api/v1/organizations/{org}/entries';

export type EntryPage = OkBody<AuditPaths, typeof ENTRIES, 'get'>;
export type Entry = EntryPage['items'][number];
export type Facets = OkBody<AuditPaths, '/svc/audit/api/v1/organizations/{org}/facets', 'get'>;

export function fetchEntries(
  token: string,
  org: string,
  filter: EntryFilter,
  page: number,
  pageSize: number,
  signal?: AbortSignal,
): Promise<EntryPage> {
  return answer(
    auditClient.GET(ENTRIES, {
      params: { path: { org }, query: { ...filter, page, pageSize } },
      headers: bearer(token),
      signal,
    }),
  );
}

export function fetchFacets(token: string, org: string, signal?: AbortSignal): Promise<Facets> {
  return answer(
    auditClient.GET('/svc/audit/api/v1/organizations/{org}/facets', {
      params: { path: { org } },
      headers: bearer(token),
      signal,
    }),
  );
}

/**
 * Downloads the CSV of every entry matching `filter` (no time-out: a large log takes a while; `signal` cancels),
 * reporting the bytes received, and saves it under the name the server gives. Answers the number of bytes.
 */
export async function downloadEntriesCsv(
  token: string,
  org: string,
  filter: EntryFilter,
  onProgress: (bytes: number) => void,
  signal: AbortSignal,
): Promise<number> {
  const url = `/svc/audit/api/v1/organizations/${encodeURIComponent(org)}/entries.csv?${filterParams(filter)}`;
  let response: Response;
  try {
    response = await fetch(url, { headers: { ...bearer(token), accept: 'text/csv' }, signal });
  } catch (cause) {
    throw new HttpError(signal.aborted ? 'aborted' : 'network', { cause });
  }
  if (!response.ok || !response.body) throw new HttpError('status', { status: response.status });
  let chunks: Uint8Array<ArrayBuffer>[];
  try {
    chunks = await readWithProgress(response.body, onProgress);
  } catch (cause) {
    throw new HttpError(signal.aborted ? 'aborted' : 'network', { cause });
  }
  saveFile(
    chunks,
    'text/csv;charset=utf-8',
    attachmentName(response.headers.get('content-disposition'), 'audit.csv'),
  );
  return chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
}
