import type { Limits, LimitsInput } from './limits-api.ts';

/** The counted limits (each has a usage); the retention of raw values is not one. */
export type LimitKey = Exclude<keyof Limits['limits'], typeof RETENTION_KEY>;
export const LIMIT_KEYS: readonly LimitKey[] = [
  'devices',
  'users',
  'dashboards',
  'dataPointsPerDay',
  'notificationsPerDay',
];
export const LIMIT_MAX = 1_000_000_000;

/** How many days of raw device values the organization keeps (null: the server's default). */
export const RETENTION_KEY = 'telemetryRetentionDays';

/** The form's text per limit ('' is unlimited) and the retention in days ('' is the server's default). */
export type LimitsFormValues = Record<LimitKey | typeof RETENTION_KEY, string>;

export function limitsToValues(current: Limits['limits']): LimitsFormValues {
  const values = {} as LimitsFormValues;
  for (const key of [...LIMIT_KEYS, RETENTION_KEY] as const)
    values[key] = current[key] === null ? '' : String(current[key]);
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
 * Whether a typed retention is usable: empty (the server's default) or a whole number of days from 1 to the server's
 * maximum (`retention.maxDays` of the limits).
 */
export function retentionProblem(text: string, maxDays: number): 'invalid' | 'range' | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (!/^\d+$/.test(trimmed)) return 'invalid';
  const days = Number(trimmed);
  return days < 1 || days > maxDays ? 'range' : undefined;
}

/**
 * The body of POST and PUT /limits: only the limits that have a number (absent keys are unlimited) and the retention
 * when it has one (absent: the server's default). A PUT replaces everything, so the retention always goes along with
 * the other limits. With nothing, the body is empty and the server answers 'undefined limits' (spec 5), which the
 * panel shows.
 */
export function valuesToLimitsInput(values: LimitsFormValues, maxDays: number): LimitsInput {
  const input: LimitsInput = {};
  for (const key of LIMIT_KEYS) {
    const text = values[key].trim();
    if (text !== '' && limitProblem(text) === undefined) input[key] = Number(text);
  }
  const days = values[RETENTION_KEY].trim();
  if (days !== '' && retentionProblem(days, maxDays) === undefined) input[RETENTION_KEY] = Number(days);
  return input;
}

/** Whether the server's refusal (its 400 message) is about the retention, so the form marks that field. */
export function refusesRetention(serverMessage: string | undefined): boolean {
  return serverMessage?.includes(RETENTION_KEY) ?? false;
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
