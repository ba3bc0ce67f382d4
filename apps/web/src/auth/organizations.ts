import type { CorePaths, OkBody } from '@edgeport/api-client';
import { answer, bearer, coreClient } from '../shared/http/clients.ts';

export type Organization = OkBody<CorePaths, '/svc/core/api/v1/organizations/mine', 'get'>[number];

/** The organizations the signed-in user belongs to, with their sub-organizations (bearer: the login token). */
export function fetchMyOrganizations(accessToken: string, signal?: AbortSignal): Promise<Organization[]> {
  return answer(
    coreClient.GET('/svc/core/api/v1/organizations/mine', {
      headers: bearer(accessToken),
      ...(signal && { signal }),
    }),
  );
}
