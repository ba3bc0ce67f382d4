import { describe, expect, it } from 'vitest';
import { timeFormats, timeSteps, valueFormat } from './format.ts';

describe('chart formats', () => {
  const noon = Date.UTC(2024, 2, 1, 12, 0, 0, 250);

  it('labels ticks by their step, with the date where the day changes', () => {
    const formats = timeFormats('en-US', false, 'UTC');
    expect(formats.ticks([noon, noon + 60_000], 60_000)).toEqual(['12:00 PM\nMar 1', '12:01 PM']);
    expect(formats.ticks([noon], 5_000)).toEqual(['12:00:00 PM\nMar 1']);
    expect(formats.ticks([noon], 86_400_000)).toEqual(['Mar 1, 2024']);
  });

  it('shows milliseconds only with highFreq', () => {
    expect(timeFormats('de-DE', true, 'UTC').ticks([noon], 100)[0]).toBe('12:00:00,250\n1. März');
    expect(timeFormats('de-DE', true, 'UTC').full(noon)).toBe('01.03.2024, 12:00:00,250');
    expect(timeFormats('de-DE', false, 'UTC').full(noon)).toBe('01.03.2024, 12:00:00');
    expect(timeSteps(false)[0]).toBe(1000);
    expect(timeSteps(true)[0]).toBe(1);
  });

  it('formats values in the locale with the unit', () => {
    expect(valueFormat('de-DE')(1234.5678, 'rpm')).toBe('1.234,568 rpm');
    expect(valueFormat('en-US')(-0.5)).toBe('-0.5');
    expect(valueFormat('en-US')(123_456_789)).toBe('123.46M');
  });
});
