import { describe, expect, it } from 'vitest';
import { LiveBatcher, type LiveChanges, type LiveDevices, withChanges } from './live-batch.ts';

/** Timers the test fires by hand. */
function manualTimers() {
  const queued = new Map<number, () => void>();
  let next = 1;
  return {
    timers: {
      request: (run: () => void) => {
        queued.set(next, run);
        return next++;
      },
      cancel: (handle: number) => void queued.delete(handle),
    },
    queued,
    fire() {
      const runs = [...queued.values()];
      queued.clear();
      for (const run of runs) run();
    },
  };
}

describe('live messages gathered before a render', () => {
  it('hands a burst of messages over once, when the timer fires, with the newest value of each path', () => {
    const { timers, queued, fire } = manualTimers();
    const applied: LiveChanges[] = [];
    const batcher = new LiveBatcher((changes) => applied.push(changes), timers);
    for (let i = 1; i <= 500; i++) batcher.values('press', 1000 + i, { '/speed': i });
    batcher.values('press', 900, { '/speed': -1, '/temperature': 20 });
    batcher.status('press', 'OFFLINE');
    batcher.status('press', 'ONLINE');
    batcher.values('oven', 5, { '/temperature': 180 });
    expect(applied).toEqual([]);
    expect(queued.size).toBe(1);
    fire();
    expect(applied).toEqual([
      {
        values: {
          press: { '/speed': { value: 500, ts: 1500 }, '/temperature': { value: 20, ts: 900 } },
          oven: { '/temperature': { value: 180, ts: 5 } },
        },
        status: { press: 'ONLINE' },
      },
    ]);
    // Nothing new, no timer set; the next message sets one again.
    fire();
    expect(applied).toHaveLength(1);
    batcher.values('oven', 6, { '/temperature': 181 });
    expect(queued.size).toBe(1);
  });

  it('hands nothing over once stopped', () => {
    const { timers, queued, fire } = manualTimers();
    const applied: LiveChanges[] = [];
    const batcher = new LiveBatcher((changes) => applied.push(changes), timers);
    batcher.values('press', 1, { '/speed': 1 });
    batcher.stop();
    expect(queued.size).toBe(0);
    fire();
    expect(applied).toEqual([]);
  });

  it('keeps a shown value that is newer than the one handed over, and every other device and path', () => {
    const current: LiveDevices = {
      values: {
        press: { '/speed': { value: 7, ts: 2000 }, '/count': { value: 3, ts: 10 } },
        oven: { '/temperature': { value: 150, ts: 1 } },
      },
      status: { oven: 'ONLINE' },
      connected: true,
    };
    const next = withChanges(current, {
      values: { press: { '/speed': { value: 5, ts: 1999 }, '/count': { value: 4, ts: 11 } } },
      status: { press: 'OFFLINE' },
    });
    expect(next).toEqual({
      values: {
        press: { '/speed': { value: 7, ts: 2000 }, '/count': { value: 4, ts: 11 } },
        oven: { '/temperature': { value: 150, ts: 1 } },
      },
      status: { oven: 'ONLINE', press: 'OFFLINE' },
      connected: true,
    });
    expect(current.values.press?.['/count']).toEqual({ value: 3, ts: 10 });
  });
});
