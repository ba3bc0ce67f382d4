import { numeric } from '../format.ts';
import type { TimedValue } from '../types.ts';

export type Buckets = { starts: number[]; values: (number | null)[] };

/** The first bucket start at or before `from`, on the bucket grid (multiples of the bucket length since the epoch). */
export function bucketStart(ts: number, bucketMs: number): number {
  return Math.floor(ts / bucketMs) * bucketMs;
}

/**
 * The average of the values in each bucket of `bucketMs` from `from` to `to` (epoch ms); null for a bucket without a
 * value. Booleans count as 0/1; strings are left out. At most `limit` buckets (the latest).
 */
export function bucketize(
  points: readonly TimedValue[],
  from: number,
  to: number,
  bucketMs: number,
  limit = 500,
): Buckets {
  const first = Math.max(bucketStart(from, bucketMs), bucketStart(to, bucketMs) - (limit - 1) * bucketMs);
  const count = Math.max(0, Math.floor((bucketStart(to, bucketMs) - first) / bucketMs) + 1);
  const sums = new Array<number>(count).fill(0);
  const counts = new Array<number>(count).fill(0);
  for (const point of points) {
    const value = numeric(point.value);
    if (value === null || point.ts < first || point.ts >= first + count * bucketMs) continue;
    const at = Math.floor((point.ts - first) / bucketMs);
    sums[at] = (sums[at] ?? 0) + value;
    counts[at] = (counts[at] ?? 0) + 1;
  }
  return {
    starts: Array.from({ length: count }, (_, at) => first + at * bucketMs),
    values: sums.map((sum, at) => ((counts[at] ?? 0) > 0 ? sum / (counts[at] ?? 1) : null)),
  };
}

/** What a click on a bucket drills into: that bucket's time range in about twelve finer buckets (at least 1 s). */
export function drillInto(start: number, bucketMs: number): { from: number; to: number; bucketMs: number } {
  return { from: start, to: start + bucketMs - 1, bucketMs: Math.max(1000, Math.round(bucketMs / 12)) };
}
