import type { AlarmChange, DeviceEvents, StatusEvent, ValuesEvent } from '../../ingest/events.ts';

export type LiveListener = { values(event: ValuesEvent): void; status(event: StatusEvent): void };
export type AlarmListener = (change: AlarmChange) => void;

/**
 * Hands each device event to the live sessions watching that device: one listener on the device events for all
 * sessions, so a stored message costs a map lookup, not a call per open browser.
 */
export class LiveHub {
  private readonly watchers = new Map<string, Set<LiveListener>>();
  /** Alarm changes go to every session of the organization (no subscription). */
  private readonly alarmWatchers = new Map<string, Set<AlarmListener>>();

  constructor(events: DeviceEvents) {
    events.on('values', (event) => {
      for (const listener of this.watchers.get(event.deviceId) ?? []) listener.values(event);
    });
    events.on('status', (event) => {
      for (const listener of this.watchers.get(event.deviceId) ?? []) listener.status(event);
    });
    events.on('alarm', (change) => {
      for (const listener of this.alarmWatchers.get(change.organizationId) ?? []) listener(change);
    });
  }

  watchAlarms(organizationId: string, listener: AlarmListener): void {
    const set = this.alarmWatchers.get(organizationId) ?? new Set();
    set.add(listener);
    this.alarmWatchers.set(organizationId, set);
  }

  unwatchAlarms(organizationId: string, listener: AlarmListener): void {
    const set = this.alarmWatchers.get(organizationId);
    set?.delete(listener);
    if (set?.size === 0) this.alarmWatchers.delete(organizationId);
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
