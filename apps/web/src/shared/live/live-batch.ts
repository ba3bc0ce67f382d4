import type { LiveValue } from './live-client.ts';

export type LiveDevices = {
  /** By device id, then by model path. */
  values: Record<string, Record<string, LiveValue>>;
  status: Record<string, 'ONLINE' | 'OFFLINE'>;
  connected: boolean;
};

/** What arrived since the last frame: the newest value per device and path, the last status per device. */
export type LiveChanges = Pick<LiveDevices, 'values' | 'status'>;

type Frames = { request(run: () => void): number; cancel(handle: number): void };

const animationFrames: Frames = {
  request: (run) => requestAnimationFrame(run),
  cancel: (handle) => cancelAnimationFrame(handle),
};

/**
 * Gathers live messages until the next animation frame and hands them over at once: a screen then renders once per
 * frame, not once per message (a table of devices publishing fast gets thousands a second, and rendering each kept
 * the browser's CPU busy). A hidden tab gets no frames; it keeps only the newest of each, so it holds little.
 */
export class LiveBatcher {
  readonly #apply: (changes: LiveChanges) => void;
  readonly #frames: Frames;
  #pending: LiveChanges | undefined;
  #frame: number | undefined;

  constructor(apply: (changes: LiveChanges) => void, frames: Frames = animationFrames) {
    this.#apply = apply;
    this.#frames = frames;
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
    if (this.#frame !== undefined) this.#frames.cancel(this.#frame);
    this.#frame = undefined;
    this.#pending = undefined;
  }

  #queue(): LiveChanges {
    this.#pending ??= { values: {}, status: {} };
    this.#frame ??= this.#frames.request(() => {
      const changes = this.#pending;
      this.#pending = undefined;
      this.#frame = undefined;
      if (changes) this.#apply(changes);
    });
    return this.#pending;
  }
}

/** The screen's live state with a frame's changes: a value replaces one only when it is not older. */
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
