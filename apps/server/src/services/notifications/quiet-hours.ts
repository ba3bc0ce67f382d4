/** Quiet hours: e-mail (except CRITICAL alarms) created between start and end, local time of a zone, waits. */
export type QuietHours = { start: string; end: string; timeZone: string };

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const minutesOf = (clock: string) => {
  const [hours = 0, minutes = 0] = clock.split(':').map(Number);
  return hours * 60 + minutes;
};

/** The local wall-clock time of `at` in the zone: minutes since midnight and seconds within the minute. */
function localClock(at: Date, timeZone: string): { minutes: number; seconds: number } {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { minutes: part('hour') * 60 + part('minute'), seconds: part('second') };
}

/**
 * When the quiet hours around `at` end, or undefined when `at` is outside them (or start equals end: no quiet
 * hours). Spans over midnight (22:00–06:00) work; the end is exact to the minute of local time.
 */
export function quietUntil(quiet: QuietHours | null, at: Date): Date | undefined {
  if (!quiet) return undefined;
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  if (start === end) return undefined;
  const { minutes, seconds } = localClock(at, quiet.timeZone);
  const inside = start < end ? minutes >= start && minutes < end : minutes >= start || minutes < end;
  if (!inside) return undefined;
  const wait = (end - minutes + 1440) % 1440;
  const until = new Date(at.getTime() + wait * 60_000 - seconds * 1000 - at.getMilliseconds());
  return until;
}
