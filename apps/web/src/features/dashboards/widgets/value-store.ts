import type { Binding } from '@edgeport/dashboard-schema';
import type { Resolution } from '../../data-explore/resolution.ts';
import { compiledFormula, timedThrough } from './formula.ts';
import type { ScalarValue, TimedValue } from './types.ts';

/** What the platform says about a bound path (units, type, whether the caller may write it). */
export type PathMeta = { unit: string | null; type: string | null; writable: boolean };

type Listener = () => void;

/** A bounded ring of recent values, oldest first. */
class Ring {
  private readonly times: Float64Array;
  private readonly values: ScalarValue[];
  private start = 0;
  size = 0;

  constructor(capacity: number) {
    this.times = new Float64Array(capacity);
    this.values = new Array<ScalarValue>(capacity);
  }

  get capacity(): number {
    return this.times.length;
  }

  get lastTs(): number {
    return this.size === 0 ? Number.NEGATIVE_INFINITY : (this.times[this.index(this.size - 1)] ?? 0);
  }

  private index(offset: number): number {
    return (this.start + offset) % this.capacity;
  }

  push(ts: number, value: ScalarValue): void {
    if (this.size < this.capacity) {
      const at = this.index(this.size);
      this.times[at] = ts;
      this.values[at] = value;
      this.size += 1;
    } else {
      this.times[this.start] = ts;
      this.values[this.start] = value;
      this.start = (this.start + 1) % this.capacity;
    }
  }

  /** The values at or after `since`, oldest first. */
  since(since: number): TimedValue[] {
    const found: TimedValue[] = [];
    for (let offset = 0; offset < this.size; offset += 1) {
      const at = this.index(offset);
      const ts = this.times[at] ?? 0;
      if (ts >= since) found.push({ ts, value: this.values[at] as ScalarValue });
    }
    return found;
  }

  all(): TimedValue[] {
    return this.since(Number.NEGATIVE_INFINITY);
  }

  clear(): void {
    this.start = 0;
    this.size = 0;
  }
}

/** The store's key of a device's model path. Device ids are uuids and paths start with '/', so keys never clash. */
export function deviceKey(deviceId: string, path: string): string {
  return `${deviceId}${path}`;
}

export function variableKey(name: string): string {
  return `$${name}`;
}

/** The key of a binding given the slots' devices; undefined when the binding's slot has no device. */
export function bindingKey(
  binding: Binding,
  deviceOf: (slot: string) => string | undefined,
): string | undefined {
  if ('variable' in binding) return variableKey(binding.variable);
  const deviceId = deviceOf(binding.slot);
  return deviceId === undefined ? undefined : deviceKey(deviceId, binding.path);
}

export type ValueStoreOptions = {
  /** How many recent values each charted key keeps. */
  historyLimit?: number;
  /** Runs the notification of the changes gathered since the last one; requestAnimationFrame in a browser. */
  schedule?: (flush: () => void) => void;
};

function defaultSchedule(flush: () => void): void {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(flush);
  else setTimeout(flush, 16);
}

/**
 * The dashboard's values: the latest value of every device path and variable, a bounded ring of recent values for
 * the keys a chart shows, and listeners per key. Values are stored at once; listeners hear about them at most once per
 * animation frame, and only those of the keys that changed — so 50 widgets at 10 Hz re-render only what moved, never
 * the whole grid.
 */
export class ValueStore {
  private readonly latest = new Map<string, TimedValue>();
  /** The latest values as formulas show them, by key and formula, with the raw value each was computed from. */
  private readonly shown = new Map<string, { raw: TimedValue; shown: TimedValue }>();
  private readonly meta = new Map<string, PathMeta>();
  private readonly rings = new Map<string, Ring>();
  /** What each charted key's stored history was taken from (stored values, or minute or hour rollups). */
  private readonly resolutions = new Map<string, Resolution>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly revisions = new Map<string, number>();
  private readonly loadingDevices = new Set<string>();
  private readonly statuses = new Map<string, 'ONLINE' | 'OFFLINE'>();
  private readonly dirty = new Set<string>();
  private scheduled = false;
  private readonly historyLimit: number;
  private readonly schedule: (flush: () => void) => void;

  constructor(options: ValueStoreOptions = {}) {
    this.historyLimit = options.historyLimit ?? 10_000;
    this.schedule = options.schedule ?? defaultSchedule;
  }

  // --- reading --------------------------------------------------------------------------------------------------

  /**
   * The latest value of a key; the same object until the key changes (a stable snapshot for React). With a formula
   * (a binding's, formulaMapping), as the formula shows it: computed once per new value, then the same object too.
   */
  get(key: string, formula?: string): TimedValue | undefined {
    const raw = this.latest.get(key);
    if (formula === undefined || raw === undefined) return raw;
    const cacheKey = `${key}\n${formula}`;
    const known = this.shown.get(cacheKey);
    if (known?.raw === raw) return known.shown;
    const shown = timedThrough(raw, compiledFormula(formula));
    this.shown.set(cacheKey, { raw, shown });
    return shown;
  }

