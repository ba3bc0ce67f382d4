import type { AlarmsPaths, CorePaths, NotificationsPaths, OkBody } from '@edgeport/api-client';
import { alarmsClient, answer, bearer, coreClient, notificationsClient } from '../../shared/http/clients.ts';

const RULES = '/svc/notifications/api/v1/notifications';
const RULE = '/svc/notifications/api/v1/notifications/{id}';
const ALARM_RULES = '/svc/alarms/api/v1/rules';
const USERS = '/svc/core/api/v1/organizations/{org}/users';
const GROUPS = '/svc/core/api/v1/organizations/{org}/userGroups';

export type RuleList = OkBody<NotificationsPaths, typeof RULES, 'get'>;
export type NotificationRule = RuleList['items'][number];
/** The body of POST and PUT /notifications. */
export type NotificationInput =
  NotificationsPaths[typeof RULES]['post']['requestBody']['content']['application/json'];
export type AlarmRuleOption = OkBody<AlarmsPaths, typeof ALARM_RULES, 'get'>['items'][number];
export type UserOption = OkBody<CorePaths, typeof USERS, 'get'>['items'][number];
export type GroupOption = OkBody<CorePaths, typeof GROUPS, 'get'>['items'][number];

export const RULES_KEY = 'notification-rules';

export function fetchRules(token: string, organization: string, signal?: AbortSignal): Promise<RuleList> {
  return answer(
    notificationsClient.GET(RULES, { params: { query: { organization } }, headers: bearer(token), signal }),
  );
}

export function createRule(
  token: string,
  organization: string,
  input: NotificationInput,
): Promise<NotificationRule> {
  return answer(
    notificationsClient.POST(RULES, {
      params: { query: { organization } },
      body: input,
      headers: bearer(token),
    }),
  );
}

export function updateRule(
  token: string,
  organization: string,
  id: string,
  input: NotificationInput,
): Promise<NotificationRule> {
  return answer(
    notificationsClient.PUT(RULE, {
      params: { path: { id }, query: { organization } },
      body: input,
      headers: bearer(token),
    }),
  );
}

export async function deleteRule(token: string, organization: string, id: string): Promise<void> {
  await answer(
    notificationsClient.DELETE(RULE, {
      params: { path: { id }, query: { organization } },
      headers: bearer(token),
    }),
  );
}

/** The organization's alarm rules (READ devices), for "which alarm rules" pickers. */
export async function fetchAlarmRuleOptions(
  token: string,
  organization: string,
  signal?: AbortSignal,
): Promise<AlarmRuleOption[]> {
  const list = await answer(
    alarmsClient.GET(ALARM_RULES, { params: { query: { organization } }, headers: bearer(token), signal }),
  );
  return list.items;
}

/** Everything a picker offers, first 1000 (users by e-mail, groups by name). */
const PICKER = { page: 0, pageSize: 1000, order: 'asc' } as const;

export async function fetchUserOptions(
  token: string,
  org: string,
  signal?: AbortSignal,
): Promise<UserOption[]> {
  const page = await answer(
    coreClient.GET(USERS, {
      params: { path: { org }, query: { ...PICKER, sort: 'email' } },
      headers: bearer(token),
      signal,
    }),
  );
  return page.items;
}

export async function fetchGroupOptions(
  token: string,
  org: string,
  signal?: AbortSignal,
): Promise<GroupOption[]> {
  const page = await answer(
    coreClient.GET(GROUPS, {
      params: { path: { org }, query: { ...PICKER, sort: 'name' } },
      headers: bearer(token),
      signal,
    }),
  );
  return page.items;
}
