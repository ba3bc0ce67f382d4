import type { core } from '@edgeport/contract';

/** Spec 9: core calls time out after 90 s. */
export const CORE_TIMEOUT_MS = 90_000;
export const CORE_BASE_PATH = '/svc/core/api/v1';

export type Organization = core.Organization;

/** The organizations the signed-in user belongs to (bearer: the login access token). */
export async function fetchMyOrganizations(
  accessToken: string,
  signal?: AbortSignal,
): Promise<Organization[]> {
  const timeout = AbortSignal.timeout(CORE_TIMEOUT_MS);
  const response = await fetch(`${CORE_BASE_PATH}/organizations/mine`, {
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  });
  if (!response.ok) throw new Error(`failed with status code ${response.status}`);
  const body: unknown = await response.json();
  if (!Array.isArray(body)) throw new Error('unexpected response');
  return body as Organization[];
}
