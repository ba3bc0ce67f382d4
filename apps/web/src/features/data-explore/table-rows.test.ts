import { describe, expect, it } from 'vitest';
import { rowAt, rowOffsets } from './table-rows.ts';

describe('table rows', () => {
  const offsets = rowOffsets([
    { points: { t: [1, 2, 3] } },
    { points: { t: [] } },
    { points: { t: [4, 5] } },
  ]);

  it('lays the series out one after the other', () => {
    expect(offsets).toEqual([0, 3, 3, 5]);
  });

  it('finds the series and the point of a row, skipping empty series', () => {
    expect(rowAt(offsets, 0)).toEqual({ series: 0, point: 0 });
    expect(rowAt(offsets, 2)).toEqual({ series: 0, point: 2 });
    expect(rowAt(offsets, 3)).toEqual({ series: 2, point: 0 });
    expect(rowAt(offsets, 4)).toEqual({ series: 2, point: 1 });
    expect(rowAt(offsets, 5)).toBeUndefined();
    expect(rowAt(offsets, -1)).toBeUndefined();
    expect(rowAt([0], 0)).toBeUndefined();
  });
});
