import {
  createAlarmsClient,
  createAuditClient,
  createCoreClient,
  createDashboardClient,
  createLicenseClient,
  createLimitsClient,
  createMappingsClient,
  createNotificationsClient,
  createPlatformClient,
  createThemeClient,
  createTriggerManagerClient,
  createVpnClient,
} from '@edgeport/api-client';
import { HttpError } from './errors.ts';
import { CORE_TIMEOUT_MS, DEFAULT_TIMEOUT_MS, PRESET_MODEL_TIMEOUT_MS, timedFetch } from './timed-fetch.ts';

/** Core service calls (spec 9: 90 s). */
export const coreClient = createCoreClient({ fetch: timedFetch(CORE_TIMEOUT_MS) });
/** Core calls that spec 9 gives the default 30 s (the login-info lookup). */
export const quickCoreClient = createCoreClient({ fetch: timedFetch(DEFAULT_TIMEOUT_MS) });
export const auditClient = createAuditClient({ fetch: timedFetch(DEFAULT_TIMEOUT_MS) });
export const themeClient = createThemeClient({ fetch: timedFetch(DEFAULT_TIMEOUT_MS) });
export const platformClient = createPlatformClient({ fetch: timedFetch(DEFAULT_TIMEOUT_MS) });
export const licenseClient = createLicenseClient({ fetch: timedFetch(DEFAULT_TIMEOUT_MS) });
export const mappingsClient = createMappingsClient({ fetch: timedFetch(DEFAULT_TIMEOUT_MS) });
export const alarmsClient = createAlarmsClient({ fetch: timedFetch(DEFAULT_TIMEOUT_MS) });
export const notificationsClient = createNotificationsClient({ fetch: timedFetch(DEFAULT_TIMEOUT_MS) });
export const triggerManagerClient = createTriggerManagerClient({ fetch: timedFetch(DEFAULT_TIMEOUT_MS) });
export const limitsClient = createLimitsClient({ fetch: timedFetch(DEFAULT_TIMEOUT_MS) });
export const vpnClient = createVpnClient({ fetch: timedFetch(DEFAULT_TIMEOUT_MS) });
export const dashboardClient = createDashboardClient({ fetch: timedFetch(DEFAULT_TIMEOUT_MS) });
/** Preset and model creation or update (spec 9: 300 s). */
export const slowMappingsClient = createMappingsClient({ fetch: timedFetch(PRESET_MODEL_TIMEOUT_MS) });

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

/**
 * The body of a successful call. The clients' fetch already throws an HttpError for every failure; this only guards
 * against a client created without it. A 204 answers `undefined`.
 */
export async function answer<R extends { data?: unknown; response: Response }>(
  pending: Promise<R>,
): Promise<Exclude<R['data'], undefined>> {
  const result = await pending;
  if (!result.response.ok) throw new HttpError('status', { status: result.response.status });
  return result.data as Exclude<R['data'], undefined>;
}