  metaOf(key: string): PathMeta | undefined {
    return this.meta.get(key);
  }

  /** A number that changes whenever the key's value or history changes. */
  revision(key: string): number {
    return this.revisions.get(key) ?? 0;
  }

  /**
   * The key's recent values at or after `since` (epoch ms), oldest first; empty for keys without history. With a
   * formula, as the formula shows them.
   */
  history(key: string, since: number, formula?: string): TimedValue[] {
    const points = this.rings.get(key)?.since(since) ?? [];
    if (formula === undefined) return points;
    const compiled = compiledFormula(formula);
    return points.map((point) => timedThrough(point, compiled));
  }

  /** What the key's stored history was taken from; undefined before it came (or for keys without one). */
  resolutionOf(key: string): Resolution | undefined {
    return this.resolutions.get(key);
  }

  isLoading(deviceId: string): boolean {
    return this.loadingDevices.has(deviceId);
  }

  statusOf(deviceId: string): 'ONLINE' | 'OFFLINE' | undefined {
    return this.statuses.get(deviceId);
  }

  /** Calls `listener` after the key changed (batched per frame); answers the function that stops. */
  subscribe(key: string, listener: Listener): () => void {
    let set = this.listeners.get(key);
    if (!set) {
      set = new Set();
      this.listeners.set(key, set);
    }
    set.add(listener);
    return () => {
      const current = this.listeners.get(key);
      current?.delete(listener);
      if (current?.size === 0) this.listeners.delete(key);
    };
  }

  // --- writing --------------------------------------------------------------------------------------------------

  /** Keeps a ring of recent values for the key (a chart shows it). */
  trackHistory(key: string): void {
    if (this.rings.has(key)) return;
    const ring = new Ring(this.historyLimit);
    const latest = this.latest.get(key);
    if (latest) ring.push(latest.ts, latest.value);
    this.rings.set(key, ring);
  }

  /** Values of a device as they arrive live: stored now, announced at the next frame. Older values are ignored. */
  receive(deviceId: string, ts: number, values: Record<string, ScalarValue>): void {
    for (const [path, value] of Object.entries(values)) this.put(deviceKey(deviceId, path), ts, value);
  }

  /** One value of a key (a live value, a stored latest value, a variable). */
  put(key: string, ts: number, value: ScalarValue): void {
    const known = this.latest.get(key);
    if (known && known.ts > ts) return;
    if (known && known.ts === ts && known.value === value) return;
    this.latest.set(key, { ts, value });
    const ring = this.rings.get(key);
    if (ring && ts > ring.lastTs) ring.push(ts, value);
    this.touch(key);
  }

  setMeta(key: string, meta: PathMeta): void {
    this.meta.set(key, meta);
    this.touch(key);
  }

  /**
   * Stored history of a charted key (from the platform), merged under the live values already received, with what it
   * was taken from (a long window comes from the minute rollups: the minimum and maximum of each minute).
   */
  seedHistory(key: string, points: readonly TimedValue[], resolution: Resolution = 'raw'): void {
    const ring = this.rings.get(key);
    if (!ring) return;
    this.resolutions.set(key, resolution);
    const live = ring.all();
    const firstLive = live[0]?.ts ?? Number.POSITIVE_INFINITY;
    ring.clear();
    for (const point of points) if (point.ts < firstLive) ring.push(point.ts, point.value);
    for (const point of live) ring.push(point.ts, point.value);
    const last = points[points.length - 1];
    if (last && !this.latest.has(key)) this.latest.set(key, last);
    this.touch(key);
  }

  setLoading(deviceId: string, loading: boolean): void {
    // Unchanged: nothing to tell (each telling re-renders every widget of the device).
    if (loading === this.loadingDevices.has(deviceId)) return;
    if (loading) this.loadingDevices.add(deviceId);
    else this.loadingDevices.delete(deviceId);
    this.touchDevice(deviceId);
  }

  setStatus(deviceId: string, status: 'ONLINE' | 'OFFLINE'): void {
    this.statuses.set(deviceId, status);
    this.touchDevice(deviceId);
  }

  /** Announces the changes gathered since the last frame (called by the scheduler; tests call it directly). */
  flush(): void {
    this.scheduled = false;
    if (this.dirty.size === 0) return;
    const changed = [...this.dirty];
    this.dirty.clear();
    for (const key of changed) {
      const set = this.listeners.get(key);
      if (!set) continue;
      for (const listener of [...set]) listener();
    }
  }

  private touch(key: string): void {
    this.revisions.set(key, (this.revisions.get(key) ?? 0) + 1);
    this.dirty.add(key);
    if (!this.scheduled) {
      this.scheduled = true;
      this.schedule(() => this.flush());
    }
  }

  /** Every listened key of the device (its loading state or status changed). */
  private touchDevice(deviceId: string): void {
    this.touch(deviceId);
    for (const key of this.listeners.keys()) if (key.startsWith(`${deviceId}/`)) this.touch(key);
  }
}
