import { numeric } from './format.ts';
import type { TimedValue } from './types.ts';

/** uPlot's aligned data: one time axis (epoch ms) and one column per series (null where a series has no value). */
export type AlignedColumns = [number[], ...(number | null)[][]];

/**
 * Several series of recent values on one time axis, for uPlot: the union of their times, ascending, each series with
 * null where it has no value at a time (booleans as 0/1, strings as null). One series is passed through as it is.
 */
export function alignSeries(series: readonly (readonly TimedValue[])[]): AlignedColumns {
  if (series.length === 1) {
    const only = series[0] ?? [];
    return [only.map((point) => point.ts), only.map((point) => numeric(point.value))];
  }
  const times = [...new Set(series.flatMap((points) => points.map((point) => point.ts)))].sort(
    (a, b) => a - b,
  );
  const index = new Map(times.map((ts, at) => [ts, at]));
  const columns = series.map((points) => {
    const column = new Array<number | null>(times.length).fill(null);
    for (const point of points) {
      const at = index.get(point.ts);
      if (at !== undefined) column[at] = numeric(point.value);
    }
    return column;
  });
  return [times, ...columns];
}

/** Whether any series has a chartable value. */
export function hasPoints(columns: AlignedColumns): boolean {
  return columns.slice(1).some((column) => (column as (number | null)[]).some((value) => value !== null));
}
