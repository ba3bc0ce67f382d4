import type { LimitsPaths, OkBody } from '@edgeport/api-client';
import { answer, bearer, limitsClient } from '../../shared/http/clients.ts';

const LIMITS = '/svc/limits/api/v1/limits';

export type Limits = OkBody<LimitsPaths, typeof LIMITS, 'get'>;
/** The body of POST and PUT /limits: absent keys are unlimited. */
export type LimitsInput = LimitsPaths[typeof LIMITS]['post']['requestBody']['content']['application/json'];

export function limitsQueryKey(organizationId: string) {
  return ['iam-organizations', 'limits', organizationId] as const;
}

/** The organization's limits and usage (READ organizations, with the organization's own permission token). */
export function fetchLimits(token: string, organization: string, signal?: AbortSignal): Promise<Limits> {
  return answer(
    limitsClient.GET(LIMITS, { params: { query: { organization } }, headers: bearer(token), signal }),
  );
}

/** Creates (POST, when none are defined) or replaces (PUT) the organization's limits. */
export function saveLimits(
  token: string,
  organization: string,
  input: LimitsInput,
  defined: boolean,
): Promise<Limits> {
  const options = { params: { query: { organization } }, body: input, headers: bearer(token) };
  return answer(defined ? limitsClient.PUT(LIMITS, options) : limitsClient.POST(LIMITS, options));
}
