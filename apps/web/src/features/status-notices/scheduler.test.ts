import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryStorage } from '../../test-support/memory-storage.ts';
import type { StatusNotice } from './api.ts';
import { dismissedNotices, rememberDismissed } from './dismissed.ts';
import { NOTICE_STAGGER_MS, STATUS_POLL_INTERVAL_MS, scheduleStatusNotices } from './scheduler.ts';

function notice(id: string, type: StatusNotice['type'] = 'incident'): StatusNotice {
  const date = '2026-01-01T00:00:00.000Z';
  return { id, type, status: 'investigating', title: `Notice ${id}`, date, updatedAt: date };
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Lets a poll's answer arrive and runs the first frame it schedules (fake timers run a 0 ms timeout at 1 ms). */
async function settle() {
  await vi.advanceTimersByTimeAsync(1);
}

function setup(feed: StatusNotice[][], dismissed = new Set<string>()) {
  const responses = [...feed];
  const load = vi.fn(async () => responses.shift() ?? []);
  const shown: string[] = [];
  const withdrawn: string[] = [];
  const stop = scheduleStatusNotices({
    load,
    isDismissed: (id) => dismissed.has(id),
    show: (item) => shown.push(item.id),
    withdraw: (id) => withdrawn.push(id),
  });
  return { load, shown, withdrawn, stop };
}

describe('status notice scheduling (spec 4/9)', () => {
  it('shows the notices one after another, 200 ms apart', async () => {
    const { shown } = setup([[notice('a'), notice('b', 'maintenance'), notice('c')]]);
    await vi.advanceTimersByTimeAsync(0);
    expect(shown).toEqual(['a']);
    await vi.advanceTimersByTimeAsync(NOTICE_STAGGER_MS - 1);
    expect(shown).toEqual(['a']);
    await vi.advanceTimersByTimeAsync(1);
    expect(shown).toEqual(['a', 'b']);
    await vi.advanceTimersByTimeAsync(NOTICE_STAGGER_MS);
    expect(shown).toEqual(['a', 'b', 'c']);
  });

  it('polls every 3 minutes and shows only what is new; withdraws what left the feed', async () => {
    const { load, shown, withdrawn } = setup([[notice('a')], [notice('a'), notice('b')], [notice('b')]]);
    await vi.advanceTimersByTimeAsync(0);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(STATUS_POLL_INTERVAL_MS - 1);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(load).toHaveBeenCalledTimes(2);
    await settle();
    expect(shown).toEqual(['a', 'b']);
    await vi.advanceTimersByTimeAsync(STATUS_POLL_INTERVAL_MS);
    await settle();
    expect(withdrawn).toEqual(['a']);
    expect(shown).toEqual(['a', 'b']);
  });

  it('never shows a notice that left the feed while it was still waiting for its turn', async () => {
    const responses = [[notice('a'), notice('b')], [notice('a')]];
    const shown: string[] = [];
    const stop = scheduleStatusNotices({
      load: async () => responses.shift() ?? [],
      isDismissed: () => false,
      show: (item) => shown.push(item.id),
      withdraw: () => {},
      intervalMs: 1_000,
      staggerMs: 5_000,
    });
    await settle();
    expect(shown).toEqual(['a']);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(shown).toEqual(['a']);
    stop();
  });

  it('never shows a dismissed notice', async () => {
    const { shown } = setup([[notice('a'), notice('b')]], new Set(['a']));
    await vi.advanceTimersByTimeAsync(1000);
    expect(shown).toEqual(['b']);
  });

  it('only logs a failed poll and tries again at the next one', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const load = vi
      .fn()
      .mockRejectedValueOnce(new Error('Network Error'))
      .mockResolvedValue([notice('a')]);
    const shown: string[] = [];
    scheduleStatusNotices({
      load,
      isDismissed: () => false,
      show: (item) => shown.push(item.id),
      withdraw: () => {},
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(warn).toHaveBeenCalled();
    expect(shown).toEqual([]);
    await vi.advanceTimersByTimeAsync(STATUS_POLL_INTERVAL_MS);
    await settle();
    expect(shown).toEqual(['a']);
  });

  it('stops polling and drops pending frames when stopped', async () => {
    const { load, shown, stop } = setup([[notice('a'), notice('b')]]);
    await vi.advanceTimersByTimeAsync(0);
    stop();
    await vi.advanceTimersByTimeAsync(STATUS_POLL_INTERVAL_MS * 2);
    expect(shown).toEqual(['a']);
    expect(load).toHaveBeenCalledTimes(1);
  });
});

describe('dismissed notices', () => {
  it('are remembered in local storage', () => {
    const storage = new MemoryStorage();
    rememberDismissed('a', storage);
    rememberDismissed('b', storage);
    expect(dismissedNotices(storage)).toEqual(new Set(['a', 'b']));
    storage.setItem('edgeport.statusNotices.dismissed', '{broken');
    expect(dismissedNotices(storage)).toEqual(new Set());
  });
});
