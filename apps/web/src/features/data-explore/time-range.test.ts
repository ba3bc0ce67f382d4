import { describe, expect, it } from 'vitest';
import { fromLocalInput, rangeProblem, resolveRange, toLocalInput, zoomRange } from './time-range.ts';

describe('time ranges', () => {
  it('resolves a quick range back from its anchor', () => {
    expect(resolveRange({ kind: 'preset', preset: '1h', anchor: 10_000_000 })).toEqual({
      from: 10_000_000 - 3_600_000,
      to: 10_000_000,
    });
    expect(resolveRange({ kind: 'custom', from: 1, to: 2 })).toEqual({ from: 1, to: 2 });
  });

  it('names what is wrong with a range', () => {
    expect(rangeProblem({ from: 2, to: 1 })).toBe('reversed');
    expect(rangeProblem({ from: 1, to: 1 })).toBe('reversed');
    expect(rangeProblem({ from: 0, to: 367 * 86_400_000 })).toBe('tooLong');
    expect(rangeProblem({ from: Number.NaN, to: 1 })).toBe('invalid');
    expect(rangeProblem({ from: 0, to: 1 })).toBeUndefined();
  });

  it('orders a zoom selection and keeps it at least a second, or a millisecond with highFreq', () => {
    expect(zoomRange(5_400.4, 5_000.2, false)).toEqual({ from: 4_000, to: 6_000 });
    expect(zoomRange(10_000, 20_500, false)).toEqual({ from: 10_000, to: 21_000 });
    expect(zoomRange(5_400.4, 5_000.2, true)).toEqual({ from: 5_000, to: 5_401 });
    expect(zoomRange(5_000.2, 5_000.4, true)).toEqual({ from: 4_999, to: 5_001 });
  });

  it('round-trips datetime-local values in the local time zone', () => {
    const instant = new Date(2024, 2, 1, 13, 4, 5, 678).getTime();
    expect(toLocalInput(instant, false)).toBe('2024-03-01T13:04:05');
    expect(toLocalInput(instant, true)).toBe('2024-03-01T13:04:05.678');
    expect(fromLocalInput('2024-03-01T13:04:05.678')).toBe(instant);
    expect(fromLocalInput('2024-03-01T13:04')).toBe(new Date(2024, 2, 1, 13, 4).getTime());
    expect(fromLocalInput('2024-03-01T13:04:05.6')).toBe(new Date(2024, 2, 1, 13, 4, 5, 600).getTime());
    expect(Number.isNaN(fromLocalInput('yesterday'))).toBe(true);
  });
});
