// Alarm rules on model paths, the alarms they raise, their history and counts (service `/svc/alarms`).
import { type Static, Type } from 'typebox';
import { DataValue, literals, nullableUuid, Uuid } from './common.ts';

import { SEVERITIES } from './values/alarms.ts';

export * from './values/alarms.ts';
export type Severity = (typeof SEVERITIES)[number];
export const Severity = literals(SEVERITIES);

/** Every alarm call names the organization (its id or resourceId) in the query, as spec 7 asks. */
export const OrganizationQuery = Type.Object(
  { organization: Type.String({ minLength: 1, maxLength: 80 }) },
  { additionalProperties: false },
);
export type OrganizationQuery = Static<typeof OrganizationQuery>;

export const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });

const RulePath = Type.String({
  minLength: 2,
  maxLength: 300,
  pattern: '^/',
  description: 'model path the rule watches',
});
export const Comparison = literals(['>', '>=', '<', '<=', '==', '!=']);
export type Comparison = Static<typeof Comparison>;

/** Holds while `value {operator} threshold`; clears only once it is false by more than the rule's hysteresis. */
export const ThresholdCondition = Type.Object(
  { kind: Type.Literal('threshold'), path: RulePath, operator: Comparison, value: Type.Number() },
  { additionalProperties: false },
);
/** Holds while the value is outside [low, high] (or inside, with `inside: true`). */
export const RangeCondition = Type.Object(
  {
    kind: Type.Literal('range'),
    path: RulePath,
    low: Type.Number(),
    high: Type.Number(),
    inside: Type.Optional(Type.Boolean({ description: 'absent: false' })),
  },
  { additionalProperties: false },
);
/** Holds while a boolean path equals `value`. */
export const BooleanCondition = Type.Object(
  { kind: Type.Literal('boolean'), path: RulePath, value: Type.Boolean() },
  { additionalProperties: false },
);
/** Holds once the path has reported nothing for `seconds` (after it reported once); the next value clears it. */
export const NoDataCondition = Type.Object(
  { kind: Type.Literal('noData'), path: RulePath, seconds: Type.Integer({ minimum: 1, maximum: 604_800 }) },
  { additionalProperties: false },
);
/** Holds while the device is OFFLINE. */
export const OfflineCondition = Type.Object(
  { kind: Type.Literal('offline') },
  { additionalProperties: false },
);
export const AlarmCondition = Type.Union([
  ThresholdCondition,
  RangeCondition,
  BooleanCondition,
  NoDataCondition,
  OfflineCondition,
]);
export type AlarmCondition = Static<typeof AlarmCondition>;

const ruleFields = {
  name: Type.String({ minLength: 1, maxLength: 120 }),
  description: Type.Optional(Type.String({ maxLength: 500 })),
  enabled: Type.Optional(Type.Boolean({ default: true })),
  deviceId: Type.Optional(nullableUuid('one device; null or absent: every device of the organization')),
  condition: AlarmCondition,
  severity: Severity,
  ackRequired: Type.Optional(
    Type.Boolean({ default: false, description: 'ack REQUIRED on every alarm raised' }),
  ),
  resetRequired: Type.Optional(
    Type.Boolean({ default: false, description: 'reset REQUIRED on every alarm raised' }),
  ),
  delaySeconds: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 86_400,
      default: 0,
      description: 'the condition must hold this long',
    }),
  ),
  hysteresis: Type.Optional(Type.Number({ minimum: 0, default: 0 })),
  message: Type.Optional(
    Type.String({
      maxLength: 500,
      description: 'template: {device}, {path}, {value}, {rule}, {severity}; empty: a default text',
    }),
  ),
};
export const AlarmRuleInput = Type.Object(ruleFields, { additionalProperties: false });
export type AlarmRuleInput = Static<typeof AlarmRuleInput>;
export const AlarmRulePatch = Type.Partial(AlarmRuleInput, { additionalProperties: false });
export type AlarmRulePatch = Static<typeof AlarmRulePatch>;

