import { describe, expect, it } from 'vitest';
import { LiveBatcher, type LiveChanges, type LiveDevices, withChanges } from './live-batch.ts';

/** Frames the test runs by hand. */
function manualFrames() {
  const queued = new Map<number, () => void>();
  let next = 1;
  return {
    frames: {
      request: (run: () => void) => {
        queued.set(next, run);
        return next++;
      },
      cancel: (handle: number) => void queued.delete(handle),
    },
    queued,
    runFrame() {
      const runs = [...queued.values()];
      queued.clear();
      for (const run of runs) run();
    },
  };
}

describe('live messages gathered per frame', () => {
  it('hands a burst of messages over once, at the next frame, with the newest value of each path', () => {
    const { frames, queued, runFrame } = manualFrames();
    const applied: LiveChanges[] = [];
    const batcher = new LiveBatcher((changes) => applied.push(changes), frames);
    for (let i = 1; i <= 500; i++) batcher.values('press', 1000 + i, { '/speed': i });
    batcher.values('press', 900, { '/speed': -1, '/temperature': 20 });
    batcher.status('press', 'OFFLINE');
    batcher.status('press', 'ONLINE');
    batcher.values('oven', 5, { '/temperature': 180 });
    expect(applied).toEqual([]);
    expect(queued.size).toBe(1);
    runFrame();
    expect(applied).toEqual([
      {
        values: {
          press: { '/speed': { value: 500, ts: 1500 }, '/temperature': { value: 20, ts: 900 } },
          oven: { '/temperature': { value: 180, ts: 5 } },
        },
        status: { press: 'ONLINE' },
      },
    ]);
    // Nothing new, no frame asked for; the next message asks for one again.
    runFrame();
    expect(applied).toHaveLength(1);
    batcher.values('oven', 6, { '/temperature': 181 });
    expect(queued.size).toBe(1);
  });

  it('hands nothing over once stopped', () => {
    const { frames, queued, runFrame } = manualFrames();
    const applied: LiveChanges[] = [];
    const batcher = new LiveBatcher((changes) => applied.push(changes), frames);
    batcher.values('press', 1, { '/speed': 1 });
    batcher.stop();
    expect(queued.size).toBe(0);
    runFrame();
    expect(applied).toEqual([]);
  });

  it('keeps a shown value that is newer than the one a frame brings, and every other device and path', () => {
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
