import { describe, expect, it } from 'vitest';
import { arcPath, GAUGE_START, GAUGE_SWEEP, gaugeFraction } from './geometry.ts';

describe('gauge geometry', () => {
  it('places values between min and max, clamped', () => {
    expect(gaugeFraction(50, 0, 100)).toBe(0.5);
    expect(gaugeFraction(-5, 0, 100)).toBe(0);
    expect(gaugeFraction(500, 0, 100)).toBe(1);
    expect(gaugeFraction(null, 0, 100)).toBe(0);
    expect(gaugeFraction(5, 10, 10)).toBe(0);
    expect(gaugeFraction(Number.NaN, 0, 1)).toBe(0);
  });

  it('draws arcs, the large flag beyond 180 degrees, nothing for an empty arc', () => {
    expect(arcPath(50, 50, 40, 0, 90)).toBe('M 90.00 50.00 A 40 40 0 0 1 50.00 90.00');
    expect(arcPath(50, 50, 40, GAUGE_START, GAUGE_START + GAUGE_SWEEP)).toContain(' 0 1 1 ');
    expect(arcPath(50, 50, 40, 10, 10)).toBe('');
  });
});
