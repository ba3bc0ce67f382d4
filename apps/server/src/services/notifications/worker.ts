import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.ts';
import type { AttemptResult } from './attempt.ts';
import * as store from './store.ts';

/** How long a claimed delivery stays with its worker before another one may take it (longer than any attempt). */
const LEASE_MS = 5 * 60_000;
/** Deliveries attempted at once. */
const BATCH = 20;
/** The worker looks for due deliveries at least this often (other instances, held e-mail). */
const IDLE_MS = 60_000;

/** What happens after an attempt: sent, another attempt after the next back-off delay, or FAILED for good. */
export function outcomeOf(
  result: AttemptResult,
  attempts: number,
  delaysMs: readonly number[],
  now: Date,
): store.AttemptOutcome {
  if (result.ok) return { status: 'SENT', attempts, at: now };
  const delay = delaysMs[attempts - 1];
  if (!result.retry || delay === undefined) return { status: 'FAILED', attempts, error: result.error };
  return { status: 'PENDING', attempts, error: result.error, nextAttemptAt: new Date(now.getTime() + delay) };
}

/**
 * Delivers due PENDING deliveries: on wake-up, at the next due time and at least every minute (an unref'd timer),
 * also those left PENDING by an earlier run of the server. Attempts = delays.length + 1; the last failure (or a
 * refusal that cannot heal) makes the delivery FAILED with the reason.
 */
export class DeliveryWorker {
  private readonly db: Db;
  private readonly log: FastifyBaseLogger;
  private readonly attempt: (row: store.DeliveryRow) => Promise<AttemptResult>;
  private readonly delaysMs: readonly number[];
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private scheduling: Promise<void> | undefined;
  private again = false;
  private closed = false;

  constructor(deps: {
    db: Db;
    log: FastifyBaseLogger;
    attempt: (row: store.DeliveryRow) => Promise<AttemptResult>;
    delaysMs: readonly number[];
  }) {
    this.db = deps.db;
    this.log = deps.log;
    this.attempt = deps.attempt;
    this.delaysMs = deps.delaysMs;
  }

  /** Looks for due deliveries now (or right after the current round). */
  wake(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.clearTimer();
    this.running = this.rounds().finally(() => {
      this.running = undefined;
      if (!this.closed) {
        this.scheduling = this.schedule().finally(() => {
          this.scheduling = undefined;
        });
      }
    });
    return this.running;
  }

  /** Resolves once no round is running. */
  async idle(): Promise<void> {
    while (this.running || this.scheduling) await (this.running ?? this.scheduling);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.clearTimer();
    await this.idle();
  }

  private clearTimer() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async rounds(): Promise<void> {
    do {
      this.again = false;
      try {
        while (!this.closed && (await this.round()) > 0);
      } catch (error) {
        this.log.error({ error }, 'notification delivery round failed');
      }
    } while (this.again && !this.closed);
  }

  /** Claims a batch of due deliveries and attempts each once; the number claimed. */
  private async round(): Promise<number> {
    const now = new Date();
    const due = await store.claimDue(this.db, now, new Date(now.getTime() + LEASE_MS), BATCH);
    await Promise.all(due.map((row) => this.deliver(row)));
    return due.length;
  }

  private async deliver(row: store.DeliveryRow): Promise<void> {
    let result: AttemptResult;
    try {
      result = await this.attempt(row);
    } catch (error) {
      result = { ok: false, error: error instanceof Error ? error.message : String(error), retry: true };
    }
    const outcome = outcomeOf(result, row.attempts + 1, this.delaysMs, new Date());
    await store.recordAttempt(this.db, row.id, outcome);
    if (outcome.status === 'FAILED')
      this.log.warn(
        { deliveryId: row.id, channel: row.channel, attempts: outcome.attempts, error: outcome.error },
        'notification delivery failed',
      );
  }

  /** Sleeps until the next delivery is due (at most a minute). */
  private async schedule(): Promise<void> {
    let wait = IDLE_MS;
    try {
      const next = await store.nextDue(this.db);
      if (next) wait = Math.min(IDLE_MS, Math.max(0, next.getTime() - Date.now()));
    } catch (error) {
      if (this.closed) return;
      this.log.warn({ error }, 'could not look up the next notification delivery');
    }
    if (this.closed || this.running) return;
    this.clearTimer();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.wake();
    }, wait);
    this.timer.unref();
  }
}
