import { describe, expect, it, vi } from 'vitest';
import { bindingKey, deviceKey, ValueStore, variableKey } from './value-store.ts';

const DEVICE = '0b5c1a4e-4a0c-4c56-9a53-1f1f7d0c0a01';
const OTHER = '0b5c1a4e-4a0c-4c56-9a53-1f1f7d0c0a02';

function manualStore(historyLimit = 5) {
  const frames: (() => void)[] = [];
  const store = new ValueStore({ historyLimit, schedule: (flush) => frames.push(flush) });
  const runFrame = () => {
    for (const flush of frames.splice(0)) flush();
  };
  return { store, frames, runFrame };
}

describe('the dashboard value store', () => {
  it('tells only the listeners of changed keys, once per frame however many messages came', () => {
    const { store, frames, runFrame } = manualStore();
    const speed = vi.fn();
    const temperature = vi.fn();
    const elsewhere = vi.fn();
    store.subscribe(deviceKey(DEVICE, '/speed'), speed);
    store.subscribe(deviceKey(DEVICE, '/temperature'), temperature);
    store.subscribe(deviceKey(OTHER, '/speed'), elsewhere);
    for (let i = 1; i <= 10; i += 1) store.receive(DEVICE, 1000 + i, { '/speed': i });
    expect(frames).toHaveLength(1);
    expect(speed).not.toHaveBeenCalled();
    runFrame();
    expect(speed).toHaveBeenCalledTimes(1);
    expect(temperature).not.toHaveBeenCalled();
    expect(elsewhere).not.toHaveBeenCalled();
    expect(store.get(deviceKey(DEVICE, '/speed'))).toEqual({ ts: 1010, value: 10 });
  });

  it('keeps the same snapshot object until the key changes, and ignores older values', () => {
    const { store } = manualStore();
    const key = deviceKey(DEVICE, '/speed');
    store.receive(DEVICE, 2000, { '/speed': 5 });
    const first = store.get(key);
    store.receive(DEVICE, 1000, { '/speed': 1 });
    store.receive(DEVICE, 2000, { '/speed': 5 });
    expect(store.get(key)).toBe(first);
    store.receive(DEVICE, 3000, { '/speed': 6 });
    expect(store.get(key)).not.toBe(first);
  });

  it('keeps a bounded ring of recent values for charted keys only, seeded history below live values', () => {
    const { store } = manualStore(5);
    const charted = deviceKey(DEVICE, '/speed');
    const plain = deviceKey(DEVICE, '/mode');
    store.trackHistory(charted);
    for (let i = 1; i <= 8; i += 1) store.receive(DEVICE, i * 1000, { '/speed': i, '/mode': 'auto' });
    expect(store.history(charted, 0).map((point) => point.value)).toEqual([4, 5, 6, 7, 8]);
    expect(store.history(charted, 6000).map((point) => point.ts)).toEqual([6000, 7000, 8000]);
    expect(store.history(plain, 0)).toEqual([]);

    const seeded = deviceKey(OTHER, '/speed');
    store.trackHistory(seeded);
    store.receive(OTHER, 10_000, { '/speed': 10 });
    store.seedHistory(seeded, [
      { ts: 8000, value: 8 },
      { ts: 9000, value: 9 },
      { ts: 10_000, value: 99 },
    ]);
    expect(store.history(seeded, 0)).toEqual([
      { ts: 8000, value: 8 },
      { ts: 9000, value: 9 },
      { ts: 10_000, value: 10 },
    ]);
  });

  it('keeps what the stored history was taken from and tells the chart when it comes', () => {
    const { store, runFrame } = manualStore();
    const key = deviceKey(DEVICE, '/speed');
    const listener = vi.fn();
    store.trackHistory(key);
    store.subscribe(key, listener);
    expect(store.resolutionOf(key)).toBeUndefined();
    store.seedHistory(key, [{ ts: 60_000, value: 1 }], 'minute');
    expect(store.resolutionOf(key)).toBe('minute');
    runFrame();
    expect(listener).toHaveBeenCalledTimes(1);
    // Live values after it change nothing of it; a later seeding of the stored values does.
    store.receive(DEVICE, 120_000, { '/speed': 2 });
    expect(store.resolutionOf(key)).toBe('minute');
    store.seedHistory(key, [{ ts: 60_000, value: 1 }]);
    expect(store.resolutionOf(key)).toBe('raw');
    // A key no chart shows keeps no history, nor its resolution.
    const plain = deviceKey(DEVICE, '/mode');
    store.seedHistory(plain, [{ ts: 60_000, value: 'auto' }], 'hour');
    expect(store.resolutionOf(plain)).toBeUndefined();
  });

  it("announces a device's loading state and status to the listeners of its paths", () => {
    const { store, runFrame } = manualStore();
    const listener = vi.fn();
    store.subscribe(deviceKey(DEVICE, '/speed'), listener);
    store.setLoading(DEVICE, true);
    expect(store.isLoading(DEVICE)).toBe(true);
    runFrame();
    expect(listener).toHaveBeenCalledTimes(1);
    store.setStatus(DEVICE, 'ONLINE');
    store.setLoading(DEVICE, false);
    runFrame();
    expect(listener).toHaveBeenCalledTimes(2);
    expect(store.statusOf(DEVICE)).toBe('ONLINE');
  });

  it('stops telling a listener once it unsubscribed', () => {
    const { store, runFrame } = manualStore();
    const listener = vi.fn();
    const stop = store.subscribe(variableKey('mode'), listener);
    stop();
    store.put(variableKey('mode'), 1, 'manual');
    runFrame();
    expect(listener).not.toHaveBeenCalled();
    expect(store.get(variableKey('mode'))?.value).toBe('manual');
  });

  it('shows values and history through a formula, computed once per value; the stored values stay raw', () => {
    const { store } = manualStore(5);
    const key = deviceKey(DEVICE, '/temperature');
    const fahrenheit = 'value * 1.8 + 32';
    store.trackHistory(key);
    store.receive(DEVICE, 1000, { '/temperature': 100 });
    const shown = store.get(key, fahrenheit);
    expect(shown).toEqual({ ts: 1000, value: 212 });
    expect(store.get(key, fahrenheit)).toBe(shown);
    expect(store.get(key)).toEqual({ ts: 1000, value: 100 });
    expect(store.get(key, 'value / 10')).toEqual({ ts: 1000, value: 10 });
    store.receive(DEVICE, 2000, { '/temperature': 0 });
    expect(store.get(key, fahrenheit)).toEqual({ ts: 2000, value: 32 });
    expect(store.history(key, 0, fahrenheit)).toEqual([
      { ts: 1000, value: 212 },
      { ts: 2000, value: 32 },
    ]);
    expect(store.history(key, 0).map((point) => point.value)).toEqual([100, 0]);
    // Texts and booleans are shown as they are.
    store.receive(DEVICE, 3000, { '/state': 'running' });
    expect(store.get(deviceKey(DEVICE, '/state'), fahrenheit)?.value).toBe('running');
  });

  it('keys bindings by the device of their slot, or by variable', () => {
    const deviceOf = (slot: string) => (slot === 'press' ? DEVICE : undefined);
    expect(bindingKey({ slot: 'press', path: '/speed' }, deviceOf)).toBe(deviceKey(DEVICE, '/speed'));
    expect(bindingKey({ slot: 'oven', path: '/speed' }, deviceOf)).toBeUndefined();
    expect(bindingKey({ variable: 'mode' }, deviceOf)).toBe(variableKey('mode'));
  });
});
