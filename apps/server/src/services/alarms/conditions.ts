import type { alarms } from '@edgeport/contract';

export type DataValue = number | boolean | string;

/** The conditions a stored value decides (noData and offline are decided by time and connection events). */
export type ValueCondition = Extract<alarms.AlarmCondition, { kind: 'threshold' | 'range' | 'boolean' }>;

function compare(value: number, operator: alarms.Comparison, threshold: number): boolean {
  switch (operator) {
    case '>':
      return value > threshold;
    case '>=':
      return value >= threshold;
    case '<':
      return value < threshold;
    case '<=':
      return value <= threshold;
    case '==':
      return value === threshold;
    case '!=':
      return value !== threshold;
  }
}

/**
 * Whether a threshold condition still holds for a value, given that it held before: once holding, it stops only when
 * the value is on the other side by more than the hysteresis (`> 80` with hysteresis 5 clears at 75 or below).
 */
function thresholdHolds(
  condition: Extract<alarms.AlarmCondition, { kind: 'threshold' }>,
  value: number,
  wasHolding: boolean,
  hysteresis: number,
): boolean {
  const { operator, value: threshold } = condition;
  if (!wasHolding || hysteresis <= 0) return compare(value, operator, threshold);
  switch (operator) {
    case '>':
      return value > threshold - hysteresis;
    case '>=':
      return value >= threshold - hysteresis;
    case '<':
      return value < threshold + hysteresis;
    case '<=':
      return value <= threshold + hysteresis;
    case '==':
      return Math.abs(value - threshold) <= hysteresis;
    case '!=':
      // "Not equal" is false only at the threshold itself: there is no band to widen.
      return value !== threshold;
  }
}

/**
 * Outside [low, high] (or inside with `inside`); once holding, the band the value must come back into shrinks (or
 * the band it must leave grows) by the hysteresis on both sides.
 */
function rangeHolds(
  condition: Extract<alarms.AlarmCondition, { kind: 'range' }>,
  value: number,
  wasHolding: boolean,
  hysteresis: number,
): boolean {
  const margin = wasHolding ? hysteresis : 0;
  if (condition.inside) return value >= condition.low - margin && value <= condition.high + margin;
  return value < condition.low + margin || value > condition.high - margin;
}

/**
 * Whether the condition holds for the value (with hysteresis once it held), or undefined when the value's type does
 * not fit the condition (a string on a threshold): such a value decides nothing.
 */
export function valueConditionHolds(
  condition: ValueCondition,
  value: DataValue,
  wasHolding: boolean,
  hysteresis: number,
): boolean | undefined {
  if (condition.kind === 'boolean') return typeof value === 'boolean' ? value === condition.value : undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  if (condition.kind === 'threshold') return thresholdHolds(condition, value, wasHolding, hysteresis);
  return rangeHolds(condition, value, wasHolding, hysteresis);
}

export function isValueCondition(condition: alarms.AlarmCondition): condition is ValueCondition {
  return condition.kind === 'threshold' || condition.kind === 'range' || condition.kind === 'boolean';
}

/** The model path a condition watches; undefined for `offline`. */
export function pathOf(condition: alarms.AlarmCondition): string | undefined {
  return condition.kind === 'offline' ? undefined : condition.path;
}

function describe(condition: alarms.AlarmCondition): string {
  switch (condition.kind) {
    case 'threshold':
      return `{rule}: {device} {path} = {value} (${condition.operator} ${condition.value})`;
    case 'range':
      return `{rule}: {device} {path} = {value} (${condition.inside ? 'inside' : 'outside'} ${condition.low}..${condition.high})`;
    case 'boolean':
      return `{rule}: {device} {path} is {value}`;
    case 'noData':
      return `{rule}: {device} sent no {path} for ${condition.seconds} s`;
    case 'offline':
      return '{rule}: {device} is offline';
  }
}

export type MessageFields = {
  device: string;
  path: string;
  value: DataValue | null;
  rule: string;
  severity: alarms.Severity;
};

/** The alarm text: the rule's template with {device} {path} {value} {rule} {severity}, or a default one. */
export function renderMessage(
  template: string,
  condition: alarms.AlarmCondition,
  fields: MessageFields,
): string {
  const source = template.trim() === '' ? describe(condition) : template;
  const text = source.replace(
    /\{(device|path|value|rule|severity)\}/g,
    (_match, key: keyof MessageFields) => {
      const field = fields[key];
      return field === null ? '' : String(field);
    },
  );
  return text.slice(0, 1000);
}
