import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/index.ts';
import { DataPointMeter } from '../services/limits/data-point-meter.ts';
import { type PresetBinding, presetBindingOf } from '../services/mappings/binding.ts';
import { RollupAccumulator } from '../telemetry/rollup-accumulator.ts';
import { BatchWriter } from './batch-writer.ts';
import type { DeviceEvents } from './events.ts';
import { HotState } from './hot-state.ts';
import { decodeMessage, isMalformed, type Refusal } from './payload.ts';
import * as store from './store.ts';

type Routing = { organizationId: string; binding: PresetBinding | undefined };

/** How long a device's organization and preset binding are cached: a preset change applies within this time. */
const ROUTING_TTL_MS = 5_000;
/** At most one log line per device and reason in this time: a broken device must not flood the log. */
const LOG_EVERY_MS = 10_000;

/**
 * The telemetry pipeline: decode a device's data message, map it through its preset, store it in batches and only
 * then resolve (the broker acknowledges QoS 1 publishes at that moment), keep latest values hot, and announce the
 * stored values. Refused messages and values are counted and logged per device and never stored; nothing here throws
 * for bad input.
 */
export class IngestPipeline {
  readonly hot = new HotState();
  /** The organizations' data points per day (limits): counted in memory, written with the hot state. */
  readonly meter: DataPointMeter;
  private readonly writer: BatchWriter<store.TelemetryRow>;
  /** The minute and hour rollups of what was stored, added to the database with the hot state. */
  private readonly rollups = new RollupAccumulator();
  private readonly routing = new ShortCache<Routing>();
  /** Preset bindings (with compiled formulas) are shared by all devices of a preset. */
  private readonly bindings = new ShortCache<PresetBinding>();
  private readonly loggedAt = new Map<string, number>();
  private flushing: Promise<void> = Promise.resolve();
  private readonly db: Db;
  private readonly events: DeviceEvents;
  private readonly log: FastifyBaseLogger;
  /** This instance's name in telemetry_rollup_flushes. */
  private readonly instance: string;

  constructor(db: Db, events: DeviceEvents, log: FastifyBaseLogger, instance: string) {
    this.db = db;
    this.events = events;
    this.log = log;
    this.instance = instance;
    this.meter = new DataPointMeter(db, log);
    this.writer = new BatchWriter((rows) => store.insertTelemetry(db, rows));
  }

  /** Resolves once the message's values are stored (or it was refused and counted); rejects if storage failed. */
  async accept(deviceId: string, payload: Buffer): Promise<void> {
    const routing = await this.routing.get(deviceId, () => this.loadRouting(deviceId));
    if (!routing) return;
    const message = decodeMessage(payload, routing.binding);
    if (isMalformed(message)) {
      this.refuse(deviceId, 'malformed', message.malformed);
      return;
    }
    this.hot.reportTags(deviceId, message.reportedTags, Date.now());
    for (const refusal of message.refusals) this.refuse(deviceId, refusal.reason, refusal.detail);
    const points = Object.keys(message.values).length;
    if (points === 0) return;
    const allowed = this.meter.consume(routing.organizationId, points);
    if (allowed === false || (allowed !== true && !(await allowed))) {
      this.refuseOverLimit(routing.organizationId, deviceId, points);
      return;
    }
    await this.writer.add({ deviceId, ts: message.ts, values: message.values });
    this.rollups.add(deviceId, message.ts, message.values);
    this.hot.count(deviceId, 'accepted');
    this.hot.recordValues(deviceId, message.ts, message.values);
    this.events.emit('values', {
      organizationId: routing.organizationId,
      deviceId,
      ts: message.ts,
      values: message.values,
    });
  }

  /** Drops what is cached of a device (its preset changed, it was deleted or moved). */
  forget(deviceId: string): void {
    this.routing.delete(deviceId);
    this.hot.forget(deviceId);
  }

  /** Changes of devices may have been missed (the cluster's bus reconnected): look every device up again. */
  forgetAllRouting(): void {
    this.routing.clear();
    this.bindings.clear();
  }

  /**
   * Writes everything waiting: telemetry batches, the rollups, the hot state and all counted data points to the
   * journal.
   */
  flush(): Promise<void> {
    return this.oneAtATime(async () => {
      await this.writer.flush();
      await this.rollups.flush(this.db, this.instance);
      await this.hot.flush(this.db);
      await this.meter.flush();
    });
  }

  /**
   * The periodic write: the rollups of minutes that are over, the hot state and the day totals; the journal only gets
   * what waited a minute.
   */
  flushHot(): Promise<void> {
    return this.oneAtATime(async () => {
      await Promise.all([
        this.rollups.flush(this.db, this.instance, Date.now()),
        this.hot.flush(this.db),
        this.meter.flush({ journalAll: false }),
      ]);
    });
  }

  /**
   * Flushes run one after another: each takes what is waiting before its first write, so a flush running next to a
   * periodic one would return before the other's writes landed (and miss what they leave for the journal).
   */
  private oneAtATime(run: () => Promise<void>): Promise<void> {
    const next = this.flushing.then(run);
    this.flushing = next.catch(() => undefined);
    return next;
  }

  /**
   * A message over its organization's data points per day: refused, counted by the meter (refusedToday) and shown
   * as the device's last ingest error (device_ingest_stats has no column for this reason yet).
   */
  private refuseOverLimit(organizationId: string, deviceId: string, points: number): void {
    const limit = this.meter.limitOf(organizationId);
    const detail = `organization limit reached: dataPointsPerDay (${limit}); a message of ${points} data points was refused`;
    this.hot.count(deviceId, 'accepted', detail, 0); // times 0: only the last error
    const key = `${deviceId}:overLimit`;
    const now = Date.now();
    if ((this.loggedAt.get(key) ?? 0) + LOG_EVERY_MS > now) return;
    this.loggedAt.set(key, now);
    this.log.warn({ deviceId, reason: 'overLimit', detail }, 'device data refused');
  }

  private refuse(deviceId: string, reason: Refusal, detail: string): void {
    this.hot.count(deviceId, reason, detail);
    const key = `${deviceId}:${reason}`;
    const now = Date.now();
    if ((this.loggedAt.get(key) ?? 0) + LOG_EVERY_MS > now) return;
    this.loggedAt.set(key, now);
    this.log.warn({ deviceId, reason, detail }, 'device data refused');
  }

  private async loadRouting(deviceId: string): Promise<Routing | undefined> {
    const device = await store.deviceRouting(this.db, deviceId);
    if (!device) return undefined;
    const presetId = device.presetId;
    const binding = presetId
      ? await this.bindings.get(presetId, () => presetBindingOf(this.db, presetId))
      : undefined;
    return { organizationId: device.organizationId, binding };
  }
}

/**
 * One promise per key, reused for a few seconds: concurrent callers share one load (a burst of thousands of messages
 * must not queue thousands of identical queries), and a load that failed or found nothing is not kept.
 */
class ShortCache<T> {
  private readonly entries = new Map<string, { value: Promise<T | undefined>; loadedAt: number }>();

  get(key: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
    const cached = this.entries.get(key);
    if (cached && Date.now() - cached.loadedAt < ROUTING_TTL_MS) return cached.value;
    const value = load();
    this.entries.set(key, { value, loadedAt: Date.now() });
    value.then(
      (found) => {
        if (found === undefined) this.entries.delete(key);
      },
      () => this.entries.delete(key),
    );
    return value;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
