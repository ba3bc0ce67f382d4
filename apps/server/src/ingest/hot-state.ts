import type { Db } from '../db/index.ts';
import type { DataValue, Refusal } from './payload.ts';
import * as store from './store.ts';

type Latest = { value: DataValue; ts: number };
type Counters = Omit<store.CounterDelta, 'deviceId'>;

const emptyCounters = (): Counters => ({
  accepted: 0,
  malformed: 0,
  unknownPath: 0,
  wrongType: 0,
  lastError: null,
  lastErrorAt: null,
});

/** Reported tags are rewritten at most this often per tag (their last-seen time), so steady traffic costs nothing. */
const TAG_REFRESH_MS = 60_000;

/**
 * What ingest keeps in memory between writes: the latest value of every path (served to readers at once), per-device
 * counters, reported data tags and last-seen times. `flush` writes what changed; ingest calls it every second.
 * Telemetry itself never waits for this: it is written (and acknowledged) by the batch writer.
 */
export class HotState {
  private readonly latest = new Map<string, Map<string, Latest>>();
  private dirtyLatest = new Map<string, Set<string>>();
  private counters = new Map<string, Counters>();
  private seen = new Map<string, number>();
  private tagsToWrite = new Map<string, store.ReportedTag>();
  private readonly tagWrittenAt = new Map<string, number>();

  recordValues(deviceId: string, ts: number, values: Record<string, DataValue>): void {
    let paths = this.latest.get(deviceId);
    if (!paths) {
      paths = new Map();
      this.latest.set(deviceId, paths);
    }
    let dirty = this.dirtyLatest.get(deviceId);
    if (!dirty) {
      dirty = new Set();
      this.dirtyLatest.set(deviceId, dirty);
    }
    for (const [path, value] of Object.entries(values)) {
      const current = paths.get(path);
      if (current && current.ts > ts) continue;
      paths.set(path, { value, ts });
      dirty.add(path);
    }
    this.seen.set(deviceId, Math.max(this.seen.get(deviceId) ?? 0, ts));
  }

  count(deviceId: string, outcome: 'accepted' | Refusal, error?: string, times = 1): void {
    let counters = this.counters.get(deviceId);
    if (!counters) {
      counters = emptyCounters();
      this.counters.set(deviceId, counters);
    }
    counters[outcome] += times;
    if (error) {
      counters.lastError = error.slice(0, 500);
      counters.lastErrorAt = Date.now();
    }
  }

  reportTags(deviceId: string, tags: ReadonlyMap<string, string>, at: number): void {
    for (const [name, type] of tags) {
      const key = `${deviceId}\u0000${name}`;
      const writtenAt = this.tagWrittenAt.get(key);
      if (writtenAt !== undefined && at - writtenAt < TAG_REFRESH_MS) continue;
      this.tagWrittenAt.set(key, at);
      this.tagsToWrite.set(key, { deviceId, name, type, at });
    }
  }

  /** The latest values held in memory for a device (newer than or equal to what is stored). */
  latestOf(deviceId: string): ReadonlyMap<string, Latest> {
    return this.latest.get(deviceId) ?? new Map();
  }

  forget(deviceId: string): void {
    this.latest.delete(deviceId);
    this.dirtyLatest.delete(deviceId);
    this.counters.delete(deviceId);
    this.seen.delete(deviceId);
  }

  async flush(db: Db): Promise<void> {
    const latestRows: store.LatestRow[] = [];
    for (const [deviceId, paths] of this.dirtyLatest) {
      const values = this.latest.get(deviceId);
      for (const path of paths) {
        const latest = values?.get(path);
        if (latest) latestRows.push({ deviceId, path, ...latest });
      }
    }
    const counters = [...this.counters].map(([deviceId, delta]) => ({ deviceId, ...delta }));
    const seen = this.seen;
    const tags = [...this.tagsToWrite.values()];
    this.dirtyLatest = new Map();
    this.counters = new Map();
    this.seen = new Map();
    this.tagsToWrite = new Map();
    if (latestRows.length > 0) await store.upsertLatest(db, latestRows);
    if (counters.length > 0) await store.addCounters(db, counters);
    if (seen.size > 0) await store.touchDevices(db, seen);
    if (tags.length > 0) await store.upsertReportedTags(db, tags);
  }
}
