import { describe, expect, it } from 'vitest';
import {
  alignSeries,
  chartArrays,
  decimateMinMax,
  decimateToGrid,
  GRID_SLOTS,
  gridTimes,
  timeExtent,
} from './decimate.ts';

function sawTooth(n: number) {
  const t = new Array<number>(n);
  const v = new Array<number | null>(n);
  for (let i = 0; i < n; i++) {
    t[i] = 1_000_000 + i * 10;
    v[i] = i % 100;
  }
  return { t, v };
}

describe('decimateMinMax', () => {
  it('copies a series that already fits two points per column', () => {
    const series = { t: [1, 2, 3, 4], v: [5, null, Number.NaN, 8] };
    expect(decimateMinMax(series, 1, 4, 2)).toEqual({ t: [1, 2, 3, 4], v: [5, null, null, 8] });
  });

  it('keeps at most the minimum, the maximum and one gap per column, in time order', () => {
    // Two columns over [0, 10): the first holds 3, 9, 1, 4 and the second 7, null, 2, 8.
    const series = { t: [0, 1, 2, 3, 5, 6, 7, 8], v: [3, 9, 1, 4, 7, null, 2, 8] };
    expect(decimateMinMax(series, 0, 10, 2)).toEqual({ t: [1, 2, 6, 7, 8], v: [9, 1, null, 2, 8] });
  });

  it('reduces 1,000,000 points to pixel width and keeps every peak, the first and the last point', () => {
    const series = sawTooth(1_000_000);
    series.v[123_457] = 5_000;
    series.v[654_321] = -5_000;
    const x0 = series.t[0] as number;
    const x1 = series.t.at(-1) as number;
    const started = performance.now();
    const out = decimateMinMax(series, x0, x1, 1000);
    const elapsed = performance.now() - started;
    expect(out.t.length).toBeLessThanOrEqual(3000);
    expect(out.t.length).toBeGreaterThan(1000);
    const values = out.v.filter((v): v is number => v !== null);
    expect(Math.max(...values)).toBe(5_000);
    expect(Math.min(...values)).toBe(-5_000);
    expect(out.t[0]).toBe(x0);
    expect(out.t.every((t, i) => i === 0 || t > (out.t[i - 1] as number))).toBe(true);
    // Every column of the saw tooth still reaches 0 and 99.
    expect(values.filter((v) => v === 99).length).toBeGreaterThan(900);
    // Generous bound for a shared test machine; the browser benchmark measures the real figure.
    expect(elapsed).toBeLessThan(1000);
  });

  it('accepts typed arrays and points outside the range (they join the edge columns)', () => {
    const t = Float64Array.from({ length: 100 }, (_, i) => i);
    const v = Float64Array.from({ length: 100 }, (_, i) => (i === 0 ? -1 : i === 99 ? 1000 : 1));
    const out = decimateMinMax({ t, v }, 10, 20, 5);
    expect(out.v[0]).toBe(-1);
    expect(out.v.at(-1)).toBe(1000);
    expect(out.t.length).toBeLessThanOrEqual(10);
  });

  it('puts everything in one column when all points share a time', () => {
    const series = { t: [5, 5, 5, 5, 5], v: [1, 4, 2, 0, 3] };
    expect(decimateMinMax(series, 5, 5, 2)).toEqual({ t: [5, 5], v: [4, 0] });
  });
});

describe('timeExtent', () => {
  it('spans all series and ignores empty ones', () => {
    expect(
      timeExtent([
        { t: [5, 9], v: [1, 2] },
        { t: [], v: [] },
        { t: [2, 7], v: [1, 1] },
      ]),
    ).toEqual({ min: 2, max: 9 });
    expect(timeExtent([{ t: [], v: [] }])).toBeUndefined();
  });
});

describe('alignSeries', () => {
  it('merges the times and leaves undefined where a series has no point, keeping its nulls', () => {
    expect(
      alignSeries([
        { t: [1, 3, 5], v: [10, null, 50] },
        { t: [2, 3, 6], v: [20, 30, 60] },
      ]),
    ).toEqual([
      [1, 2, 3, 5, 6],
      [10, undefined, null, 50, undefined],
      [undefined, 20, 30, undefined, 60],
    ]);
  });

  it('passes a single series through', () => {
    const only = { t: [1, 2], v: [3, 4] };
    expect(alignSeries([only])).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });
});

describe('the shared grid', () => {
  it('places each column’s minimum, maximum and gap in its slots, in the order they occur', () => {
    // Two columns over [0, 10].
    const series = { t: [0, 1, 2, 3, 6, 7, 8], v: [3, 9, 1, 4, null, 2, 8] };
    const expected = [5 / 6, 2.5, 25 / 6, 35 / 6, 7.5, 55 / 6];
    for (const [index, time] of gridTimes(0, 10, 2).entries()) {
      expect(time).toBeCloseTo(expected[index] as number, 9);
    }
    expect(decimateToGrid(series, 0, 10, 2)).toEqual([9, 1, undefined, null, 2, 8]);
  });

  it('keeps one series at its own times and aligns a few small series exactly', () => {
    const one = chartArrays([{ t: [1, 2], v: [3, 4] }], 100);
    expect(one).toEqual([
      [1, 2],
      [3, 4],
    ]);
    const two = chartArrays(
      [
        { t: [1, 3], v: [10, 30] },
        { t: [2, 3], v: [20, 31] },
      ],
      100,
    );
    expect(two).toEqual([
      [1, 2, 3],
      [10, undefined, 30],
      [undefined, 20, 31],
    ]);
  });

  it('puts many series with their own times on the grid: the aligned size stays columns × slots', () => {
    const many = Array.from({ length: 50 }, (_, s) => {
      const t = Array.from({ length: 4000 }, (_, i) => 1_000 + i * 7 + s);
      const v = t.map((_, i) => (i === 1234 ? 1e6 + s : s));
      return { t, v };
    });
    const [times, ...values] = chartArrays(many, 400);
    expect(times).toHaveLength(400 * GRID_SLOTS);
    expect(values).toHaveLength(50);
    for (const [s, column] of values.entries()) {
      expect(column).toHaveLength(400 * GRID_SLOTS);
      expect(Math.max(...column.filter((v): v is number => typeof v === 'number'))).toBe(1e6 + s);
    }
  });
});
