import type { LiveValue } from './live-client.ts';

export type LiveDevices = {
  /** By device id, then by model path. */
  values: Record<string, Record<string, LiveValue>>;
  status: Record<string, 'ONLINE' | 'OFFLINE'>;
  connected: boolean;
};

/** What arrived since the last hand-over: the newest value per device and path, the last status per device. */
export type LiveChanges = Pick<LiveDevices, 'values' | 'status'>;

/**
 * How long live messages are gathered before a screen renders them: five renders a second read as live, and a table
 * of 200 devices publishing fast (thousands of messages a second) rendered once per message, or even once per
 * animation frame, kept a core of the browser busy.
 */
export const LIVE_RENDER_EVERY_MS = 200;

type Timers = { request(run: () => void): number; cancel(handle: number): void };

const windowTimers: Timers = {
  request: (run) => window.setTimeout(run, LIVE_RENDER_EVERY_MS),
  cancel: (handle) => window.clearTimeout(handle),
};

/**
 * Gathers live messages for LIVE_RENDER_EVERY_MS after the first and hands them over at once, keeping only the newest
 * value of each device and path: a screen renders a few times a second however fast its devices publish.
 */
export class LiveBatcher {
  readonly #apply: (changes: LiveChanges) => void;
  readonly #timers: Timers;
  #pending: LiveChanges | undefined;
  #timer: number | undefined;

  constructor(apply: (changes: LiveChanges) => void, timers: Timers = windowTimers) {
    this.#apply = apply;
    this.#timers = timers;
  }

  values(deviceId: string, ts: number, values: Record<string, LiveValue['value']>): void {
    const pending = this.#queue();
    const device = pending.values[deviceId] ?? {};
    pending.values[deviceId] = device;
    for (const [path, value] of Object.entries(values)) {
      const known = device[path];
      if (!known || known.ts <= ts) device[path] = { value, ts };
    }
  }

  status(deviceId: string, status: 'ONLINE' | 'OFFLINE'): void {
    this.#queue().status[deviceId] = status;
  }

  /** Drops what was not handed over yet. */
  stop(): void {
    if (this.#timer !== undefined) this.#timers.cancel(this.#timer);
    this.#timer = undefined;
    this.#pending = undefined;
  }

  #queue(): LiveChanges {
    this.#pending ??= { values: {}, status: {} };
    this.#timer ??= this.#timers.request(() => {
      const changes = this.#pending;
      this.#pending = undefined;
      this.#timer = undefined;
      if (changes) this.#apply(changes);
    });
    return this.#pending;
  }
}

/** The screen's live state with the changes handed over: a value replaces one only when it is not older. */
export function withChanges(current: LiveDevices, changes: LiveChanges): LiveDevices {
  const values = { ...current.values };
  for (const [deviceId, paths] of Object.entries(changes.values)) {
    const device = { ...values[deviceId] };
    for (const [path, change] of Object.entries(paths)) {
      const known = device[path];
      if (!known || known.ts <= change.ts) device[path] = change;
    }
    values[deviceId] = device;
  }
  return { ...current, values, status: { ...current.status, ...changes.status } };
}
