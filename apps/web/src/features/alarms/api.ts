import type { CorePaths, MappingsPaths, OkBody, PlatformPaths } from '@edgeport/api-client';
import {
  alarmsClient,
  answer,
  bearer,
  coreClient,
  mappingsClient,
  platformClient,
} from '../../shared/http/clients.ts';
import type { AlarmAction, BulkAlarmAction } from './actions.ts';
import type { AlarmFilter, AlarmRuleInput, AlarmRulePatch, AlarmSearch } from './types.ts';

export type {
  ActionResult,
  Alarm,
  AlarmDetail,
  AlarmEvent,
  AlarmPage,
  AlarmRule,
  RuleList,
  SeverityCounts,
} from './types.ts';

const SEARCH = '/svc/alarms/api/v1/alarms/search';
const ALARM = '/svc/alarms/api/v1/alarms/{id}';
const COUNTS = '/svc/alarms/api/v1/alarms/severityCount';
const ACTION = {
  ack: '/svc/alarms/api/v1/alarms/action/ack',
  reset: '/svc/alarms/api/v1/alarms/action/reset',
  clear: '/svc/alarms/api/v1/alarms/action/clear',
} as const;
const BULK = {
  ackAll: '/svc/alarms/api/v1/alarms/action/ackAll',
  resetAll: '/svc/alarms/api/v1/alarms/action/resetAll',
  clearAll: '/svc/alarms/api/v1/alarms/action/clearAll',
} as const;
const RULES = '/svc/alarms/api/v1/rules';
const RULE = '/svc/alarms/api/v1/rules/{id}';
const DEVICES = '/svc/core/api/v1/organizations/{org}/devices';
const DATA_PATHS = '/svc/platform/api/v1/organizations/{org}/data/paths';
const PATH_SEARCH = '/svc/mappings/api/v1/organizations/{org}/models/paths/search';

export type DevicePage = OkBody<CorePaths, typeof DEVICES, 'get'>;
export type DeviceOption = DevicePage['items'][number];
export type DataPaths = OkBody<PlatformPaths, typeof DATA_PATHS, 'get'>;
export type PathHits = OkBody<MappingsPaths, typeof PATH_SEARCH, 'post'>;

export function searchAlarms(token: string, organization: string, body: AlarmSearch, signal?: AbortSignal) {
  return answer(
    alarmsClient.POST(SEARCH, { params: { query: { organization } }, body, headers: bearer(token), signal }),
  );
}

export function fetchAlarm(token: string, organization: string, id: string, signal?: AbortSignal) {
  return answer(
    alarmsClient.GET(ALARM, {
      params: { path: { id }, query: { organization } },
      headers: bearer(token),
      signal,
    }),
  );
}

/** Open alarms per severity (spec 4: not cleared, and active or awaiting acknowledgement or reset). */
export function fetchSeverityCounts(token: string, organization: string, signal?: AbortSignal) {
  return answer(
    alarmsClient.GET(COUNTS, { params: { query: { organization } }, headers: bearer(token), signal }),
  );
}

/** Acknowledges, resets or clears the given alarms (at most 500 ids per call). */
export function actOnAlarms(token: string, organization: string, action: AlarmAction, ids: string[]) {
  return answer(
    alarmsClient.POST(ACTION[action], {
      params: { query: { organization } },
      body: { ids },
      headers: bearer(token),
    }),
  );
}

/** The same step on every open alarm that matches the filter. */
export function actOnMatching(
  token: string,
  organization: string,
  action: BulkAlarmAction,
  filter: AlarmFilter,
) {
  return answer(
    alarmsClient.POST(BULK[action], {
      params: { query: { organization } },
      body: { filter },
      headers: bearer(token),
    }),
  );
}

export function fetchRules(token: string, organization: string, signal?: AbortSignal) {
  return answer(
    alarmsClient.GET(RULES, { params: { query: { organization } }, headers: bearer(token), signal }),
  );
}

export function createRule(token: string, organization: string, input: AlarmRuleInput) {
  return answer(
    alarmsClient.POST(RULES, { params: { query: { organization } }, body: input, headers: bearer(token) }),
  );
}

export function updateRule(token: string, organization: string, id: string, patch: AlarmRulePatch) {
  return answer(
    alarmsClient.PUT(RULE, {
      params: { path: { id }, query: { organization } },
      body: patch,
      headers: bearer(token),
    }),
  );
}

export async function deleteRule(token: string, organization: string, id: string): Promise<void> {
  await answer(
    alarmsClient.DELETE(RULE, { params: { path: { id }, query: { organization } }, headers: bearer(token) }),
  );
}

/** The first devices whose label, alias or serial number contains `search` (pickers). */
export function searchDevices(token: string, org: string, search: string, signal?: AbortSignal) {
  return answer(
    coreClient.GET(DEVICES, {
      params: {
        path: { org },
        query: { search: search.trim() || undefined, pageSize: 20, sort: 'label', order: 'asc' },
      },
      headers: bearer(token),
      signal,
    }),
  );
}

/** The model paths a device's preset gives it (READ models and READ devices). */
export function fetchDevicePaths(token: string, org: string, deviceId: string, signal?: AbortSignal) {
  return answer(
    platformClient.GET(DATA_PATHS, {
      params: { path: { org }, query: { deviceIds: [deviceId] } },
      headers: bearer(token),
      signal,
    }),
  );
}

/** Paths of the organization's models containing `query` (READ models): suggestions for a rule on every device. */
export function searchModelPaths(token: string, org: string, query: string, signal?: AbortSignal) {
  return answer(
    mappingsClient.POST(PATH_SEARCH, {
      params: { path: { org } },
      body: { query: query.trim() || undefined, page: 0, pageSize: 50 },
      headers: bearer(token),
      signal,
    }),
  );
}
