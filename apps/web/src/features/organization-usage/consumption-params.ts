import { type DayRange, dayRangeProblem, lastDays } from './date-range.ts';
import { BUCKETS, type Bucket } from './series.ts';

export const RESOURCE_CHOICES = ['devices', 'users', 'dataPoints', 'vpnMinutes'] as const;
export type ResourceChoice = (typeof RESOURCE_CHOICES)[number];

export type ConsumptionChoice = { range: DayRange; type: ResourceChoice; bucket: Bucket };

/** The range shown when the address names none: the last 30 days. */
export const DEFAULT_DAYS = 30;

const isResource = (value: string | null): value is ResourceChoice =>
  (RESOURCE_CHOICES as readonly string[]).includes(value ?? '');
const isBucket = (value: string | null): value is Bucket =>
  (BUCKETS as readonly string[]).includes(value ?? '');

/**
 * What the consumption screen shows, from its address (`?type=devices&start=2026-03-01&end=2026-03-31&bucket=day`):
 * unknown or missing values fall back to devices, the last 30 days and daily buckets. A range typed in the address
 * is kept even when it is wrong, so the screen can say what is wrong with it.
 */
export function readChoice(params: URLSearchParams, today: Date): ConsumptionChoice {
  const type = params.get('type');
  const bucket = params.get('bucket');
  const start = params.get('start');
  const end = params.get('end');
  return {
    type: isResource(type) ? type : 'devices',
    bucket: isBucket(bucket) ? bucket : 'day',
    range: start !== null && end !== null ? { start, end } : lastDays(today, DEFAULT_DAYS),
  };
}

/** The address query of a choice (what readChoice reads back). */
export function writeChoice(choice: ConsumptionChoice): URLSearchParams {
  return new URLSearchParams({
    type: choice.type,
    start: choice.range.start,
    end: choice.range.end,
    bucket: choice.bucket,
  });
}

/** Whether the range may be asked for (see dayRangeProblem). */
export function choiceProblem(choice: ConsumptionChoice) {
  return dayRangeProblem(choice.range);
}
