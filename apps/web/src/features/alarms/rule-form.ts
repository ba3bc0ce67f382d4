import type {
  AlarmCondition,
  AlarmRule,
  AlarmRuleInput,
  Comparison,
  ConditionKind,
  Severity,
} from './types.ts';

export type { Comparison, ConditionKind };

export const CONDITION_KINDS: readonly ConditionKind[] = [
  'threshold',
  'range',
  'boolean',
  'noData',
  'offline',
];
export const COMPARISONS: readonly Comparison[] = ['>', '>=', '<', '<=', '==', '!='];

/** Numbers are kept as typed (a NumberInput gives '' when empty) and checked on submit. */
type NumberField = number | string;

/** Everything the rule form edits, flat: the condition's fields for every kind side by side. */
export type RuleFormValues = {
  name: string;
  description: string;
  enabled: boolean;
  deviceId: string | null;
  kind: ConditionKind;
  path: string;
  operator: Comparison;
  threshold: NumberField;
  low: NumberField;
  high: NumberField;
  inside: boolean;
  /** The boolean condition's value, as a segmented control's value. */
  booleanValue: 'true' | 'false';
  seconds: NumberField;
  severity: Severity;
  ackRequired: boolean;
  resetRequired: boolean;
  delaySeconds: NumberField;
  hysteresis: NumberField;
  message: string;
};

export const NEW_RULE: RuleFormValues = {
  name: '',
  description: '',
  enabled: true,
  deviceId: null,
  kind: 'threshold',
  path: '',
  operator: '>',
  threshold: '',
  low: '',
  high: '',
  inside: false,
  booleanValue: 'true',
  seconds: 300,
  severity: 'MAJOR',
  ackRequired: true,
  resetRequired: false,
  delaySeconds: 0,
  hysteresis: 0,
  message: '',
};

type RuleShape = Pick<
  AlarmRule,
  | 'name'
  | 'description'
  | 'enabled'
  | 'deviceId'
  | 'condition'
  | 'severity'
  | 'ackRequired'
  | 'resetRequired'
  | 'delaySeconds'
  | 'hysteresis'
  | 'message'
>;

/** The form's values for an existing rule. */
export function ruleToForm(rule: RuleShape): RuleFormValues {
  const values: RuleFormValues = {
    ...NEW_RULE,
    name: rule.name,
    description: rule.description,
    enabled: rule.enabled,
    deviceId: rule.deviceId,
    kind: rule.condition.kind,
    severity: rule.severity,
    ackRequired: rule.ackRequired,
    resetRequired: rule.resetRequired,
    delaySeconds: rule.delaySeconds,
    hysteresis: rule.hysteresis,
    message: rule.message,
  };
  const condition = rule.condition;
  switch (condition.kind) {
    case 'threshold':
      return { ...values, path: condition.path, operator: condition.operator, threshold: condition.value };
    case 'range':
      return {
        ...values,
        path: condition.path,
        low: condition.low,
        high: condition.high,
        inside: condition.inside ?? false,
      };
    case 'boolean':
      return { ...values, path: condition.path, booleanValue: condition.value ? 'true' : 'false' };
    case 'noData':
      return { ...values, path: condition.path, seconds: condition.seconds };
    case 'offline':
      return values;
  }
}

/** A typed number ('1.5', '1,5', 2) or undefined when empty or not a number. */
export function parseNumber(value: NumberField): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  const text = value.trim().replace(',', '.');
  if (text === '') return undefined;
  const number = Number(text);
  return Number.isFinite(number) ? number : undefined;
}

/** The message keys (under alarms.rules.validation) of what is wrong, by field; empty when the form is valid. */
export type RuleProblems = Partial<Record<keyof RuleFormValues, string>>;

const PATH = /^\/\S+$/;

