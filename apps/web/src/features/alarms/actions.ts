import type { Action } from '@edgeport/permissions';
import type { Alarm } from './types.ts';

/** An operator's step on chosen alarms (`/action/{ack|reset|clear}`). */
export type AlarmAction = 'ack' | 'reset' | 'clear';
/** The same step on every open alarm matching a filter (`/action/{ackAll|resetAll|clearAll}`). */
export type BulkAlarmAction = `${AlarmAction}All`;

export const ALARM_ACTIONS: readonly AlarmAction[] = ['ack', 'reset', 'clear'];

/** The permission each step needs on `alarms` (spec 3/6: ACK, RESET, CLEAR). */
export const ACTION_PERMISSION: Record<AlarmAction, Action> = { ack: 'ACK', reset: 'RESET', clear: 'CLEAR' };

export type ActionableAlarm = Pick<Alarm, 'id' | 'open' | 'ack' | 'reset'>;

/**
 * Whether the step changes the alarm: only open alarms are acted on; acknowledge needs an acknowledgement still
 * REQUIRED, reset a reset still REQUIRED; clear closes any open alarm.
 */
export function appliesTo(action: AlarmAction, alarm: ActionableAlarm): boolean {
  if (!alarm.open) return false;
  if (action === 'ack') return alarm.ack === 'REQUIRED';
  if (action === 'reset') return alarm.reset === 'REQUIRED';
  return true;
}

/** The ids of the chosen alarms a step applies to (the others are not sent). */
export function applicableIds(action: AlarmAction, chosen: Iterable<ActionableAlarm>): string[] {
  return [...chosen].filter((alarm) => appliesTo(action, alarm)).map((alarm) => alarm.id);
}

/** How many of the chosen alarms each step applies to: a button is enabled only above zero. */
export function applicableCounts(chosen: Iterable<ActionableAlarm>): Record<AlarmAction, number> {
  const counts: Record<AlarmAction, number> = { ack: 0, reset: 0, clear: 0 };
  for (const alarm of chosen) {
    for (const action of ALARM_ACTIONS) if (appliesTo(action, alarm)) counts[action] += 1;
  }
  return counts;
}

/** The server takes at most 500 ids per call. */
export const MAX_IDS_PER_CALL = 500;

export function chunks<T>(items: readonly T[], size = MAX_IDS_PER_CALL): T[][] {
  const parts: T[][] = [];
  for (let start = 0; start < items.length; start += size) parts.push(items.slice(start, start + size));
  return parts;
}
