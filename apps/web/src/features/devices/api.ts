import type { CorePaths, MappingsPaths, OkBody, PlatformPaths } from '@edgeport/api-client';
import { answer, bearer, coreClient, mappingsClient, platformClient } from '../../shared/http/clients.ts';
import type { PageRequest } from '../../shared/ui/DataTable.tsx';

const DEVICES = '/svc/core/api/v1/organizations/{org}/devices';
const DEVICE = '/svc/core/api/v1/organizations/{org}/devices/{id}';
const BULK = '/svc/core/api/v1/organizations/{org}/devices/bulk';
const TAGS = '/svc/core/api/v1/organizations/{org}/devices/tags';
const POSITIONS = '/svc/core/api/v1/organizations/{org}/devices/positions';
const MAP_SETTINGS = '/svc/core/api/v1/organizations/{org}/devices/mapSettings';
const GROUPS = '/svc/core/api/v1/organizations/{org}/deviceGroups';
const GROUP = '/svc/core/api/v1/organizations/{org}/deviceGroups/{id}';
const GROUP_DEVICES = '/svc/core/api/v1/organizations/{org}/deviceGroups/{id}/devices';
const GROUP_MEMBERS = '/svc/core/api/v1/organizations/{org}/deviceGroups/{id}/devices/{devices}';
const STATUS = '/svc/platform/api/v1/organizations/{org}/devices/{id}/status';
const VALUES = '/svc/platform/api/v1/organizations/{org}/devices/{id}/values';
const PRESET = '/svc/mappings/api/v1/organizations/{org}/presets/{id}';
const CLIENTS = '/svc/core/api/v1/organizations/{org}/clients';

export type DevicePage = OkBody<CorePaths, typeof DEVICES, 'get'>;
export type Device = DevicePage['items'][number];
export type DeviceDetail = OkBody<CorePaths, typeof DEVICE, 'get'>;
export type TagCounts = OkBody<CorePaths, typeof TAGS, 'get'>;
export type DevicePositions = OkBody<CorePaths, typeof POSITIONS, 'get'>;
export type DevicePosition = DevicePositions['items'][number];
export type MapSettings = OkBody<CorePaths, typeof MAP_SETTINGS, 'get'>;
export type BulkResult = OkBody<CorePaths, typeof BULK, 'post'>;
export type DeviceGroupPage = OkBody<CorePaths, typeof GROUPS, 'get'>;
export type DeviceGroup = DeviceGroupPage['items'][number];
export type GroupMemberPage = OkBody<CorePaths, typeof GROUP_DEVICES, 'get'>;
export type GroupMember = GroupMemberPage['items'][number];
export type ServiceClientPage = OkBody<CorePaths, typeof CLIENTS, 'get'>;
export type StatusHistory = OkBody<PlatformPaths, typeof STATUS, 'get'>;
export type LatestValues = OkBody<PlatformPaths, typeof VALUES, 'get'>;
export type LatestValue = LatestValues['values'][number];
export type Preset = OkBody<MappingsPaths, typeof PRESET, 'get'>;

export type DeviceStatus = 'ONLINE' | 'OFFLINE';
/** What the devices table asks for: the page request plus its filters. */
export type DeviceListRequest = PageRequest & {
  status?: DeviceStatus;
  tag?: string[];
  groupId?: string;
  positioned?: boolean;
};
export type DeviceChanges = {
  label?: string;
  alias?: string | null;
  description?: string;
  tags?: string[];
  latitude?: number | null;
  longitude?: number | null;
  /** Experimental deviceServiceAccountAssociation: a service client of the organization, or null. */
  serviceClientId?: string | null;
};
export type BulkRequest =
  | { action: 'addTags' | 'removeTags'; ids: string[]; tags: string[] }
  | { action: 'setGroup'; ids: string[]; groupId: string }
  | { action: 'delete'; ids: string[] };

export function fetchDevices(token: string, org: string, request: DeviceListRequest, signal?: AbortSignal) {
  const query = { ...request, tag: request.tag?.length ? request.tag : undefined };
  return answer(
    coreClient.GET(DEVICES, { params: { path: { org }, query }, headers: bearer(token), signal }),
  );
}

export function fetchDevice(
  token: string,
  org: string,
  id: string,
  signal?: AbortSignal,
): Promise<DeviceDetail> {
  return answer(coreClient.GET(DEVICE, { params: { path: { org, id } }, headers: bearer(token), signal }));
}

export function updateDevice(
  token: string,
  org: string,
  id: string,
  changes: DeviceChanges,
): Promise<Device> {
  return answer(
    coreClient.PATCH(DEVICE, { params: { path: { org, id } }, body: changes, headers: bearer(token) }),
  );
}

export function bulkDevices(token: string, org: string, request: BulkRequest): Promise<BulkResult> {
  return answer(coreClient.POST(BULK, { params: { path: { org } }, body: request, headers: bearer(token) }));
}

