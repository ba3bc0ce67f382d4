import { describe, expect, it } from 'vitest';
import { rollupsOf, sameRollups } from './resolution.ts';

describe('the resolution a chart shows', () => {
  it('names nothing when every series holds the stored values', () => {
    expect(rollupsOf([])).toEqual([]);
    expect(rollupsOf(['raw', 'raw'])).toEqual([]);
    expect(rollupsOf([undefined, 'raw'])).toEqual([]);
  });

  it('names each rollup once, the finest first, whatever the order of the series', () => {
    expect(rollupsOf(['minute'])).toEqual(['minute']);
    expect(rollupsOf(['hour', 'raw', 'hour'])).toEqual(['hour']);
    expect(rollupsOf(['hour', 'raw', 'minute', 'minute'])).toEqual(['minute', 'hour']);
  });

  it('compares lists by their rollups', () => {
    expect(sameRollups([], [])).toBe(true);
    expect(sameRollups(['minute'], ['minute'])).toBe(true);
    expect(sameRollups(['minute'], ['hour'])).toBe(false);
    expect(sameRollups(['minute'], ['minute', 'hour'])).toBe(false);
  });
});
