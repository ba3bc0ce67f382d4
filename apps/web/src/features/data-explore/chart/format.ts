const SECOND = 1000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;

/** Tick steps of the time axis (ms); the sub-second ones only with the `highFreq` feature. */
const SUB_SECOND_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500];
const STEPS = [
  SECOND,
  2 * SECOND,
  5 * SECOND,
  10 * SECOND,
  15 * SECOND,
  30 * SECOND,
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  60 * MINUTE,
  2 * 60 * MINUTE,
  3 * 60 * MINUTE,
  6 * 60 * MINUTE,
  12 * 60 * MINUTE,
  DAY,
  2 * DAY,
  7 * DAY,
  14 * DAY,
  30 * DAY,
  91 * DAY,
  182 * DAY,
  365 * DAY,
];

export function timeSteps(highFreq: boolean): number[] {
  return highFreq ? [...SUB_SECOND_STEPS, ...STEPS] : STEPS;
}

/** Formats instants for the chart and the table in the user's locale; milliseconds shown with `highFreq`. */
export type TimeFormats = {
  /** Axis tick labels for ticks `step` ms apart: a date line where the day changes. */
  ticks(splits: readonly number[], step: number): string[];
  /** A full instant (legend, table). */
  full(ms: number): string;
};

export function timeFormats(locale: string, highFreq: boolean, timeZone?: string): TimeFormats {
  const zone = timeZone ? { timeZone } : {};
  const date = new Intl.DateTimeFormat(locale, { ...zone, year: 'numeric', month: 'short', day: 'numeric' });
  const shortDate = new Intl.DateTimeFormat(locale, { ...zone, month: 'short', day: 'numeric' });
  const minutes = new Intl.DateTimeFormat(locale, { ...zone, hour: '2-digit', minute: '2-digit' });
  const seconds = new Intl.DateTimeFormat(locale, {
    ...zone,
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const millis = new Intl.DateTimeFormat(locale, {
    ...zone,
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    fractionalSecondDigits: 3,
  });
  const full = new Intl.DateTimeFormat(locale, {
    ...zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    ...(highFreq ? { fractionalSecondDigits: 3 as const } : {}),
  });
  const dayKey = new Intl.DateTimeFormat('en-CA', {
    ...zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });

  return {
    ticks(splits, step) {
      if (step >= DAY) return splits.map((ms) => date.format(ms));
      const clock = step < SECOND && highFreq ? millis : step < MINUTE ? seconds : minutes;
      let previousDay = '';
      return splits.map((ms) => {
        const day = dayKey.format(ms);
        const text = clock.format(ms);
        const first = previousDay === '';
        const changed = day !== previousDay;
        previousDay = day;
        return first || changed ? `${text}\n${shortDate.format(ms)}` : text;
      });
    },
    full: (ms) => full.format(ms),
  };
}

/** Formats values in the user's locale: up to 3 decimals, compact for large magnitudes, with the unit if any. */
export function valueFormat(locale: string): (value: number, unit?: string) => string {
  const plain = new Intl.NumberFormat(locale, { maximumFractionDigits: 3 });
  const compact = new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 2 });
  return (value, unit) => {
    const text = Math.abs(value) >= 1e7 ? compact.format(value) : plain.format(value);
    return unit ? `${text} ${unit}` : text;
  };
}
