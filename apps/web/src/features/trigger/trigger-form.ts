import { SEVERITIES } from '../alarms/severity.ts';
import { webhookProblem } from '../notifications/rule-form.ts';
import type { Trigger, TriggerInput } from './api.ts';

export type TriggerCondition = Trigger['condition'];
export type TriggerAction = Trigger['action'];
type DataCondition = Extract<TriggerCondition, { kind: 'data' }>;
type AlarmCondition = Extract<TriggerCondition, { kind: 'alarm' }>;
export type Comparison = DataCondition['operator'];
export type Severity = AlarmCondition['severities'][number];
export type AlarmEventKind = AlarmCondition['event'];
export type ConditionKind = TriggerCondition['kind'];
export type ActionKind = TriggerAction['kind'];
export type DataValue = string | number | boolean;
/** How the form reads a typed value: as a number, as true/false, or as text. */
export type ValueType = 'number' | 'boolean' | 'string';

export const COMPARISONS: readonly Comparison[] = ['>', '>=', '<', '<=', '==', '!='];
export const TRIGGER_EVENTS: readonly AlarmEventKind[] = [
  'RAISED',
  'ACKNOWLEDGED',
  'RESET',
  'CONDITION_CLEARED',
  'CLEARED',
  'CLOSED',
];
export const CONDITION_KINDS: readonly ConditionKind[] = ['data', 'alarm'];
export const ACTION_KINDS: readonly ActionKind[] = ['notify', 'webhook', 'write', 'alarm'];

export const TRIGGER_LIMITS = {
  name: 120,
  path: 300,
  message: 500,
  cooldownSeconds: 86_400,
  ruleIds: 200,
} as const;

/** What the trigger form edits: every kind's fields are kept, only the chosen kinds' go to the server. */
export type TriggerFormValues = {
  name: string;
  enabled: boolean;
  cooldownSeconds: number;
  conditionKind: ConditionKind;
  data: { deviceId: string; path: string; operator: Comparison; valueType: ValueType; value: string };
  alarm: { event: AlarmEventKind; severities: Severity[]; ruleIds: string[] };
  actionKind: ActionKind;
  notify: { notificationId: string };
  webhook: { url: string };
  write: { deviceId: string; path: string; valueType: ValueType; value: string };
  raise: { severity: Severity; message: string; ackRequired: boolean; resetRequired: boolean };
};

export function emptyTriggerValues(): TriggerFormValues {
  return {
    name: '',
    enabled: true,
    cooldownSeconds: 0,
    conditionKind: 'data',
    data: { deviceId: '', path: '', operator: '>', valueType: 'number', value: '' },
    alarm: { event: 'RAISED', severities: [], ruleIds: [] },
    actionKind: 'notify',
    notify: { notificationId: '' },
    webhook: { url: '' },
    write: { deviceId: '', path: '', valueType: 'number', value: '' },
    raise: { severity: 'MAJOR', message: '', ackRequired: true, resetRequired: false },
  };
}

/** A stored value as the form's type and text. */
export function valueToField(value: DataValue): { valueType: ValueType; value: string } {
  if (typeof value === 'number') return { valueType: 'number', value: String(value) };
  if (typeof value === 'boolean') return { valueType: 'boolean', value: String(value) };
  return { valueType: 'string', value };
}

/** The typed text as a value of its type, or undefined when it is not one (a number that does not parse). */
export function parseValue(valueType: ValueType, text: string): DataValue | undefined {
  if (valueType === 'string') return text;
  const trimmed = text.trim();
  if (valueType === 'boolean') {
    if (trimmed === 'true') return true;
    if (trimmed === 'false') return false;
    return undefined;
  }
  if (trimmed === '') return undefined;
  const number = Number(trimmed.replace(',', '.'));
  return Number.isFinite(number) ? number : undefined;
}

/** A stored trigger as the form shows it. */
export function triggerToValues(trigger: Trigger): TriggerFormValues {
  const values = emptyTriggerValues();
  values.name = trigger.name;
  values.enabled = trigger.enabled;
  values.cooldownSeconds = trigger.cooldownSeconds;
  const { condition, action } = trigger;
  values.conditionKind = condition.kind;
  if (condition.kind === 'data') {
    values.data = {
      deviceId: condition.deviceId ?? '',
      path: condition.path,
      operator: condition.operator,
      ...valueToField(condition.value),
    };
  } else {
    values.alarm = {
      event: condition.event,
      severities: [...condition.severities],
      ruleIds: [...condition.ruleIds],
    };
  }
  values.actionKind = action.kind;
  if (action.kind === 'notify') values.notify = { notificationId: action.notificationId };
  else if (action.kind === 'webhook') values.webhook = { url: action.url };
  else if (action.kind === 'write')
    values.write = { deviceId: action.deviceId, path: action.path, ...valueToField(action.value) };
  else
    values.raise = {
      severity: action.severity,
      message: action.message,
      ackRequired: action.ackRequired,
      resetRequired: action.resetRequired,
    };
  return values;
}