export function fetchTagCounts(token: string, org: string, signal?: AbortSignal): Promise<TagCounts> {
  return answer(coreClient.GET(TAGS, { params: { path: { org } }, headers: bearer(token), signal }));
}

export type Box = { south: number; west: number; north: number; east: number };

export function fetchPositions(
  token: string,
  org: string,
  filter: { box?: Box; status?: DeviceStatus; tag?: string[]; search?: string },
  signal?: AbortSignal,
): Promise<DevicePositions> {
  const query = {
    ...filter.box,
    status: filter.status,
    tag: filter.tag?.length ? filter.tag : undefined,
    search: filter.search || undefined,
  };
  return answer(
    coreClient.GET(POSITIONS, { params: { path: { org }, query }, headers: bearer(token), signal }),
  );
}

export function fetchMapSettings(token: string, org: string, signal?: AbortSignal): Promise<MapSettings> {
  return answer(coreClient.GET(MAP_SETTINGS, { params: { path: { org } }, headers: bearer(token), signal }));
}

export function fetchDeviceGroups(token: string, org: string, request: PageRequest, signal?: AbortSignal) {
  return answer(
    coreClient.GET(GROUPS, { params: { path: { org }, query: request }, headers: bearer(token), signal }),
  );
}

/** Every group a picker offers: the first 1000 by name. */
export async function fetchGroupOptions(token: string, org: string, signal?: AbortSignal) {
  const page = await fetchDeviceGroups(
    token,
    org,
    { page: 0, pageSize: 1000, sort: 'name', order: 'asc' },
    signal,
  );
  return page.items;
}

export function fetchDeviceGroup(
  token: string,
  org: string,
  id: string,
  signal?: AbortSignal,
): Promise<DeviceGroup> {
  return answer(coreClient.GET(GROUP, { params: { path: { org, id } }, headers: bearer(token), signal }));
}

export type GroupInput = { name: string; description: string };

export function createDeviceGroup(token: string, org: string, input: GroupInput): Promise<DeviceGroup> {
  return answer(coreClient.POST(GROUPS, { params: { path: { org } }, body: input, headers: bearer(token) }));
}

export function updateDeviceGroup(token: string, org: string, id: string, input: GroupInput) {
  return answer(
    coreClient.PUT(GROUP, { params: { path: { org, id } }, body: input, headers: bearer(token) }),
  );
}

export async function deleteDeviceGroup(token: string, org: string, id: string): Promise<void> {
  await answer(coreClient.DELETE(GROUP, { params: { path: { org, id } }, headers: bearer(token) }));
}

export function fetchGroupMembers(
  token: string,
  org: string,
  id: string,
  request: PageRequest,
  signal?: AbortSignal,
): Promise<GroupMemberPage> {
  return answer(
    coreClient.GET(GROUP_DEVICES, {
      params: { path: { org, id }, query: request },
      headers: bearer(token),
      signal,
    }),
  );
}

export function changeGroupMembers(
  token: string,
  org: string,
  id: string,
  deviceIds: string[],
  change: 'add' | 'remove',
) {
  const options = { params: { path: { org, id, devices: deviceIds.join(',') } }, headers: bearer(token) };
  return answer(
    change === 'add' ? coreClient.POST(GROUP_MEMBERS, options) : coreClient.DELETE(GROUP_MEMBERS, options),
  );
}

export function fetchStatusHistory(
  token: string,
  org: string,
  id: string,
  range: { since?: string; to?: string; limit?: number },
  signal?: AbortSignal,
): Promise<StatusHistory> {
  return answer(
    platformClient.GET(STATUS, {
      params: { path: { org, id }, query: range },
      headers: bearer(token),
      signal,
    }),
  );
}

export function fetchLatestValues(token: string, org: string, id: string, signal?: AbortSignal) {
  return answer(
    platformClient.GET(VALUES, { params: { path: { org, id } }, headers: bearer(token), signal }),
  );
}

/** Sends a set-point to the device (UPDATE devices; the path must be writable for the caller). */
export function writeSetpoint(
  token: string,
  org: string,
  id: string,
  path: string,
  value: number | boolean | string,
) {
  return answer(
    platformClient.POST(VALUES, {
      params: { path: { org, id } },
      body: { path, value },
      headers: bearer(token),
    }),
  );
}

export function fetchPreset(token: string, org: string, id: string, signal?: AbortSignal): Promise<Preset> {
  return answer(
    mappingsClient.GET(PRESET, { params: { path: { org, id } }, headers: bearer(token), signal }),
  );
}

/** The organization's service-account clients by name (at most 1000), for associating one with a device. */
export function fetchServiceClients(
  token: string,
  org: string,
  signal?: AbortSignal,
): Promise<ServiceClientPage> {
  return answer(
    coreClient.GET(CLIENTS, {
      params: { path: { org }, query: { pageSize: 1000, sort: 'name', order: 'asc' } },
      headers: bearer(token),
      signal,
    }),
  );
}
