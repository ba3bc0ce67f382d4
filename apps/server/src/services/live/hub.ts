import type { DeviceEvents, StatusEvent, ValuesEvent } from '../../ingest/events.ts';

export type LiveListener = { values(event: ValuesEvent): void; status(event: StatusEvent): void };

/**
 * Hands each device event to the live sessions watching that device: one listener on the device events for all
 * sessions, so a stored message costs a map lookup, not a call per open browser.
 */
export class LiveHub {
  private readonly watchers = new Map<string, Set<LiveListener>>();

  constructor(events: DeviceEvents) {
    events.on('values', (event) => {
      for (const listener of this.watchers.get(event.deviceId) ?? []) listener.values(event);
    });
    events.on('status', (event) => {
      for (const listener of this.watchers.get(event.deviceId) ?? []) listener.status(event);
    });
  }

  watch(deviceId: string, listener: LiveListener): void {
    const set = this.watchers.get(deviceId) ?? new Set();
    set.add(listener);
    this.watchers.set(deviceId, set);
  }

  unwatch(deviceId: string, listener: LiveListener): void {
    const set = this.watchers.get(deviceId);
    set?.delete(listener);
    if (set?.size === 0) this.watchers.delete(deviceId);
  }
}
