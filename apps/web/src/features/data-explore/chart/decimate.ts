/** A series as the chart takes it: times in epoch milliseconds (ascending) and values (null or NaN: a gap). */
export type SeriesArrays = { t: ArrayLike<number>; v: ArrayLike<number | null> };

/** The decimated copy: plain arrays uPlot draws directly. */
export type Decimated = { t: number[]; v: (number | null)[] };

/**
 * Reduces a series to what `columns` pixel columns between `x0` and `x1` can show: per column the minimum and the
 * maximum (in the order they occur, so the drawn line keeps its shape and every peak), plus the first gap (null or
 * NaN) so breaks in the data stay visible. A series already at most two points per column is copied unchanged.
 * Points outside [x0, x1] fall into the first or last column. One pass, no sorting: fast enough for 1,000,000 points.
 */
export function decimateMinMax(series: SeriesArrays, x0: number, x1: number, columns: number): Decimated {
  const n = Math.min(series.t.length, series.v.length);
  const cols = Math.max(1, Math.floor(columns));
  if (n <= cols * 2) return copy(series, n);
  const outT: number[] = [];
  const outV: (number | null)[] = [];
  scanColumns(series, n, x0, x1, cols, (_column, picked) => {
    for (const index of picked) {
      outT.push(series.t[index] as number);
      outV.push(valueAt(series, index));
    }
  });
  return { t: outT, v: outV };
}

/** Slots per pixel column on the shared grid: the minimum, the maximum and a gap, in the order they occur. */
export const GRID_SLOTS = 3;

/** The shared grid's times: GRID_SLOTS evenly placed instants inside every column between x0 and x1. */
export function gridTimes(x0: number, x1: number, columns: number): number[] {
  const cols = Math.max(1, Math.floor(columns));
  const width = (x1 - x0) / cols;
  const times = new Array<number>(cols * GRID_SLOTS);
  for (let column = 0; column < cols; column++) {
    for (let slot = 0; slot < GRID_SLOTS; slot++) {
      times[column * GRID_SLOTS + slot] = x0 + (column + (slot + 0.5) / GRID_SLOTS) * width;
    }
  }
  return times;
}

/**
 * The same reduction as decimateMinMax, placed on the shared grid of gridTimes(): each column's minimum, maximum and
 * first gap (in the order they occur) fill its slots, unused slots stay undefined (uPlot draws across them). Many
 * series then share one time axis of columns × GRID_SLOTS points however their own times differ; what moves is at
 * most a fraction of a pixel column.
 */
export function decimateToGrid(
  series: SeriesArrays,
  x0: number,
  x1: number,
  columns: number,
): (number | null | undefined)[] {
  const n = Math.min(series.t.length, series.v.length);
  const cols = Math.max(1, Math.floor(columns));
  const out = new Array<number | null | undefined>(cols * GRID_SLOTS).fill(undefined);
  scanColumns(series, n, x0, x1, cols, (column, picked) => {
    picked.forEach((index, slot) => {
      out[column * GRID_SLOTS + slot] = valueAt(series, index);
    });
  });
  return out;
}

function valueAt(series: SeriesArrays, index: number): number | null {
  const value = series.v[index];
  return value === undefined || value === null || Number.isNaN(value) ? null : value;
}

/**
 * One pass over the points, column by column: reports for each column with points the indexes of its minimum, its
 * maximum and its first gap (null, undefined or NaN), each once, in index order. Points outside [x0, x1] count to the
 * first or the last column.
 */
function scanColumns(
  series: SeriesArrays,
  n: number,
  x0: number,
  x1: number,
  cols: number,
  emit: (column: number, picked: number[]) => void,
): void {
  const { t, v } = series;
  const span = x1 - x0;
  const perMs = span > 0 ? cols / span : 0;
  const last = cols - 1;
  let i = 0;
  while (i < n) {
    const column = columnOf(t[i] as number, x0, perMs, last);
    let minI = -1;
    let maxI = -1;
    let gapI = -1;
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    for (; i < n; i++) {
      if (columnOf(t[i] as number, x0, perMs, last) !== column) break;
      const value = v[i];
      if (value === null || value === undefined || Number.isNaN(value)) {
        if (gapI < 0) gapI = i;
        continue;
      }
      if (value < min) {
        min = value;
        minI = i;
      }
      if (value > max) {
        max = value;
        maxI = i;
      }
    }
    emit(column, inOrder(minI, maxI, gapI));
  }
}

