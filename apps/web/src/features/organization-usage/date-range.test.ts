import { describe, expect, it } from 'vitest';
import { dayOf, dayRangeProblem, daysIn, lastDays, serverRange, startOfDay } from './date-range.ts';

describe('consumption date ranges', () => {
  it('sends the chosen end plus one day (spec 9), from local midnight to local midnight', () => {
    const range = serverRange({ start: '2026-03-01', end: '2026-03-31' });
    expect(range).toEqual({
      from: new Date(2026, 2, 1).toISOString(),
      to: new Date(2026, 3, 1).toISOString(),
    });
  });

  it('rolls the extra day over months, leap days and years', () => {
    expect(serverRange({ start: '2024-02-01', end: '2024-02-28' })?.to).toBe(
      new Date(2024, 1, 29).toISOString(),
    );
    expect(serverRange({ start: '2024-02-01', end: '2024-02-29' })?.to).toBe(
      new Date(2024, 2, 1).toISOString(),
    );
    expect(serverRange({ start: '2025-12-31', end: '2025-12-31' })).toEqual({
      from: new Date(2025, 11, 31).toISOString(),
      to: new Date(2026, 0, 1).toISOString(),
    });
  });

  it('a single day is one whole day', () => {
    const range = serverRange({ start: '2026-05-10', end: '2026-05-10' });
    expect(range).toBeDefined();
    if (!range) return;
    const hours = (Date.parse(range.to) - Date.parse(range.from)) / 3_600_000;
    // 24 hours, or 23/25 on a daylight-saving day of the machine's time zone.
    expect([23, 24, 25]).toContain(hours);
    expect(new Date(range.to).getDate()).toBe(11);
    expect(new Date(range.to).getHours()).toBe(0);
  });

  it('names what is wrong with a range and asks nothing for it', () => {
    expect(dayRangeProblem({ start: '2026-03-02', end: '2026-03-01' })).toBe('reversed');
    expect(dayRangeProblem({ start: '', end: '2026-03-01' })).toBe('invalid');
    expect(dayRangeProblem({ start: '2026-02-30', end: '2026-03-01' })).toBe('invalid');
    expect(dayRangeProblem({ start: '2025-01-01', end: '2026-01-02' })).toBe('tooLong');
    expect(dayRangeProblem({ start: '2024-01-01', end: '2024-12-31' })).toBeUndefined();
    expect(serverRange({ start: '2026-03-02', end: '2026-03-01' })).toBeUndefined();
  });

  it('counts days with both ends included', () => {
    expect(daysIn({ start: '2026-03-01', end: '2026-03-01' })).toBe(1);
    expect(daysIn({ start: '2026-03-01', end: '2026-03-31' })).toBe(31);
    expect(daysIn({ start: '2026-03-25', end: '2026-04-05' })).toBe(12);
  });

  it('the last N days end today', () => {
    expect(lastDays(new Date(2026, 0, 5, 15, 30), 30)).toEqual({ start: '2025-12-07', end: '2026-01-05' });
    expect(dayOf(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
    expect(startOfDay('2026-01-05')?.getTime()).toBe(new Date(2026, 0, 5).getTime());
  });
});
