import { describe, expect, it } from 'vitest';
import { parseTags, relativeTime, statusSegments, uptimeShare } from './format.ts';

const t0 = Date.parse('2025-01-01T00:00:00Z');
const at = (minutes: number) => new Date(t0 + minutes * 60_000).toISOString();

describe('relativeTime', () => {
  it('says how long ago, in the locale', () => {
    expect(relativeTime(at(-5), t0, 'en-US')).toBe('5 minutes ago');
    expect(relativeTime(at(-120), t0, 'de-DE')).toBe('vor 2 Stunden');
    expect(relativeTime(at(0), t0, 'en-US')).toBe('now');
    expect(relativeTime(at(-3 * 24 * 60), t0, 'fr-FR')).toBe('il y a 3 jours');
  });
});

describe('statusSegments', () => {
  it('cuts the window at every change', () => {
    const segments = statusSegments(
      [
        { status: 'OFFLINE', at: at(30) },
        { status: 'ONLINE', at: at(10) },
      ],
      t0,
      t0 + 60 * 60_000,
      'OFFLINE',
    );
    expect(segments).toEqual([
      { status: 'OFFLINE', from: t0, to: t0 + 10 * 60_000 },
      { status: 'ONLINE', from: t0 + 10 * 60_000, to: t0 + 30 * 60_000 },
      { status: 'OFFLINE', from: t0 + 30 * 60_000, to: t0 + 60 * 60_000 },
    ]);
    expect(uptimeShare(segments)).toBeCloseTo(1 / 3);
  });

  it('starts with the status of the last change before the window and ignores repeats', () => {
    const segments = statusSegments(
      [
        { status: 'ONLINE', at: at(-100) },
        { status: 'ONLINE', at: at(5) },
        { status: 'SLEEPY', at: at(6) },
      ],
      t0,
      t0 + 10 * 60_000,
      'OFFLINE',
    );
    expect(segments).toEqual([{ status: 'ONLINE', from: t0, to: t0 + 10 * 60_000 }]);
  });

  it('uses the current status when nothing changed', () => {
    expect(statusSegments([], t0, t0 + 1000, 'ONLINE')).toEqual([
      { status: 'ONLINE', from: t0, to: t0 + 1000 },
    ]);
    expect(uptimeShare([])).toBe(0);
  });
});

describe('parseTags', () => {
  it('trims and drops blanks and repeats', () => {
    expect(parseTags([' a ', '', 'b', 'a'])).toEqual(['a', 'b']);
  });
});
