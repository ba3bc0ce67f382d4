/**
 * A chart's values reduced to what it can show: min/max buckets of equal time across the values' extent, merged
 * from the day partitions' rows (reduced in SQL) and the compacted blocks (reduced here), with the same float8
 * operations on both sides so a value lands in the same bucket wherever it is stored.
 */

/** Values of one path in time order: times (epoch ms), numbers (null: a value of another type) and their order. */
export type Values = { e: number[]; v: (number | null)[]; seq: number[] };
export type Extent = { firstMs: number; lastMs: number };
export type Bucket = { lo: number; hi: number; firstMs: number; lastMs: number; count: number };
export type NumberedBucket = Bucket & { index: number };
export type Points = { t: number[]; v: (number | null)[] };

/** The width (ms) of each of `buckets` equal buckets across the extent. */
export function bucketWidth(extent: Extent, buckets: number): number {
  return Math.max((extent.lastMs - extent.firstMs) / buckets, 1e-6);
}

/** The bucket a time falls in: `least(floor((e - first) / width), buckets - 1)` of the SQL. */
function bucketIndex(e: number, extent: Extent, width: number, buckets: number): number {
  return Math.min(Math.floor((e - extent.firstMs) / width), buckets - 1);
}

/** The first and last time of values in time order (whatever their type), or undefined when there are none. */
export function extentOf(values: Values): Extent | undefined {
  const [firstMs] = values.e;
  const lastMs = values.e.at(-1);
  return firstMs === undefined || lastMs === undefined ? undefined : { firstMs, lastMs };
}

/** The extent covering both. */
export function widest(a: Extent | undefined, b: Extent | undefined): Extent | undefined {
  if (!a || !b) return a ?? b;
  return { firstMs: Math.min(a.firstMs, b.firstMs), lastMs: Math.max(a.lastMs, b.lastMs) };
}

/** The numeric values reduced to buckets (those without a value left out), in bucket order. */
export function bucketsOf(values: Values, extent: Extent, buckets: number): NumberedBucket[] {
  const width = bucketWidth(extent, buckets);
  const byIndex = new Map<number, NumberedBucket>();
  values.e.forEach((e, i) => {
    const v = values.v[i];
    if (v === null || v === undefined) return;
    const index = bucketIndex(e, extent, width, buckets);
    const bucket = byIndex.get(index);
    if (!bucket) byIndex.set(index, { index, lo: v, hi: v, firstMs: e, lastMs: e, count: 1 });
    else absorb(bucket, { lo: v, hi: v, firstMs: e, lastMs: e, count: 1 });
  });
  return [...byIndex.values()].sort((a, b) => a.index - b.index);
}

function absorb(into: Bucket, other: Bucket): void {
  into.lo = Math.min(into.lo, other.lo);
  into.hi = Math.max(into.hi, other.hi);
  into.firstMs = Math.min(into.firstMs, other.firstMs);
  into.lastMs = Math.max(into.lastMs, other.lastMs);
  into.count += other.count;
}

/** Buckets of the same numbering from two sources, one per index, in bucket order. */
export function mergeBuckets(a: readonly NumberedBucket[], b: readonly NumberedBucket[]): NumberedBucket[] {
  const byIndex = new Map<number, NumberedBucket>(a.map((bucket) => [bucket.index, { ...bucket }]));
  for (const bucket of b) {
    const same = byIndex.get(bucket.index);
    if (same) absorb(same, bucket);
    else byIndex.set(bucket.index, { ...bucket });
  }
  return [...byIndex.values()].sort((x, y) => x.index - y.index);
}

export function countOf(buckets: readonly Bucket[]): number {
  return buckets.reduce((sum, bucket) => sum + bucket.count, 0);
}

/**
 * The numeric values of the blocks and the rows as points in time order; at a shared time the blocks' values come
 * first and each source keeps its order, as telemetry_series orders them (ts, source, seq).
 */
export function orderedPoints(compacted: Values, stored: Values): Points {
  const points: { e: number; v: number; source: number; seq: number }[] = [];
  for (const [source, values] of [compacted, stored].entries())
    values.e.forEach((e, i) => {
      const v = values.v[i];
      if (v !== null && v !== undefined) points.push({ e, v, source, seq: values.seq[i] ?? 0 });
    });
  points.sort((a, b) => a.e - b.e || a.source - b.source || a.seq - b.seq);
  return { t: points.map((point) => point.e), v: points.map((point) => point.v) };
}

/**
 * The points of min/max buckets: the minimum at the bucket's first time and the maximum at its last (one point where
 * both coincide). Every bucket's extremes survive, and so do the series' first and last times.
 */
export function pointsOfBuckets(buckets: readonly Bucket[]): Points {
  const t: number[] = [];
  const v: number[] = [];
  for (const bucket of buckets) {
    t.push(bucket.firstMs);
    v.push(bucket.lo);
    if (bucket.lastMs !== bucket.firstMs || bucket.hi !== bucket.lo) {
      t.push(bucket.lastMs);
      v.push(bucket.hi);
    }
  }
  return { t, v };
}
