import type { Limits, LimitsInput } from './limits-api.ts';

export type LimitKey = Exclude<keyof Limits['limits'], 'telemetryRetentionDays'>;
export const LIMIT_KEYS: readonly LimitKey[] = [
  'devices',
  'users',
  'dashboards',
  'dataPointsPerDay',
  'notificationsPerDay',
];
export const LIMIT_MAX = 1_000_000_000;

/** The form's text per limit: '' is unlimited. */
export type LimitsFormValues = Record<LimitKey, string>;

export function limitsToValues(current: Record<LimitKey, number | null>): LimitsFormValues {
  const values = {} as LimitsFormValues;
  for (const key of LIMIT_KEYS) values[key] = current[key] === null ? '' : String(current[key]);
  return values;
}

/** Whether a typed limit is usable: empty (unlimited) or a whole number from 0 to a billion. */
export function limitProblem(text: string): 'invalid' | 'range' | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (!/^\d+$/.test(trimmed)) return 'invalid';
  return Number(trimmed) > LIMIT_MAX ? 'range' : undefined;
}

/**
 * The body of POST and PUT /limits: only the limits that have a number (absent keys are unlimited). With none, the
 * body is empty and the server answers 'undefined limits' (spec 5), which the panel shows.
 */
export function valuesToLimitsInput(values: LimitsFormValues): LimitsInput {
  const input: LimitsInput = {};
  for (const key of LIMIT_KEYS) {
    const text = values[key].trim();
    if (text !== '' && limitProblem(text) === undefined) input[key] = Number(text);
  }
  return input;
}

export type UsageLevel = 'ok' | 'high' | 'reached' | 'unlimited';

/** How much of a limit is used, as a percentage for the bar (capped at 100) and a level for its colour. */
export function usageOf(used: number, limit: number | null): { percent: number; level: UsageLevel } {
  if (limit === null) return { percent: 0, level: 'unlimited' };
  if (limit === 0) return { percent: 100, level: 'reached' };
  const percent = Math.min(100, (used / limit) * 100);
  if (used >= limit) return { percent: 100, level: 'reached' };
  return { percent, level: percent >= 80 ? 'high' : 'ok' };
}

export const LEVEL_COLORS: Record<UsageLevel, string> = {
  ok: 'teal',
  high: 'orange',
  reached: 'red',
  unlimited: 'gray',
};
