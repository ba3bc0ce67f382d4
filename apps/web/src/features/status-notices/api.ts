import type { CorePaths, OkBody } from '@edgeport/api-client';
import { answer, quickCoreClient } from '../../shared/http/clients.ts';

export type StatusNotice = OkBody<CorePaths, '/svc/core/api/v1/status/issues', 'get'>[number];

/** Spec 7: the status page's incidents and maintenances (public). */
export function fetchStatusNotices(): Promise<StatusNotice[]> {
  return answer(quickCoreClient.GET('/svc/core/api/v1/status/issues'));
}
