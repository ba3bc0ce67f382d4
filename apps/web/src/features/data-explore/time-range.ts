/** The quick ranges of the data explorer, each ending now. */
export const PRESETS = ['15m', '1h', '24h', '7d', '30d'] as const;
export type Preset = (typeof PRESETS)[number];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const PRESET_MS: Record<Preset, number> = {
  '15m': 15 * MINUTE,
  '1h': HOUR,
  '24h': DAY,
  '7d': 7 * DAY,
  '30d': 30 * DAY,
};

/** The longest range the server answers (366 days). */
export const MAX_SPAN_MS = 366 * DAY;
/** The shortest range: one second, or one millisecond with the `highFreq` feature. */
export function minSpanMs(highFreq: boolean): number {
  return highFreq ? 1 : 1000;
}

/** What the user chose: a quick range anchored at the moment it was picked (or refreshed), or explicit bounds. */
export type RangeChoice =
  | { kind: 'preset'; preset: Preset; anchor: number }
  | { kind: 'custom'; from: number; to: number };

export type TimeRange = { from: number; to: number };

export function resolveRange(choice: RangeChoice): TimeRange {
  if (choice.kind === 'custom') return { from: choice.from, to: choice.to };
  return { from: choice.anchor - PRESET_MS[choice.preset], to: choice.anchor };
}

export type RangeProblem = 'reversed' | 'tooLong' | 'invalid';

/** Why a range cannot be asked for, or undefined when it can. */
export function rangeProblem(range: TimeRange): RangeProblem | undefined {
  if (!Number.isFinite(range.from) || !Number.isFinite(range.to)) return 'invalid';
  if (range.to <= range.from) return 'reversed';
  if (range.to - range.from > MAX_SPAN_MS) return 'tooLong';
  return undefined;
}

/**
 * The range a zoom selection asks for: ordered, widened around its middle to the shortest allowed span, and without
 * sub-millisecond fractions unless `highFreq` allows sub-second ranges (then whole milliseconds still).
 */
export function zoomRange(a: number, b: number, highFreq: boolean): TimeRange {
  let from = Math.min(a, b);
  let to = Math.max(a, b);
  const min = minSpanMs(highFreq);
  if (to - from < min) {
    const middle = (from + to) / 2;
    from = middle - min / 2;
    to = middle + min / 2;
  }
  if (highFreq) return { from: Math.floor(from), to: Math.ceil(to) };
  return { from: Math.floor(from / 1000) * 1000, to: Math.ceil(to / 1000) * 1000 };
}

const pad = (value: number, length = 2) => String(value).padStart(length, '0');

/** The value of an `<input type="datetime-local">` for an instant, in the browser's time zone. */
export function toLocalInput(ms: number, withMs: boolean): string {
  const date = new Date(ms);
  const base =
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  return withMs ? `${base}.${pad(date.getMilliseconds(), 3)}` : base;
}

/** The instant an `<input type="datetime-local">` value means in the browser's time zone; NaN when it is not one. */
export function fromLocalInput(value: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/.exec(value.trim());
  if (!match) return Number.NaN;
  const [, year, month, day, hours, minutes, seconds = '0', fraction = '0'] = match;
  const date = new Date(
    Number(year),
    Number(month) - 1,
    Number(day),
    Number(hours),
    Number(minutes),
    Number(seconds),
    Number(fraction.padEnd(3, '0')),
  );
  return date.getTime();
}
