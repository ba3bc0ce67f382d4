/** `YYYY-MM-DD` of a day in the browser's time zone. */
export function dayOf(date: Date): string {
  const year = String(date.getFullYear()).padStart(4, '0');
  const month = String(date.getMonth() + 1).padStart(2, '0');
  const day = String(date.getDate()).padStart(2, '0');
  return `${year}-${month}-${day}`;
}

/**
 * The first day a billing may be moved to: tomorrow. Today is already under way (its start is in the past for the
 * server), so the earliest day that is wholly in the future is the next one.
 */
export function earliestBillingDay(now: Date): string {
  const tomorrow = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  return dayOf(tomorrow);
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A `YYYY-MM-DD` day as the start of that day in the browser's time zone, or undefined when it is no real day. */
export function startOfDay(day: string): Date | undefined {
  const match = DAY.exec(day);
  if (!match) return undefined;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const start = new Date(year, month - 1, date);
  if (start.getFullYear() !== year || start.getMonth() !== month - 1 || start.getDate() !== date)
    return undefined;
  return start;
}

export type BillingDayProblem = 'required' | 'invalid' | 'past';

/** Why a chosen day cannot be the next billing, or undefined when it can. */
export function billingDayProblem(day: string, now: Date): BillingDayProblem | undefined {
  if (!day) return 'required';
  const start = startOfDay(day);
  if (!start) return 'invalid';
  return day < earliestBillingDay(now) ? 'past' : undefined;
}

/** The day the portal keeps in the date field for an ISO instant (the instant's day in the browser's zone). */
export function dayOfInstant(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : dayOf(date);
}

/** The day the reschedule form starts with: the current billing day, unless that is already too early. */
export function initialBillingDay(currentIso: string | null | undefined, now: Date): string {
  const current = dayOfInstant(currentIso);
  const earliest = earliestBillingDay(now);
  if (current && !billingDayProblem(current, now)) return current;
  return earliest;
}
