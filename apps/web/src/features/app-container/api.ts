import type { CorePaths, OkBody } from '@edgeport/api-client';
import type { PreferenceStore } from '@edgeport/bridge';
import { answer, bearer, coreClient } from '../../shared/http/clients.ts';

const APP = '/svc/core/api/v1/apps/{id}';
const LAUNCH = '/svc/core/api/v1/organizations/{org}/apps/{id}/launch';
const PREFERENCES = '/svc/core/api/v1/userPreferences';
const PREFERENCE = '/svc/core/api/v1/userPreferences/users/{user}/services/{service}/properties/{prop}';

/** The catalogue entry: what the store offers (name, publisher), not how to run it. */
export type CatalogueApp = OkBody<CorePaths, typeof APP, 'get'>;
/** What running an installed app needs: its entry address and origin (the only origin that gets the token). */
export type StoreApp = OkBody<CorePaths, typeof LAUNCH, 'get'>;

export function fetchApp(token: string, id: string, signal?: AbortSignal): Promise<CatalogueApp> {
  return answer(coreClient.GET(APP, { params: { path: { id } }, headers: bearer(token), signal }));
}

/** 404 when the organization has not installed the app, 402 while its paid plan is in arrears. */
export function fetchLaunch(token: string, org: string, id: string, signal?: AbortSignal): Promise<StoreApp> {
  return answer(coreClient.GET(LAUNCH, { params: { path: { org, id } }, headers: bearer(token), signal }));
}

/**
 * The embedded app's user preferences, kept by the core service under the app's id as the service name (spec 3
 * "User preference: service, property"). Reading goes through the user's list, which answers 200 whether or not the
 * key is set (the single-record call answers 404 for "not set").
 */
export function appPreferences(
  appId: string,
  username: string,
  token: () => Promise<string>,
): PreferenceStore {
  return {
    async get(key) {
      const all = await answer(coreClient.GET(PREFERENCES, { headers: bearer(await token()) }));
      return all.find((entry) => entry.serviceName === appId && entry.property === key)?.value1 ?? null;
    },
    async set(key, value) {
      await answer(
        coreClient.PUT(PREFERENCE, {
          params: { path: { user: username, service: appId, prop: key } },
          body: { value1: value },
          headers: bearer(await token()),
        }),
      );
    },
  };
}
