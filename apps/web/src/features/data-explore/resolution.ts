import type { DataSeries } from './api.ts';

/** What a series' points were taken from: the stored values, or the 1-minute or 1-hour min/max rollups. */
export type Resolution = DataSeries['resolution'];
/** A resolution that is not the stored values: the chart shows the minimum and maximum of each minute or hour. */
export type Rollup = Exclude<Resolution, 'raw'>;

const ROLLUPS: readonly Rollup[] = ['minute', 'hour'];

/**
 * The rollups some of the series were drawn from, each once, finest first; empty when every series shows the stored
 * values (or nothing is known yet).
 */
export function rollupsOf(resolutions: Iterable<Resolution | undefined>): Rollup[] {
  const found = new Set<Resolution | undefined>(resolutions);
  return ROLLUPS.filter((rollup) => found.has(rollup));
}

/** The same rollups as `a` and `b` (a state that changes only when the list does). */
export function sameRollups(a: readonly Rollup[], b: readonly Rollup[]): boolean {
  return a.length === b.length && a.every((rollup, index) => rollup === b[index]);
}