export type TriggerField =
  | 'name'
  | 'cooldownSeconds'
  | 'data.path'
  | 'data.value'
  | 'notify.notificationId'
  | 'webhook.url'
  | 'write.deviceId'
  | 'write.path'
  | 'write.value'
  | 'raise.message';

export type TriggerProblem = { field: TriggerField; kind: string };

/** A model path: '/' then segments separated by '/', no empty segment. */
export function isModelPath(path: string): boolean {
  return /^(\/[^/\s]+)+$/.test(path.trim()) && path.trim().length <= TRIGGER_LIMITS.path;
}

/** Everything the form refuses before asking the server (empty: it may be saved). */
export function triggerProblems(values: TriggerFormValues): TriggerProblem[] {
  const problems: TriggerProblem[] = [];
  const name = values.name.trim();
  if (!name) problems.push({ field: 'name', kind: 'required' });
  else if (name.length > TRIGGER_LIMITS.name) problems.push({ field: 'name', kind: 'tooLong' });
  const cooldown = values.cooldownSeconds;
  if (!Number.isInteger(cooldown) || cooldown < 0 || cooldown > TRIGGER_LIMITS.cooldownSeconds)
    problems.push({ field: 'cooldownSeconds', kind: 'range' });
  if (values.conditionKind === 'data') {
    if (!isModelPath(values.data.path)) problems.push({ field: 'data.path', kind: 'path' });
    if (parseValue(values.data.valueType, values.data.value) === undefined)
      problems.push({ field: 'data.value', kind: values.data.valueType });
  }
  switch (values.actionKind) {
    case 'notify':
      if (!values.notify.notificationId) problems.push({ field: 'notify.notificationId', kind: 'required' });
      break;
    case 'webhook': {
      const problem = values.webhook.url.trim() ? webhookProblem(values.webhook.url) : 'required';
      if (problem) problems.push({ field: 'webhook.url', kind: problem });
      break;
    }
    case 'write':
      if (!values.write.deviceId) problems.push({ field: 'write.deviceId', kind: 'required' });
      if (!isModelPath(values.write.path)) problems.push({ field: 'write.path', kind: 'path' });
      if (parseValue(values.write.valueType, values.write.value) === undefined)
        problems.push({ field: 'write.value', kind: values.write.valueType });
      break;
    case 'alarm': {
      const message = values.raise.message.trim();
      if (!message) problems.push({ field: 'raise.message', kind: 'required' });
      else if (message.length > TRIGGER_LIMITS.message)
        problems.push({ field: 'raise.message', kind: 'tooLong' });
      break;
    }
  }
  return problems;
}

/** The condition the form describes, as the contract takes it. Call only when triggerProblems found nothing. */
export function conditionOf(values: TriggerFormValues): TriggerCondition {
  if (values.conditionKind === 'alarm') {
    return {
      kind: 'alarm',
      event: values.alarm.event,
      severities: SEVERITIES.filter((severity) => values.alarm.severities.includes(severity)),
      ruleIds: [...new Set(values.alarm.ruleIds)],
    };
  }
  return {
    kind: 'data',
    deviceId: values.data.deviceId || null,
    path: values.data.path.trim(),
    operator: values.data.operator,
    value: required(parseValue(values.data.valueType, values.data.value)),
  };
}

/** The action the form describes, as the contract takes it. Call only when triggerProblems found nothing. */
export function actionOf(values: TriggerFormValues): TriggerAction {
  switch (values.actionKind) {
    case 'notify':
      return { kind: 'notify', notificationId: values.notify.notificationId };
    case 'webhook':
      return { kind: 'webhook', url: values.webhook.url.trim() };
    case 'write':
      return {
        kind: 'write',
        deviceId: values.write.deviceId,
        path: values.write.path.trim(),
        value: required(parseValue(values.write.valueType, values.write.value)),
      };
    case 'alarm':
      return {
        kind: 'alarm',
        severity: values.raise.severity,
        message: values.raise.message.trim(),
        ackRequired: values.raise.ackRequired,
        resetRequired: values.raise.resetRequired,
      };
  }
}

/** The body of POST /triggers (and PUT, which takes every field too). */
export function valuesToInput(values: TriggerFormValues): TriggerInput {
  return {
    name: values.name.trim(),
    enabled: values.enabled,
    condition: conditionOf(values),
    action: actionOf(values),
    cooldownSeconds: values.cooldownSeconds,
  };
}

function required(value: DataValue | undefined): DataValue {
  if (value === undefined) throw new Error('the value was not checked before building the trigger');
  return value;
}

/** "/motor/speed > 80", "/door/open == true", '/state == "fault"' (text values quoted). */
export function comparisonText(path: string, operator: Comparison, value: DataValue): string {
  return `${path} ${operator} ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`;
}

/** A trigger's state in the list: its last run failed (the error stays until a run succeeds), never ran, or ran. */
export function runState(trigger: Pick<Trigger, 'lastError' | 'lastRunAt'>) {
  if (trigger.lastError) return 'failing' as const;
  return trigger.lastRunAt ? ('ran' as const) : ('never' as const);
}
