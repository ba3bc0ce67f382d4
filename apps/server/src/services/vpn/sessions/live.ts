import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { EventBus } from '../../../cluster/event-bus.ts';
import { CHANNELS, type Invalidation, invalidation } from '../../../cluster/invalidation.ts';
import type { Db } from '../../../db/index.ts';
import { vpnSessions } from '../../../db/schema.ts';
import type { GatewayTunnels } from '../../../tunnel/hub.ts';

/** Traffic of a session not yet written to its row. */
export type PendingActivity = { bytesIn: number; bytesOut: number; lastActivityAt: Date | undefined };

/** Activity is written to a session's row at most this often while it carries traffic (and at its end). */
export const ACTIVITY_FLUSH_MS = 10_000;

type SessionState = {
  /** Closes one live stream (an HTTP exchange, a proxied WebSocket, a forwarded TCP connection). */
  closers: Set<() => void>;
  pending: PendingActivity;
  lastFlushAt: number;
  flushTimer: NodeJS.Timeout | undefined;
};

/**
 * The streams that run through the tunnel now, per session, and the traffic they carried since the last write to
 * the database. Bytes in: from the machine to the user; bytes out: from the user to the machine.
 */
export class LiveSessions {
  readonly #db: Db;
  readonly #sessions = new Map<string, SessionState>();
  /** Session ends announced to every instance: a session's streams run wherever its user's connections arrived. */
  readonly #endings: Invalidation | undefined;

  constructor(db: Db, bus?: EventBus) {
    this.#db = db;
    this.#endings =
      bus &&
      invalidation(bus, CHANNELS.vpnSessionEnded, {
        one: (sessionId) => this.closeStreams(sessionId),
        all: () => this.#closeEnded(),
      });
  }

  /** The session's end is written: its streams break here and on every other instance. */
  async ended(sessionId: string): Promise<void> {
    if (this.#endings) await this.#endings.changed(sessionId);
    else this.closeStreams(sessionId);
  }

  /** Announcements may have been missed: breaks the streams of every session here whose end is written. */
  async #closeEnded(): Promise<void> {
    const live = this.liveSessionIds();
    if (live.length === 0) return;
    const ended = await this.#db
      .select({ id: vpnSessions.id })
      .from(vpnSessions)
      .where(and(inArray(vpnSessions.id, live), isNotNull(vpnSessions.endedAt)));
    for (const { id } of ended) this.closeStreams(id);
  }

