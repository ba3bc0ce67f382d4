import { and, inArray, isNotNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/index.ts';
import { vpnSessions } from '../db/schema.ts';
import { sweep } from '../services/vpn/sessions/lifecycle.ts';
import type { LiveSessions } from '../services/vpn/sessions/live.ts';

/** The sweeper's period. */
export const SWEEP_INTERVAL_MS = 60_000;

/**
 * Every minute: writes the traffic counted in memory, ends sessions idle 30 minutes or 12 hours old and connections
 * idle 30 minutes without sessions, and breaks the streams of sessions another server instance ended.
 */
export class SessionSweeper {
  readonly #db: Db;
  readonly #live: LiveSessions;
  readonly #log: FastifyBaseLogger;
  #timer: NodeJS.Timeout | undefined;
  #round: Promise<void> | undefined;

  constructor(db: Db, live: LiveSessions, log: FastifyBaseLogger) {
    this.#db = db;
    this.#live = live;
    this.#log = log;
  }

  start(): void {
    this.#timer ??= setInterval(() => void this.runOnce(), SWEEP_INTERVAL_MS);
    this.#timer.unref();
  }

  /** One round now (tests call it with a later `now`). */
  runOnce(now = new Date()): Promise<void> {
    this.#round ??= this.#sweep(now).finally(() => {
      this.#round = undefined;
    });
    return this.#round;
  }

  async #sweep(now: Date): Promise<void> {
    try {
      const ended = await sweep(this.#db, this.#live, now);
      if (ended.sessions > 0 || ended.connections > 0)
        this.#log.info(ended, 'remote access: idle sessions ended');
      const live = this.#live.liveSessionIds();
      if (live.length > 0) {
        const gone = await this.#db
          .select({ id: vpnSessions.id })
          .from(vpnSessions)
          .where(and(inArray(vpnSessions.id, live), isNotNull(vpnSessions.endedAt)));
        for (const { id } of gone) this.#live.closeStreams(id);
      }
    } catch (error) {
      this.#log.error({ err: error }, 'remote access: session sweep failed');
    }
  }

  /** Stops the timer, waits for a running round and writes the pending traffic. */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#round;
    await this.#live.flushAll();
    this.#live.stop();
  }
}
