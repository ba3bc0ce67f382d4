import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BucketPoint, changeOf, runningTotal, seriesStats, shares } from './series.ts';

const day = (d: number) => new Date(Date.UTC(2026, 2, d)).toISOString();

/** Buckets of March 2026 with these changes, with the running totals the server computes. */
function buckets(opening: number, sums: number[]): BucketPoint[] {
  let total = opening;
  return sums.map((sum, index) => {
    total += sum;
    return { start: day(index + 1), end: day(index + 2), sum, total };
  });
}

describe('consumption series', () => {
  it('steps through the level reached in each bucket up to the end of the range', () => {
    const series = runningTotal(buckets(4, [2, 0, -1]));
    expect(series).toEqual({
      times: [Date.parse(day(1)), Date.parse(day(2)), Date.parse(day(3)), Date.parse(day(4))],
      totals: [6, 6, 5, 5],
    });
  });

  it('has nothing to draw without buckets', () => {
    expect(runningTotal([])).toEqual({ times: [], totals: [] });
    expect(seriesStats([])).toEqual({ opening: 0, closing: 0, change: 0, peak: 0 });
  });

  it('summarizes opening, closing, change and peak', () => {
    expect(seriesStats(buckets(4, [2, 3, -4]))).toEqual({ opening: 4, closing: 5, change: 1, peak: 9 });
    expect(changeOf(buckets(10, [1, -3]))).toBe(-2);
  });

  it('closing − opening is the sum of the bucket changes, for any whole changes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.array(fc.integer({ min: -500, max: 500 }), { minLength: 1, maxLength: 28 }),
        (opening, sums) => {
          const points = buckets(opening, sums);
          const stats = seriesStats(points);
          expect(stats.closing - stats.opening).toBe(sums.reduce((a, b) => a + b, 0));
          expect(stats.change).toBe(changeOf(points));
          const series = runningTotal(points);
          expect(series.times).toHaveLength(points.length + 1);
          expect(series.totals[series.totals.length - 1]).toBe(stats.closing);
        },
      ),
    );
  });
});

describe('shares of the change', () => {
  it('weighs changes by size and is all 0 when nothing moved', () => {
    expect(shares([3, -1, 0])).toEqual([75, 25, 0]);
    expect(shares([0, 0])).toEqual([0, 0]);
    expect(shares([])).toEqual([]);
  });
});