export const AlarmRule = Type.Object({
  id: Uuid,
  organizationId: Uuid,
  name: Type.String(),
  description: Type.String(),
  enabled: Type.Boolean(),
  deviceId: Type.Union([Uuid, Type.Null()]),
  deviceLabel: Type.Union([Type.String(), Type.Null()]),
  condition: AlarmCondition,
  severity: Severity,
  ackRequired: Type.Boolean(),
  resetRequired: Type.Boolean(),
  delaySeconds: Type.Integer(),
  hysteresis: Type.Number(),
  message: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type AlarmRule = Static<typeof AlarmRule>;
export const AlarmRuleList = Type.Object({ items: Type.Array(AlarmRule), total: Type.Integer() });

/** ACTIVE while the condition holds, CLEARED once it no longer does (or an operator cleared the alarm). */
export const AlarmStatus = Type.Union([Type.Literal('ACTIVE'), Type.Literal('CLEARED')]);
export type AlarmStatus = Static<typeof AlarmStatus>;
/** Whether an acknowledgement (or a reset) is still REQUIRED, was DONE, or is NOT_REQUIRED by the rule. */
export const Requirement = Type.Union([
  Type.Literal('REQUIRED'),
  Type.Literal('DONE'),
  Type.Literal('NOT_REQUIRED'),
]);
export type Requirement = Static<typeof Requirement>;

export const ALARM_EVENT_KINDS = [
  'RAISED',
  'ACKNOWLEDGED',
  'RESET',
  'CONDITION_CLEARED',
  'CLEARED',
  'CLOSED',
] as const;
export type AlarmEventKind = (typeof ALARM_EVENT_KINDS)[number];
export const AlarmEventKind = literals(ALARM_EVENT_KINDS);

export const Alarm = Type.Object({
  id: Uuid,
  organizationId: Uuid,
  ruleId: Type.Union([Uuid, Type.Null()]),
  triggerId: Type.Union([Uuid, Type.Null()], {
    description: 'raised by a trigger rule instead of an alarm rule',
  }),
  deviceId: Type.Union([Uuid, Type.Null()]),
  deviceLabel: Type.Union([Type.String(), Type.Null()]),
  name: Type.String({ description: "the rule's (or trigger's) name when the alarm was raised" }),
  path: Type.Union([Type.String(), Type.Null()]),
  severity: Severity,
  status: AlarmStatus,
  ack: Requirement,
  reset: Requirement,
  open: Type.Boolean({
    description:
      'not cleared by an operator and still active or awaiting ack or reset: what counts (spec 4); closed alarms are history',
  }),
  message: Type.String(),
  value: Type.Union([DataValue, Type.Null()], { description: 'the value that raised it' }),
  raisedAt: Type.String({ format: 'date-time' }),
  conditionClearedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  ackAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  ackBy: Type.Union([Type.String(), Type.Null()]),
  resetAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  resetBy: Type.Union([Type.String(), Type.Null()]),
  clearedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  clearedBy: Type.Union([Type.String(), Type.Null()], {
    description: 'null with clearedAt: it closed by itself',
  }),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type Alarm = Static<typeof Alarm>;

export const AlarmEvent = Type.Object({
  id: Type.Integer(),
  kind: AlarmEventKind,
  at: Type.String({ format: 'date-time' }),
  by: Type.Union([Type.String(), Type.Null()], { description: "the operator's user name; null: the system" }),
  value: Type.Union([DataValue, Type.Null()]),
  detail: Type.String(),
});
export type AlarmEvent = Static<typeof AlarmEvent>;
export const AlarmWithHistory = Type.Object({ ...Alarm.properties, history: Type.Array(AlarmEvent) });
export type AlarmWithHistory = Static<typeof AlarmWithHistory>;

/** Search and bulk-action filter: every given field narrows. */
export const AlarmFilter = Type.Object(
  {
    open: Type.Optional(Type.Boolean({ description: 'true: only open alarms; false: only closed ones' })),
    severities: Type.Optional(Type.Array(Severity, { maxItems: 5 })),
    statuses: Type.Optional(Type.Array(AlarmStatus, { maxItems: 2 })),
    ack: Type.Optional(Requirement),
    reset: Type.Optional(Requirement),
    deviceId: Type.Optional(Uuid),
    ruleId: Type.Optional(Uuid),
    search: Type.Optional(
      Type.String({ maxLength: 200, description: 'in message, rule name, device label' }),
    ),
    from: Type.Optional(Type.String({ format: 'date-time', description: 'raised at or after' })),
    to: Type.Optional(Type.String({ format: 'date-time', description: 'raised before' })),
  },
  { additionalProperties: false },
);
export type AlarmFilter = Static<typeof AlarmFilter>;

export const AlarmSearch = Type.Object(
  {
    ...AlarmFilter.properties,
    page: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
    sort: Type.Optional(literals(['raisedAt', 'severity', 'deviceLabel', 'name', 'updatedAt'])),
    order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
  },
  { additionalProperties: false },
);
export type AlarmSearch = Static<typeof AlarmSearch>;
export const AlarmPage = Type.Object({
  items: Type.Array(Alarm),
  total: Type.Integer(),
  page: Type.Integer(),
  pageSize: Type.Integer(),
});

export const SeverityCounts = Type.Object({
  CRITICAL: Type.Integer(),
  MAJOR: Type.Integer(),
  MINOR: Type.Integer(),
  WARNING: Type.Integer(),
  INFO: Type.Integer(),
  total: Type.Integer(),
});
export type SeverityCounts = Static<typeof SeverityCounts>;
export const SeverityCountQuery = Type.Object(
  {
    ...OrganizationQuery.properties,
    filter: Type.Optional(Type.String({ maxLength: 200, description: 'as the search text' })),
  },
  { additionalProperties: false },
);
export const SeverityCountByDeviceQuery = Type.Object(
  {
    ...OrganizationQuery.properties,
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
    next: Type.Optional(
      Type.String({ maxLength: 200, description: 'the cursor the previous page answered' }),
    ),
  },
  { additionalProperties: false },
);
export const SeverityCountByDevice = Type.Object({
  items: Type.Array(Type.Object({ deviceId: Uuid, deviceLabel: Type.String(), counts: SeverityCounts })),
  next: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
});

/** One alarm or several chosen ones (`ack`, `reset`, `clear`). */
export const AlarmSelection = Type.Object(
  { ids: Type.Array(Uuid, { minItems: 1, maxItems: 500 }) },
  { additionalProperties: false },
);
/** Every open alarm matching the filter (`ackAll`, `resetAll`, `clearAll`). */
export const AlarmBulk = Type.Object({ filter: Type.Optional(AlarmFilter) }, { additionalProperties: false });
export const AlarmActionResult = Type.Object({
  affected: Type.Integer({
    description: 'alarms the action changed; alarms it did not apply to are left alone',
  }),
});
