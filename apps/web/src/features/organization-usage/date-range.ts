/**
 * The consumption screen's date range: whole local days, both ends included as the user sees them. Spec 9: the end
 * sent to the server is the chosen end day plus one day (the server treats `to` as exclusive), so the last chosen day
 * is counted in full.
 */
export type DayRange = {
  /** First day, `YYYY-MM-DD` (the value of an `<input type="date">`). */
  start: string;
  /** Last day, included, `YYYY-MM-DD`. */
  end: string;
};

export type DayRangeProblem = 'invalid' | 'reversed' | 'tooLong';

/** The longest range the screens ask for: 366 days (a leap year). */
export const MAX_DAYS = 366;

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

const pad = (value: number, length = 2) => String(value).padStart(length, '0');

/** Local midnight of a `YYYY-MM-DD` day, or undefined when it is not a real calendar day. */
export function startOfDay(day: string): Date | undefined {
  const match = DAY_PATTERN.exec(day);
  if (!match) return undefined;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const result = new Date(year, month - 1, date);
  // new Date() rolls 2024-02-30 over to March: such a day does not exist.
  if (result.getFullYear() !== year || result.getMonth() !== month - 1 || result.getDate() !== date)
    return undefined;
  return result;
}

/** The `YYYY-MM-DD` of an instant in the browser's time zone. */
export function dayOf(date: Date): string {
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** `day` moved by whole calendar days (local time: a daylight-saving change keeps midnight at midnight). */
export function addDays(day: Date, days: number): Date {
  return new Date(day.getFullYear(), day.getMonth(), day.getDate() + days);
}

/** The last `days` days up to and including today. */
export function lastDays(today: Date, days: number): DayRange {
  return { start: dayOf(addDays(today, -(days - 1))), end: dayOf(today) };
}

/** How many days the range covers, both ends included (0 when it is not a range). */
export function daysIn(range: DayRange): number {
  const start = startOfDay(range.start);
  const end = startOfDay(range.end);
  if (!start || !end) return 0;
  // Calendar arithmetic in UTC, so a daylight-saving day of 23 or 25 hours still counts as one day.
  const utc = (date: Date) => Date.UTC(date.getFullYear(), date.getMonth(), date.getDate());
  return Math.round((utc(end) - utc(start)) / 86_400_000) + 1;
}

/** Why the range cannot be asked for, or undefined when it can. */
export function dayRangeProblem(range: DayRange): DayRangeProblem | undefined {
  const start = startOfDay(range.start);
  const end = startOfDay(range.end);
  if (!start || !end) return 'invalid';
  if (end < start) return 'reversed';
  if (daysIn(range) > MAX_DAYS) return 'tooLong';
  return undefined;
}

/**
 * The instants the server is asked for: `from` = local midnight of the first day, `to` = local midnight of the day
 * AFTER the last chosen day (spec 9: the end is extended by one day; `to` is exclusive). Undefined for a bad range.
 */
export function serverRange(range: DayRange): { from: string; to: string } | undefined {
  if (dayRangeProblem(range)) return undefined;
  const start = startOfDay(range.start);
  const end = startOfDay(range.end);
  if (!start || !end) return undefined;
  return { from: start.toISOString(), to: addDays(end, 1).toISOString() };
}
