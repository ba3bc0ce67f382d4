import type { OkBody, VpnPaths } from '@edgeport/api-client';
import { vpn } from '@edgeport/contract/values';
import { answer, bearer, vpnClient } from '../../shared/http/clients.ts';
import {
  type ApplicationFormValues,
  applicationInput,
  type ProfileFormValues,
  profileInput,
  type ShortcutFormValues,
} from './application-form.ts';

const PROFILES = '/svc/vpn2/api/v1/domains/{domain}/actionProfiles';
const PROFILE = '/svc/vpn2/api/v1/domains/{domain}/actionProfiles/{id}';
const ACTIONS = '/svc/vpn2/api/v1/domains/{domain}/actions';
const ACTION = '/svc/vpn2/api/v1/domains/{domain}/actions/{id}';
const PREFERENCES = '/svc/vpn2/api/v1/preferences/applications/{orgResourceId}/{x}';
const PREFERENCE_CREATE =
  '/svc/vpn2/api/v1/preferences/applications/{orgResourceId}/{gateway}/{endpoint}/{action}/{clientOs}/{label}';
const PREFERENCE = '/svc/vpn2/api/v1/preferences/applications/{orgResourceId}/{id}';

export type ProfileList = OkBody<VpnPaths, typeof PROFILES, 'get'>;
export type Profile = ProfileList['items'][number];
export type ApplicationList = OkBody<VpnPaths, typeof ACTIONS, 'get'>;
export type Application = ApplicationList['items'][number];
export type ShortcutPage = OkBody<VpnPaths, typeof PREFERENCES, 'get'>;
export type Shortcut = ShortcutPage['items'][number];

/** TanStack Query key roots. */
export const VPN_PROFILES_KEY = 'vpn-profiles';
export const VPN_APPLICATIONS_KEY = 'vpn-applications';
export const VPN_SHORTCUTS_KEY = 'vpn-shortcuts';

// --- profiles ----------------------------------------------------------------------------------------------------

export function fetchProfiles(token: string, domain: string, signal?: AbortSignal): Promise<ProfileList> {
  return answer(vpnClient.GET(PROFILES, { params: { path: { domain } }, headers: bearer(token), signal }));
}

/** Creates a profile, or edits the one named by `id` (spec 7: edit is also POST). */
export function saveProfile(
  token: string,
  domain: string,
  values: ProfileFormValues,
  id?: string,
): Promise<Profile> {
  return answer(
    vpnClient.POST(PROFILES, {
      params: { path: { domain } },
      body: profileInput(values, id),
      headers: bearer(token),
    }),
  );
}

export async function deleteProfile(token: string, domain: string, id: string): Promise<void> {
  await answer(vpnClient.DELETE(PROFILE, { params: { path: { domain, id } }, headers: bearer(token) }));
}

// --- applications ------------------------------------------------------------------------------------------------

export function fetchApplications(
  token: string,
  domain: string,
  signal?: AbortSignal,
): Promise<ApplicationList> {
  return answer(vpnClient.GET(ACTIONS, { params: { path: { domain } }, headers: bearer(token), signal }));
}

/** POST creates; PUT edits the application named by `id`. */
export function saveApplication(
  token: string,
  domain: string,
  values: ApplicationFormValues,
  id?: string,
): Promise<Application> {
  const options = {
    params: { path: { domain } },
    body: applicationInput(values, id),
    headers: bearer(token),
  };
  return answer(id ? vpnClient.PUT(ACTIONS, options) : vpnClient.POST(ACTIONS, options));
}

export async function deleteApplication(token: string, domain: string, id: string): Promise<void> {
  await answer(vpnClient.DELETE(ACTION, { params: { path: { domain, id } }, headers: bearer(token) }));
}

// --- shortcuts (the user's application preferences) --------------------------------------------------------------

/** Spec 7/9: every shortcut of the user, page 0 of 200. */
export function fetchShortcuts(
  token: string,
  orgResourceId: string,
  signal?: AbortSignal,
): Promise<ShortcutPage> {
  return answer(
    vpnClient.GET(PREFERENCES, {
      params: {
        path: { orgResourceId, x: 'all' },
        query: { page: 0, pageSize: vpn.APPLICATION_PREFERENCES_PAGE_SIZE },
      },
      headers: bearer(token),
      signal,
    }),
  );
}

/** Spec 7: the five values are path segments. */
export function createShortcut(
  token: string,
  orgResourceId: string,
  values: ShortcutFormValues,
): Promise<Shortcut> {
  return answer(
    vpnClient.POST(PREFERENCE_CREATE, {
      params: {
        path: {
          orgResourceId,
          gateway: values.gateway,
          endpoint: values.endpoint,
          action: values.application,
          clientOs: values.clientOs,
          label: values.label.trim(),
        },
      },
      headers: bearer(token),
    }),
  );
}

export async function deleteShortcut(token: string, orgResourceId: string, id: string): Promise<void> {
  await answer(
    vpnClient.DELETE(PREFERENCE, { params: { path: { orgResourceId, id } }, headers: bearer(token) }),
  );
}