export function ruleProblems(values: RuleFormValues): RuleProblems {
  const problems: RuleProblems = {};
  if (values.name.trim() === '') problems.name = 'nameRequired';
  if (values.kind !== 'offline') {
    const path = values.path.trim();
    if (path === '') problems.path = 'pathRequired';
    else if (!PATH.test(path) || path.length > 300) problems.path = 'pathFormat';
  }
  if (values.kind === 'threshold' && parseNumber(values.threshold) === undefined)
    problems.threshold = 'numberRequired';
  if (values.kind === 'range') {
    const low = parseNumber(values.low);
    const high = parseNumber(values.high);
    if (low === undefined) problems.low = 'numberRequired';
    if (high === undefined) problems.high = 'numberRequired';
    if (low !== undefined && high !== undefined && low > high) problems.high = 'rangeReversed';
  }
  if (values.kind === 'noData') {
    const seconds = parseNumber(values.seconds);
    if (seconds === undefined || !Number.isInteger(seconds) || seconds < 1 || seconds > 604_800)
      problems.seconds = 'secondsRange';
  }
  const delay = parseNumber(values.delaySeconds);
  if (delay !== undefined && (!Number.isInteger(delay) || delay < 0 || delay > 86_400))
    problems.delaySeconds = 'delayRange';
  const hysteresis = parseNumber(values.hysteresis);
  if (hysteresis !== undefined && hysteresis < 0) problems.hysteresis = 'hysteresisRange';
  if (values.message.length > 500) problems.message = 'messageLength';
  return problems;
}

function condition(values: RuleFormValues): AlarmCondition {
  const path = values.path.trim();
  switch (values.kind) {
    case 'threshold':
      return {
        kind: 'threshold',
        path,
        operator: values.operator,
        value: parseNumber(values.threshold) ?? 0,
      };
    case 'range':
      return {
        kind: 'range',
        path,
        low: parseNumber(values.low) ?? 0,
        high: parseNumber(values.high) ?? 0,
        inside: values.inside,
      };
    case 'boolean':
      return { kind: 'boolean', path, value: values.booleanValue === 'true' };
    case 'noData':
      return { kind: 'noData', path, seconds: parseNumber(values.seconds) ?? 1 };
    case 'offline':
      return { kind: 'offline' };
  }
}

/** The body of `POST /rules` (and of `PUT /rules/{id}`: every field is sent). Call only when ruleProblems is empty. */
export function formToInput(values: RuleFormValues): AlarmRuleInput {
  return {
    name: values.name.trim(),
    description: values.description.trim(),
    enabled: values.enabled,
    deviceId: values.deviceId,
    condition: condition(values),
    severity: values.severity,
    ackRequired: values.ackRequired,
    resetRequired: values.resetRequired,
    delaySeconds: parseNumber(values.delaySeconds) ?? 0,
    hysteresis:
      values.kind === 'threshold' || values.kind === 'range' ? (parseNumber(values.hysteresis) ?? 0) : 0,
    message: values.message.trim(),
  };
}

/** Placeholders a message template may use (the server fills them in). */
export const MESSAGE_PLACEHOLDERS = ['{device}', '{path}', '{value}', '{rule}', '{severity}'] as const;

/** A short description of a condition for the rules list ("/motor/temp > 80"); kind words come from `words`. */
export function describeCondition(
  condition: AlarmCondition,
  words: {
    outside: (low: string, high: string) => string;
    inside: (low: string, high: string) => string;
    noData: (seconds: string) => string;
    offline: string;
    number: (value: number) => string;
  },
): string {
  switch (condition.kind) {
    case 'threshold':
      return `${condition.path} ${condition.operator} ${words.number(condition.value)}`;
    case 'range': {
      const low = words.number(condition.low);
      const high = words.number(condition.high);
      return `${condition.path} ${condition.inside ? words.inside(low, high) : words.outside(low, high)}`;
    }
    case 'boolean':
      return `${condition.path} == ${String(condition.value)}`;
    case 'noData':
      return `${condition.path}: ${words.noData(words.number(condition.seconds))}`;
    case 'offline':
      return words.offline;
  }
}
