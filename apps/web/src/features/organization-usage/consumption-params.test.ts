import { describe, expect, it } from 'vitest';
import { readChoice, writeChoice } from './consumption-params.ts';

const today = new Date(2026, 2, 31, 12);

describe('consumption screen address', () => {
  it('defaults to devices, the last 30 days and daily buckets', () => {
    expect(readChoice(new URLSearchParams(''), today)).toEqual({
      type: 'devices',
      bucket: 'day',
      range: { start: '2026-03-02', end: '2026-03-31' },
    });
  });

  it('reads back what it writes', () => {
    const choice = {
      type: 'dataPoints',
      bucket: 'month',
      range: { start: '2025-04-01', end: '2026-03-31' },
    } as const;
    expect(readChoice(writeChoice(choice), today)).toEqual(choice);
  });

  it('ignores unknown resource types and buckets but keeps a wrong range to explain it', () => {
    expect(
      readChoice(new URLSearchParams('type=cows&bucket=year&start=2026-03-05&end=2026-03-01'), today),
    ).toEqual({
      type: 'devices',
      bucket: 'day',
      range: { start: '2026-03-05', end: '2026-03-01' },
    });
  });
});
