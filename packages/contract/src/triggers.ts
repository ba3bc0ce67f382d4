// Trigger rules: "when <condition on data or alarm state> then <action>" (service `/svc/triggermanager`).
import { type Static, Type } from 'typebox';
import { AlarmEventKind, Comparison, Severity } from './alarms.ts';
import { DataValue, nullableUuid, Uuid } from './common.ts';

const Path = Type.String({ minLength: 2, maxLength: 300, pattern: '^/' });

/** Fires when the comparison becomes true for a value of the path (again only after it was false in between). */
export const DataCondition = Type.Object(
  {
    kind: Type.Literal('data'),
    deviceId: nullableUuid('null: every device of the organization'),
    path: Path,
    operator: Comparison,
    value: DataValue,
  },
  { additionalProperties: false },
);
/** Fires on an alarm event of the given kind (and severities / alarm rules, when given). */
export const AlarmStateCondition = Type.Object(
  {
    kind: Type.Literal('alarm'),
    event: AlarmEventKind,
    severities: Type.Array(Severity, { maxItems: 5, description: 'empty: every severity' }),
    ruleIds: Type.Array(Uuid, { maxItems: 200, description: 'empty: every alarm rule' }),
  },
  { additionalProperties: false },
);
export const TriggerCondition = Type.Union([DataCondition, AlarmStateCondition]);
export type TriggerCondition = Static<typeof TriggerCondition>;

export const NotifyAction = Type.Object(
  { kind: Type.Literal('notify'), notificationId: Uuid },
  { additionalProperties: false },
);
export const WebhookAction = Type.Object(
  {
    kind: Type.Literal('webhook'),
    url: Type.String({ format: 'uri', maxLength: 2000, pattern: '^https?://' }),
  },
  { additionalProperties: false },
);
export const WriteAction = Type.Object(
  { kind: Type.Literal('write'), deviceId: Uuid, path: Path, value: DataValue },
  { additionalProperties: false },
);
export const RaiseAlarmAction = Type.Object(
  {
    kind: Type.Literal('alarm'),
    severity: Severity,
    message: Type.String({ minLength: 1, maxLength: 500 }),
    ackRequired: Type.Boolean(),
    resetRequired: Type.Boolean(),
  },
  { additionalProperties: false },
);
export const TriggerAction = Type.Union([NotifyAction, WebhookAction, WriteAction, RaiseAlarmAction]);
export type TriggerAction = Static<typeof TriggerAction>;

const triggerFields = {
  name: Type.String({ minLength: 1, maxLength: 120 }),
  enabled: Type.Optional(Type.Boolean({ default: true })),
  condition: TriggerCondition,
  action: TriggerAction,
  cooldownSeconds: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 86_400,
      default: 0,
      description: 'fires at most once per this long',
    }),
  ),
};
export const TriggerInput = Type.Object(triggerFields, { additionalProperties: false });
export type TriggerInput = Static<typeof TriggerInput>;
export const TriggerPatch = Type.Partial(TriggerInput, { additionalProperties: false });
export type TriggerPatch = Static<typeof TriggerPatch>;

export const Trigger = Type.Object({
  id: Uuid,
  organizationId: Uuid,
  name: Type.String(),
  enabled: Type.Boolean(),
  condition: TriggerCondition,
  action: TriggerAction,
  cooldownSeconds: Type.Integer(),
  runCount: Type.Integer(),
  lastRunAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]),
  lastErrorAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type Trigger = Static<typeof Trigger>;
export const TriggerList = Type.Object({ items: Type.Array(Trigger), total: Type.Integer() });
