import type { CorePaths, OkBody } from '@edgeport/api-client';
import { answer, bearer, coreClient } from '../../shared/http/clients.ts';

export type Agreement = OkBody<CorePaths, '/svc/core/api/v1/agreements/last', 'get'>[number];

/** The agreements the portal's users accept. */
export const AGREEMENTS_SERVICE = 'portal';

export async function fetchPendingAgreements(accessToken: string): Promise<Agreement[]> {
  const { pending } = await answer(
    coreClient.GET('/svc/core/api/v1/agreements/check', {
      params: { query: { serviceName: AGREEMENTS_SERVICE } },
      headers: bearer(accessToken),
    }),
  );
  return pending;
}

export async function acceptAgreements(accessToken: string, ids: string[]): Promise<void> {
  await answer(
    coreClient.POST('/svc/core/api/v1/agreements/accept', { body: { ids }, headers: bearer(accessToken) }),
  );
}

/** The current version of each agreement (public: the register page shows them before there is an account). */
export function fetchLatestAgreements(): Promise<Agreement[]> {
  return answer(
    coreClient.GET('/svc/core/api/v1/agreements/last', {
      params: { query: { serviceName: AGREEMENTS_SERVICE } },
    }),
  );
}
