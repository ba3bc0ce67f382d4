import type { CorePaths, OkBody } from '@edgeport/api-client';
import { answer, bearer, coreClient } from '../../shared/http/clients.ts';

const MINE = '/svc/core/api/v1/account/invitations';
const ACCEPT = '/svc/core/api/v1/account/invitations/{id}/accept';
const DECLINE = '/svc/core/api/v1/account/invitations/{id}/decline';

export type AccountInvitation = OkBody<CorePaths, typeof MINE, 'get'>[number];

/** The signed-in user's pending invitations into organizations (bearer: the login token). */
export function fetchMyInvitations(accessToken: string, signal?: AbortSignal): Promise<AccountInvitation[]> {
  return answer(coreClient.GET(MINE, { headers: bearer(accessToken), ...(signal && { signal }) }));
}

/** Joins the organization; answers it (it is in the user's organization list from now on). */
export function acceptInvitation(accessToken: string, id: string) {
  return answer(coreClient.POST(ACCEPT, { params: { path: { id } }, headers: bearer(accessToken) }));
}

export async function declineInvitation(accessToken: string, id: string): Promise<void> {
  await answer(coreClient.POST(DECLINE, { params: { path: { id } }, headers: bearer(accessToken) }));
}