function columnOf(time: number, x0: number, perMs: number, last: number): number {
  const column = Math.floor((time - x0) * perMs);
  return Math.max(0, Math.min(column, last));
}

/** The given indexes (-1: none) in ascending order, each once. */
function inOrder(a: number, b: number, c: number): number[] {
  let first = a;
  let second = b;
  let third = c;
  if (first > second) [first, second] = [second, first];
  if (second > third) [second, third] = [third, second];
  if (first > second) [first, second] = [second, first];
  const out: number[] = [];
  for (const index of [first, second, third]) {
    if (index >= 0 && index !== out[out.length - 1]) out.push(index);
  }
  return out;
}

function copy(series: SeriesArrays, n: number): Decimated {
  const t = new Array<number>(n);
  const v = new Array<number | null>(n);
  for (let i = 0; i < n; i++) {
    t[i] = series.t[i] as number;
    const value = series.v[i];
    v[i] = value === undefined || value === null || Number.isNaN(value) ? null : value;
  }
  return { t, v };
}

/** The earliest and the latest time over all series; undefined when none has a point. */
export function timeExtent(series: readonly SeriesArrays[]): { min: number; max: number } | undefined {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const { t } of series) {
    if (t.length === 0) continue;
    min = Math.min(min, t[0] as number);
    max = Math.max(max, t[t.length - 1] as number);
  }
  return min <= max ? { min, max } : undefined;
}

/**
 * Aligns several decimated series on one time axis, as uPlot wants (`[times, ...values]`): every distinct time once,
 * ascending; a series has `undefined` where it has no point (uPlot draws across) and keeps its nulls (gaps).
 */
export function alignSeries(series: readonly Decimated[]): [number[], ...(number | null | undefined)[][]] {
  if (series.length === 1) {
    const only = series[0] as Decimated;
    return [only.t, only.v];
  }
  let total = 0;
  for (const s of series) total += s.t.length;
  const all = new Float64Array(total);
  let offset = 0;
  for (const s of series) {
    all.set(s.t, offset);
    offset += s.t.length;
  }
  all.sort();
  const times: number[] = [];
  for (let i = 0; i < all.length; i++) {
    const time = all[i] as number;
    if (i === 0 || time !== all[i - 1]) times.push(time);
  }
  const columns = series.map((s) => {
    const out = new Array<number | null | undefined>(times.length);
    let j = 0;
    for (let k = 0; k < times.length; k++) {
      if (j < s.t.length && s.t[j] === times[k]) {
        out[k] = s.v[j] ?? null;
        j++;
        // Several points at one time (duplicates): the later ones are dropped.
        while (j < s.t.length && s.t[j] === times[k]) j++;
      } else {
        out[k] = undefined;
      }
    }
    return out;
  });
  return [times, ...columns];
}

export type ChartArrays = [number[], ...(number | null | undefined)[][]];

/**
 * What the chart draws for a plot `columns` pixels wide: one series decimated at its own times; several series
 * decimated at their own times and aligned when that stays small (at most GRID_SLOTS points per column in all),
 * otherwise reduced onto the shared grid, so the aligned data never grows with the number of series times their
 * distinct times.
 */
export function chartArrays(series: readonly SeriesArrays[], columns: number): ChartArrays {
  const extent = timeExtent(series);
  if (!extent) return [[], ...series.map(() => [])];
  const cols = Math.max(1, Math.floor(columns));
  if (series.length === 1) {
    const only = decimateMinMax(series[0] as SeriesArrays, extent.min, extent.max, cols);
    return [only.t, only.v];
  }
  const budget = cols * GRID_SLOTS;
  let upperBound = 0;
  for (const s of series) upperBound += Math.min(s.t.length, budget);
  if (upperBound <= budget)
    return alignSeries(series.map((s) => decimateMinMax(s, extent.min, extent.max, cols)));
  return [
    gridTimes(extent.min, extent.max, cols),
    ...series.map((s) => decimateToGrid(s, extent.min, extent.max, cols)),
  ];
}
