import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.ts';
import { recordUsage } from '../license/subscriptions/journal.ts';
import * as store from './store.ts';

/** How long an organization's data-point limit is cached: a changed limit applies within this time. */
const LIMIT_TTL_MS = 5_000;
const DAY_MS = 86_400_000;
/** Data points go into the resource journal once a minute per organization: one row a minute, not one a second. */
const JOURNAL_INTERVAL_MS = 60_000;

type Unjournaled = { amount: number; since: number };

type Meter = {
  day: string;
  limit: number | null;
  /** The day's total in the database when last read or written. */
  stored: number;
  /** Counted here since, not yet written. */
  pending: number;
  /** Messages refused today because of the limit (this process). */
  refused: number;
  loadedAt: number;
};

/**
 * The data points per day limit, kept cheap for ingest: each organization's day total and limit are held in memory
 * (a map lookup per message), data points are counted here and added to `limit_usage` by `flush`, which ingest calls
 * with its other hot writes every second. Several server instances converge through the stored totals.
 */
export class DataPointMeter {
  private readonly meters = new Map<string, Meter>();
  private readonly loading = new Map<string, Promise<Meter>>();
  /** Data points added to the day totals but not yet to the resource journal, by organization. */
  private readonly unjournaled = new Map<string, Unjournaled>();
  /** Counts of a previous day that were not written yet when the day changed. */
  private leftovers: { organizationId: string; day: string; amount: number }[] = [];
  private day = '';
  private dayEndsAt = 0;
  private readonly db: Db;
  private readonly log: FastifyBaseLogger | undefined;

  constructor(db: Db, log?: FastifyBaseLogger) {
    this.db = db;
    this.log = log;
  }

  /**
   * Counts `amount` data points of the organization for today and answers true, or answers false (counting nothing
   * but the refusal) when they would go over its limit. Synchronous while the organization's meter is fresh.
   */
  consume(organizationId: string, amount: number): boolean | Promise<boolean> {
    const now = Date.now();
    const day = this.today(now);
    const meter = this.meters.get(organizationId);
    if (meter && meter.day === day && now - meter.loadedAt < LIMIT_TTL_MS) return take(meter, amount);
    return this.load(organizationId, day).then((loaded) => take(loaded, amount));
  }

  /** Messages refused today because of the limit, counted by this process. */
  refusedToday(organizationId: string): number {
    const meter = this.meters.get(organizationId);
    return meter && meter.day === this.today(Date.now()) ? meter.refused : 0;
  }

  /** The organization's data points per day as last read (null: unlimited or not read yet). */
  limitOf(organizationId: string): number | null {
    return this.meters.get(organizationId)?.limit ?? null;
  }

  /** The organization's limit changed: read it again at the next message. */
  invalidate(organizationId: string): void {
    const meter = this.meters.get(organizationId);
    if (meter) meter.loadedAt = 0;
  }

  /** Limit changes may have been missed (the cluster's bus reconnected): read every limit again. */
  invalidateAll(): void {
    for (const meter of this.meters.values()) meter.loadedAt = 0;
  }

  /**
   * Adds what was counted to the stored day totals (and learns the totals other instances reached), and meters into
   * the resource journal what waited a minute — or everything, with `journalAll` (an explicit flush, shutdown).
   */
  async flush({ journalAll = true }: { journalAll?: boolean } = {}): Promise<void> {
    const leftovers = this.leftovers;
    this.leftovers = [];
    for (const left of leftovers) {
      await this.add(left.organizationId, left.day, left.amount).catch((error: unknown) => {
        this.leftovers.push(left);
        this.log?.warn({ error }, 'data point usage not written');
      });
    }
    for (const [organizationId, meter] of this.meters) {
      if (meter.pending === 0) continue;
      const amount = meter.pending;
      meter.pending = 0;
      try {
        const total = await this.add(organizationId, meter.day, amount);
        // The meter may have been read again meanwhile: the stored total is what counts.
        const latest = this.meters.get(organizationId);
        if (latest?.day === meter.day) latest.stored = total;
      } catch (error) {
        meter.pending += amount;
        this.log?.warn({ error }, 'data point usage not written');
      }
    }
    await this.journal(journalAll);
  }

  private async journal(all: boolean): Promise<void> {
    const now = Date.now();
    for (const [organizationId, waiting] of this.unjournaled) {
      if (!all && now - waiting.since < JOURNAL_INTERVAL_MS) continue;
      this.unjournaled.delete(organizationId);
      await recordUsage(this.db, {
        organizationId,
        resourceType: 'dataPoints',
        delta: waiting.amount,
        reason: 'dataPoints.ingested',
      }).catch((error: unknown) => {
        this.noteUnjournaled(organizationId, waiting.amount, waiting.since);
        this.log?.warn({ error }, 'data point usage not journaled');
      });
    }
  }

  private noteUnjournaled(organizationId: string, amount: number, since = Date.now()): void {
    const waiting = this.unjournaled.get(organizationId);
    if (waiting) waiting.amount += amount;
    else this.unjournaled.set(organizationId, { amount, since });
  }

  private async add(organizationId: string, day: string, amount: number): Promise<number> {
    const total = await store.addDailyUsage(this.db, organizationId, day, 'dataPointsPerDay', amount, null);
    this.noteUnjournaled(organizationId, amount);
    return total ?? 0;
  }

  private today(now: number): string {
    if (now >= this.dayEndsAt || now < this.dayEndsAt - DAY_MS) {
      this.day = store.utcDay(now);
      this.dayEndsAt = Date.parse(`${this.day}T00:00:00.000Z`) + DAY_MS;
    }
    return this.day;
  }

  /** One read per organization at a time, however many messages wait for it. */
  private load(organizationId: string, day: string): Promise<Meter> {
    const running = this.loading.get(organizationId);
    if (running) return running;
    const loading = this.read(organizationId, day).finally(() => this.loading.delete(organizationId));
    this.loading.set(organizationId, loading);
    return loading;
  }

  private async read(organizationId: string, day: string): Promise<Meter> {
    const [row, usage] = await Promise.all([
      store.findLimits(this.db, organizationId),
      store.usageOfDay(this.db, organizationId, day),
    ]);
    const current = this.meters.get(organizationId);
    const sameDay = current?.day === day;
    if (current && !sameDay && current.pending > 0) {
      this.leftovers.push({ organizationId, day: current.day, amount: current.pending });
    }
    const meter: Meter = {
      day,
      limit: row?.limits.dataPointsPerDay ?? null,
      stored: usage.dataPoints,
      pending: sameDay ? current.pending : 0,
      refused: sameDay ? current.refused : 0,
      loadedAt: Date.now(),
    };
    this.meters.set(organizationId, meter);
    return meter;
  }
}

function take(meter: Meter, amount: number): boolean {
  if (meter.limit !== null && meter.stored + meter.pending + amount > meter.limit) {
    meter.refused += 1;
    return false;
  }
  meter.pending += amount;
  return true;
}
