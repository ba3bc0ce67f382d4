import { type CorePaths, createCoreClient, type OkBody } from '@edgeport/api-client';

/** Spec 9: core calls time out after 90 s. */
export const CORE_TIMEOUT_MS = 90_000;

export type Organization = OkBody<CorePaths, '/svc/core/api/v1/organizations/mine', 'get'>[number];

const client = createCoreClient();

/** The organizations the signed-in user belongs to (bearer: the login access token). */
export async function fetchMyOrganizations(
  accessToken: string,
  signal?: AbortSignal,
): Promise<Organization[]> {
  const timeout = AbortSignal.timeout(CORE_TIMEOUT_MS);
  const { data, response } = await client.GET('/svc/core/api/v1/organizations/mine', {
    headers: { authorization: `Bearer ${accessToken}` },
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  });
  if (!data) throw new Error(`failed with status code ${response.status}`);
  return data;
}
