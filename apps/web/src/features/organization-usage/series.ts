/** Buckets of the consumption chart (the server sums the journal per UTC day or month). */
export const BUCKETS = ['day', 'month'] as const;
export type Bucket = (typeof BUCKETS)[number];

/** One bucket as the aggregation call answers it (the fields the chart needs). */
export type BucketPoint = {
  /** Bucket start, clipped to the range's start. */
  start: string;
  /** Bucket end (exclusive), clipped to the range's end. */
  end: string;
  /** The net change within the bucket. */
  sum: number;
  /** Running total at the bucket's end: the amount in use then (all time). */
  total: number;
};

export type RunningTotal = { times: number[]; totals: number[] };

/**
 * The chart's line: a step per bucket at the level reached in it, and a last point at the range's end so the last
 * bucket has a width (uPlot draws a step from one x to the next). Whole numbers, as the server summed them.
 */
export function runningTotal(points: readonly BucketPoint[]): RunningTotal {
  const times: number[] = [];
  const totals: number[] = [];
  for (const point of points) {
    const start = Date.parse(point.start);
    if (!Number.isFinite(start)) continue;
    times.push(start);
    totals.push(point.total);
  }
  const last = points[points.length - 1];
  const end = last ? Date.parse(last.end) : Number.NaN;
  if (last && Number.isFinite(end) && end > (times[times.length - 1] ?? end)) {
    times.push(end);
    totals.push(last.total);
  }
  return { times, totals };
}

export type SeriesStats = {
  /** In use before the range's first bucket. */
  opening: number;
  /** In use at the range's end. */
  closing: number;
  /** The net change over the range (closing − opening = Σ sums). */
  change: number;
  peak: number;
};

/** What the summary above the chart says: opening and closing amounts, the change and the peak. */
export function seriesStats(points: readonly BucketPoint[]): SeriesStats {
  const first = points[0];
  const last = points[points.length - 1];
  if (!first || !last) return { opening: 0, closing: 0, change: 0, peak: 0 };
  const opening = first.total - first.sum;
  const change = points.reduce((sum, point) => sum + point.sum, 0);
  return {
    opening,
    closing: last.total,
    change,
    peak: Math.max(opening, ...points.map((point) => point.total)),
  };
}

/** The net change over the range of each organization's series, for the per-sub-organization table. */
export function changeOf(points: readonly BucketPoint[]): number {
  return points.reduce((sum, point) => sum + point.sum, 0);
}

/** Each value's share of the total movement, in percent (by size: −3 and +3 weigh the same); 0s when nothing moved. */
export function shares(values: readonly number[]): number[] {
  const whole = values.reduce((sum, value) => sum + Math.abs(value), 0);
  return values.map((value) => (whole === 0 ? 0 : (Math.abs(value) * 100) / whole));
}
