import { type FlowDocument, readDocument } from '@edgeport/dashboard-schema';
import { useQuery } from '@tanstack/react-query';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { collectionKeys, type Dashboard, fetchOne, fetchVersion } from '../dashboards/api.ts';

export type LoadedFlow =
  | { state: 'loading' }
  | { state: 'error'; error: unknown; retry: () => void }
  /** The stored document does not pass the flow schema (it is never shown half-read). */
  | { state: 'unreadable'; flow: Dashboard; errors: string[] }
  | { state: 'ready'; flow: Dashboard; version: number; document: FlowDocument };

/** A flow and the document of one of its versions (the current one when `version` is absent), checked on read. */
export function useFlow(flowId: string, version?: number): LoadedFlow {
  const { organization, token } = useOrganizationApi();
  const flow = useQuery({
    queryKey: collectionKeys.one(organization.id, 'flows', flowId),
    queryFn: async ({ signal }) => fetchOne(await token(), 'flows', flowId, signal),
  });
  const wanted = version ?? flow.data?.currentVersion;
  const document = useQuery({
    queryKey: collectionKeys.version(organization.id, 'flows', flowId, wanted ?? 0),
    queryFn: async ({ signal }) => fetchVersion(await token(), 'flows', flowId, wanted ?? 0, signal),
    enabled: wanted !== undefined,
  });
  if (flow.isError) return { state: 'error', error: flow.error, retry: () => void flow.refetch() };
  if (document.isError)
    return { state: 'error', error: document.error, retry: () => void document.refetch() };
  if (!flow.data || !document.data || wanted === undefined) return { state: 'loading' };
  const read = readDocument('flow', document.data.document);
  if (!read.ok) return { state: 'unreadable', flow: flow.data, errors: read.errors };
  return { state: 'ready', flow: flow.data, version: wanted, document: read.document };
}
