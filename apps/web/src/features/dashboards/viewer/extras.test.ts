import { describe, expect, it } from 'vitest';
import { toLocalInput } from '../../data-explore/time-range.ts';
import { exportRange, exportSlots } from './export-range.ts';
import {
  initialChoices,
  needsStoredChoices,
  PAGE_KEY,
  parseViewerPreferences,
  requestedPage,
  SLOTS_KEY,
} from './viewer-preferences.ts';

const NOW = Date.UTC(2026, 0, 10, 12, 0, 0);
const DEVICE = '0b6f3c52-6f3a-4c8e-9d5e-3a1f2b4c5d6e';
const OTHER = '1c7a4d63-7a4b-4d9f-8e6f-4b2a3c5d6e7f';

describe('export range', () => {
  it('ends a quick range now', () => {
    expect(exportRange({ kind: 'preset', preset: '1h' }, NOW)).toEqual({
      ok: true,
      from: '2026-01-10T11:00:00.000Z',
      to: '2026-01-10T12:00:00.000Z',
    });
    expect(exportRange({ kind: 'preset', preset: '7d' }, NOW)).toMatchObject({
      from: '2026-01-03T12:00:00.000Z',
    });
  });

  it('takes explicit bounds in the local time zone and refuses bad ones', () => {
    const from = toLocalInput(NOW - 3_600_000, false);
    const to = toLocalInput(NOW, false);
    expect(exportRange({ kind: 'custom', from, to }, 0)).toEqual({
      ok: true,
      from: new Date(NOW - 3_600_000).toISOString(),
      to: new Date(NOW).toISOString(),
    });
    expect(exportRange({ kind: 'custom', from: to, to: from }, 0)).toEqual({
      ok: false,
      problem: 'reversed',
    });
    expect(exportRange({ kind: 'custom', from: '', to }, 0)).toEqual({ ok: false, problem: 'invalid' });
    expect(exportRange({ kind: 'custom', from: '2020-01-01T00:00', to: '2022-01-01T00:00' }, 0)).toEqual({
      ok: false,
      problem: 'tooLong',
    });
  });

  it('names only the slots that have a device', () => {
    expect(exportSlots({ main: DEVICE, spare: undefined })).toEqual({ main: DEVICE });
  });
});

describe('viewer preferences', () => {
  it('reads the stored page and devices and ignores malformed values', () => {
    expect(
      parseViewerPreferences([
        { key: PAGE_KEY, value: 'p2' },
        { key: SLOTS_KEY, value: { main: DEVICE, Bad: DEVICE, spare: 'not-a-uuid', other: 3 } },
        { key: 'theme', value: 'dark' },
      ]),
    ).toEqual({ pageId: 'p2', slots: { main: DEVICE } });
    expect(
      parseViewerPreferences([
        { key: PAGE_KEY, value: 7 },
        { key: SLOTS_KEY, value: [DEVICE] },
      ]),
    ).toEqual({
      slots: {},
    });
    expect(parseViewerPreferences(undefined)).toEqual({ slots: {} });
  });

  it('lets the address win over stored choices', () => {
    const stored = { pageId: 'p2', slots: { main: DEVICE, spare: OTHER } };
    expect(initialChoices({}, undefined, stored)).toEqual({ slots: stored.slots, pageId: 'p2' });
    // A device in the address: no stored device applies (a partial address is a deliberate choice).
    expect(initialChoices({ main: OTHER }, undefined, stored)).toEqual({
      slots: { main: OTHER },
      pageId: 'p2',
    });
    expect(initialChoices({}, 'p1', stored)).toEqual({ slots: stored.slots, pageId: 'p1' });
    expect(initialChoices({}, undefined, { slots: {} })).toEqual({ slots: {}, pageId: undefined });
  });

  it('asks the server only when the address leaves something open', () => {
    expect(needsStoredChoices({ main: DEVICE }, 'p1')).toBe(false);
    expect(needsStoredChoices({ main: DEVICE }, undefined)).toBe(true);
    expect(needsStoredChoices({}, 'p1')).toBe(true);
    expect(requestedPage(new URLSearchParams('page=p3&ecc_device_main=x'))).toBe('p3');
    expect(requestedPage(new URLSearchParams('page='))).toBeUndefined();
  });
});