  #state(sessionId: string): SessionState {
    let state = this.#sessions.get(sessionId);
    if (!state) {
      state = {
        closers: new Set(),
        pending: { bytesIn: 0, bytesOut: 0, lastActivityAt: undefined },
        lastFlushAt: Date.now(),
        flushTimer: undefined,
      };
      this.#sessions.set(sessionId, state);
    }
    return state;
  }

  /** Registers a live stream of the session; the answer unregisters it (and writes its traffic soon). */
  track(sessionId: string, close: () => void): () => void {
    const state = this.#state(sessionId);
    state.closers.add(close);
    return () => {
      state.closers.delete(close);
      if (state.closers.size === 0) this.#scheduleFlush(sessionId, state);
    };
  }

  /** Counts traffic of the session (in: machine to user, out: user to machine). */
  count(sessionId: string, bytesIn: number, bytesOut: number): void {
    const state = this.#state(sessionId);
    state.pending.bytesIn += bytesIn;
    state.pending.bytesOut += bytesOut;
    state.pending.lastActivityAt = new Date();
    if (Date.now() - state.lastFlushAt >= ACTIVITY_FLUSH_MS) void this.flush(sessionId);
  }

  /** How many streams of the session are live. */
  streams(sessionId: string): number {
    return this.#sessions.get(sessionId)?.closers.size ?? 0;
  }

  /** The session's unwritten traffic, handed over (the caller writes it); zero afterwards. */
  takePending(sessionId: string): PendingActivity {
    const state = this.#sessions.get(sessionId);
    if (!state) return { bytesIn: 0, bytesOut: 0, lastActivityAt: undefined };
    const pending = state.pending;
    state.pending = { bytesIn: 0, bytesOut: 0, lastActivityAt: undefined };
    state.lastFlushAt = Date.now();
    return pending;
  }

  /** Writes the session's unwritten traffic to its row. */
  async flush(sessionId: string): Promise<void> {
    const pending = this.takePending(sessionId);
    const state = this.#sessions.get(sessionId);
    if (state?.closers.size === 0 && !state.flushTimer) this.#sessions.delete(sessionId);
    if (!pending.lastActivityAt) return;
    await this.#db
      .update(vpnSessions)
      .set({
        bytesIn: sql`${vpnSessions.bytesIn} + ${pending.bytesIn}`,
        bytesOut: sql`${vpnSessions.bytesOut} + ${pending.bytesOut}`,
        lastActivityAt: sql`greatest(${vpnSessions.lastActivityAt}, ${pending.lastActivityAt.toISOString()}::timestamptz)`,
      })
      .where(eq(vpnSessions.id, sessionId))
      .catch(() => {
        // The database is going away (shutdown): the traffic of this moment is lost, nothing else.
      });
  }

  /** Writes every session's unwritten traffic (the sweeper's round, shutdown). */
  async flushAll(): Promise<void> {
    for (const sessionId of [...this.#sessions.keys()]) await this.flush(sessionId);
  }

  /** Breaks every live stream of the session (it ended). Its traffic stays pending for the ender to write. */
  closeStreams(sessionId: string): void {
    const state = this.#sessions.get(sessionId);
    if (!state) return;
    if (state.flushTimer) clearTimeout(state.flushTimer);
    state.flushTimer = undefined;
    for (const close of [...state.closers]) close();
    state.closers.clear();
  }

  /** Breaks every live stream (shutdown); the traffic stays pending for `flushAll`. */
  closeAll(): void {
    for (const sessionId of this.liveSessionIds()) this.closeStreams(sessionId);
  }

  /** Forgets the session (its end was written). */
  forget(sessionId: string): void {
    const state = this.#sessions.get(sessionId);
    if (state?.flushTimer) clearTimeout(state.flushTimer);
    this.#sessions.delete(sessionId);
  }

  /** Ids of the sessions with live streams. */
  liveSessionIds(): string[] {
    return [...this.#sessions.entries()].filter(([, state]) => state.closers.size > 0).map(([id]) => id);
  }

  /** Stops the pending timers and hearing of other instances' session ends (shutdown). */
  stop(): void {
    this.#endings?.stop();
    for (const state of this.#sessions.values()) {
      if (state.flushTimer) clearTimeout(state.flushTimer);
      state.flushTimer = undefined;
    }
  }

  #scheduleFlush(sessionId: string, state: SessionState): void {
    if (state.flushTimer) return;
    const wait = Math.max(0, state.lastFlushAt + ACTIVITY_FLUSH_MS - Date.now());
    state.flushTimer = setTimeout(() => {
      state.flushTimer = undefined;
      void this.flush(sessionId);
    }, wait);
    state.flushTimer.unref();
  }
}

const registries = new WeakMap<GatewayTunnels, LiveSessions>();

/** The composition root makes a server's live sessions, hearing session ends on the cluster's bus. */
export function registerLiveSessions(tunnels: GatewayTunnels, db: Db, bus: EventBus): LiveSessions {
  const live = new LiveSessions(db, bus);
  registries.set(tunnels, live);
  return live;
}

/**
 * The live sessions of one server: keyed by its tunnels, which the sessions service and the remote-access routes
 * both get from the composition root.
 */
export function liveSessionsOf(tunnels: GatewayTunnels, db: Db): LiveSessions {
  let live = registries.get(tunnels);
  if (!live) {
    live = new LiveSessions(db);
    registries.set(tunnels, live);
  }
  return live;
}
