import type { AlarmsPaths, OkBody } from '@edgeport/api-client';

// Every shape here comes from the alarm service's generated client (its OpenAPI document), never typed by hand.

type JsonBody<
  Path extends keyof AlarmsPaths,
  Method extends keyof AlarmsPaths[Path],
> = AlarmsPaths[Path][Method] extends {
  requestBody?: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;

export type AlarmPage = OkBody<AlarmsPaths, '/svc/alarms/api/v1/alarms/search', 'post'>;
export type Alarm = AlarmPage['items'][number];
export type AlarmDetail = OkBody<AlarmsPaths, '/svc/alarms/api/v1/alarms/{id}', 'get'>;
export type AlarmEvent = AlarmDetail['history'][number];
export type SeverityCounts = OkBody<AlarmsPaths, '/svc/alarms/api/v1/alarms/severityCount', 'get'>;
export type ActionResult = OkBody<AlarmsPaths, '/svc/alarms/api/v1/alarms/action/ack', 'post'>;
export type RuleList = OkBody<AlarmsPaths, '/svc/alarms/api/v1/rules', 'get'>;
export type AlarmRule = RuleList['items'][number];

export type AlarmSearch = JsonBody<'/svc/alarms/api/v1/alarms/search', 'post'>;
export type AlarmFilter = NonNullable<JsonBody<'/svc/alarms/api/v1/alarms/action/ackAll', 'post'>['filter']>;
export type AlarmRuleInput = JsonBody<'/svc/alarms/api/v1/rules', 'post'>;
export type AlarmRulePatch = JsonBody<'/svc/alarms/api/v1/rules/{id}', 'put'>;

export type Severity = Alarm['severity'];
export type AlarmStatus = Alarm['status'];
export type Requirement = Alarm['ack'];
export type AlarmCondition = AlarmRule['condition'];
export type ConditionKind = AlarmCondition['kind'];
export type Comparison = Extract<AlarmCondition, { kind: 'threshold' }>['operator'];
export type AlarmEventKind = AlarmEvent['kind'];
