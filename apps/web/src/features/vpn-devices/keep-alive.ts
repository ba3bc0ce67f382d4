import { vpn } from '@edgeport/contract/values';

/** Spec 4/9: the legacy remote-access session is pinged every 180 s while a VPN screen is open. */
export const KEEP_ALIVE_MS = vpn.LEGACY_KEEP_ALIVE_MS;
/** A VPN screen replaced by another VPN screen (a tab change) keeps the session: stopping waits this long. */
export const KEEP_ALIVE_GRACE_MS = 2_000;

export type KeepAliveCalls = {
  /** Signs in to the legacy remote-access login for `identity` (`{email}/{org resourceId}`). */
  login: (identity: string) => Promise<unknown>;
  ping: () => Promise<unknown>;
};

export type Timers = {
  setInterval: (run: () => void, ms: number) => unknown;
  clearInterval: (handle: unknown) => void;
  setTimeout: (run: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
};

const browserTimers: Timers = {
  setInterval: (run, ms) => globalThis.setInterval(run, ms),
  clearInterval: (handle) => globalThis.clearInterval(handle as ReturnType<typeof setInterval>),
  setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * The legacy remote-access session of the open VPN screens (spec 4/7): the first screen that opens signs in once, a
 * ping follows every 180 s, and when the last screen closes the pings stop. Failures are ignored (spec 7): the
 * legacy session only helps older remote-access clients and never blocks a screen.
 */
export class LegacyKeepAlive {
  readonly #calls: KeepAliveCalls;
  readonly #timers: Timers;
  readonly #intervalMs: number;
  #holders = 0;
  #identity: string | undefined;
  #interval: unknown;
  #stopping: unknown;

  constructor(calls: KeepAliveCalls, options: { timers?: Timers; intervalMs?: number } = {}) {
    this.#calls = calls;
    this.#timers = options.timers ?? browserTimers;
    this.#intervalMs = options.intervalMs ?? KEEP_ALIVE_MS;
  }

  /** A screen opens: keeps the session of `identity` alive until the returned release is called. */
  acquire(identity: string): () => void {
    this.#holders += 1;
    if (this.#stopping !== undefined) {
      this.#timers.clearTimeout(this.#stopping);
      this.#stopping = undefined;
    }
    if (this.#identity !== identity) this.#start(identity);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#holders -= 1;
      if (this.#holders > 0) return;
      this.#stopping = this.#timers.setTimeout(() => {
        this.#stopping = undefined;
        if (this.#holders === 0) this.stop();
      }, KEEP_ALIVE_GRACE_MS);
    };
  }

  /** Whether pings are running. */
  get active(): boolean {
    return this.#identity !== undefined;
  }

  stop(): void {
    if (this.#interval !== undefined) this.#timers.clearInterval(this.#interval);
    this.#interval = undefined;
    this.#identity = undefined;
  }

  #start(identity: string): void {
    this.stop();
    this.#identity = identity;
    void this.#calls.login(identity).catch(() => undefined);
    // A refused ping (the session ran out while the computer slept) signs in again; other failures are ignored.
    this.#interval = this.#timers.setInterval(() => {
      void this.#calls.ping().catch(() => this.#calls.login(identity).catch(() => undefined));
    }, this.#intervalMs);
  }
}
