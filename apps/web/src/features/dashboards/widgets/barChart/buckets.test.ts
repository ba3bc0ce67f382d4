import { describe, expect, it } from 'vitest';
import { alignSeries, hasPoints } from '../chart-data.ts';
import { bucketize, bucketStart, drillInto } from './buckets.ts';

describe('bar chart buckets', () => {
  it('averages the values of each bucket on the bucket grid, null where none', () => {
    const points = [
      { ts: 10_000, value: 2 },
      { ts: 14_000, value: 4 },
      { ts: 31_000, value: true },
      { ts: 32_000, value: 'text' },
    ];
    expect(bucketize(points, 10_500, 39_000, 10_000)).toEqual({
      starts: [10_000, 20_000, 30_000],
      values: [3, null, 1],
    });
    expect(bucketStart(19_999, 10_000)).toBe(10_000);
  });

  it('keeps at most `limit` buckets, the latest', () => {
    const result = bucketize([{ ts: 0, value: 1 }], 0, 99_000, 1000, 10);
    expect(result.starts).toHaveLength(10);
    expect(result.starts[0]).toBe(90_000);
    expect(result.values.every((value) => value === null)).toBe(true);
  });

  it("drills into one bucket's range with finer buckets", () => {
    expect(drillInto(60_000, 60_000)).toEqual({ from: 60_000, to: 119_999, bucketMs: 5000 });
    expect(drillInto(0, 2000).bucketMs).toBe(1000);
  });
});

describe('aligned chart series', () => {
  it('puts several series on one time axis with nulls where a series has no value', () => {
    const columns = alignSeries([
      [
        { ts: 1, value: 1 },
        { ts: 3, value: 3 },
      ],
      [
        { ts: 2, value: false },
        { ts: 3, value: 'x' },
      ],
    ]);
    expect(columns).toEqual([
      [1, 2, 3],
      [1, null, 3],
      [null, 0, null],
    ]);
    expect(hasPoints(columns)).toBe(true);
    expect(hasPoints(alignSeries([[{ ts: 1, value: 'only text' }]]))).toBe(false);
  });
});
