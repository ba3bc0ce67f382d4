import type { LicensePaths, MappingsPaths, OkBody } from '@edgeport/api-client';
import { answer, bearer, licenseClient, mappingsClient } from '../../shared/http/clients.ts';

const LICENSES = '/svc/license/api/v1/organizations/{org}/deviceLicenses';
const LICENSE_OF_KEY = '/svc/license/api/v1/organizations/{org}/deviceLicenses/device';
const KEY_ISSUING = '/svc/license/api/v1/organizations/{org}/deviceLicenses/issuing';
const ACTIVATE = '/svc/license/api/v1/organizations/{org}/deviceLicenses/activate';
const ACTIVATE_VPN = '/svc/license/api/v1/organizations/{org}/deviceLicenses/vpn/activate';
const PRESETS = '/svc/mappings/api/v1/organizations/{org}/presets';

export type DeviceLicense = OkBody<LicensePaths, typeof LICENSE_OF_KEY, 'get'>;
export type PresetOption = OkBody<MappingsPaths, typeof PRESETS, 'get'>['items'][number];

export type ActivationInput = {
  activationKey: string;
  label: string;
  presetId?: string;
  serialNumber?: string;
  description?: string;
};

/** The licence of an activation key (404 when the organization has no such key). */
export function fetchLicenseOfKey(
  token: string,
  org: string,
  activationKey: string,
  signal?: AbortSignal,
): Promise<DeviceLicense> {
  return answer(
    licenseClient.GET(LICENSE_OF_KEY, {
      params: { path: { org }, query: { activationKey } },
      headers: bearer(token),
      signal,
    }),
  );
}

/**
 * Whether the caller may issue keys without a licence here: only the realm's operator may; everyone else activates the
 * keys that come with a licence.
 */
export function fetchKeyIssuing(
  token: string,
  org: string,
  signal?: AbortSignal,
): Promise<{ mayIssue: boolean }> {
  return answer(
    licenseClient.GET(KEY_ISSUING, { params: { path: { org } }, headers: bearer(token), signal }),
  );
}

/** One new AVAILABLE licence of the organization; answers its activation key (403 unless the realm's operator). */
export async function issueActivationKey(token: string, org: string, vpn = false): Promise<string> {
  const issued = await answer(
    licenseClient.POST(LICENSES, {
      params: { path: { org } },
      body: { count: 1, vpn },
      headers: bearer(token),
    }),
  );
  const key = issued.items[0]?.activationKey;
  if (!key) throw new Error('no activation key was issued');
  return key;
}

/** Activates the licence (the VPN call for a VPN licence): the answer carries the device's password, once. */
export function activateDevice(token: string, org: string, vpn: boolean, input: ActivationInput) {
  const options = { params: { path: { org } }, body: input, headers: bearer(token) };
  return answer(vpn ? licenseClient.POST(ACTIVATE_VPN, options) : licenseClient.POST(ACTIVATE, options));
}

export type Activation = Awaited<ReturnType<typeof activateDevice>>;

/** The presets a device of the organization may get (its own and shared ones), first 1000 by name. */
export async function fetchPresetOptions(
  token: string,
  org: string,
  signal?: AbortSignal,
): Promise<PresetOption[]> {
  const page = await answer(
    mappingsClient.GET(PRESETS, {
      params: { path: { org }, query: { page: 0, pageSize: 1000, sort: 'name', order: 'asc' } },
      headers: bearer(token),
      signal,
    }),
  );
  return page.items;
}
