/** The TanStack Query key root of alarms (lists, counts, one alarm): every live alarm change refreshes it. */
export const ALARMS_KEY = 'alarms';
/** Alarm rules (not touched by live alarm changes). */
export const ALARM_RULES_KEY = 'alarm-rules';
