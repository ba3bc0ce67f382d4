import type { AlarmChange, DeviceEvents, StatusEvent, ValuesEvent } from '../../ingest/events.ts';
import type { LiveRelay } from '../../ingest/live-relay.ts';

export type LiveListener = { values(event: ValuesEvent): void; status(event: StatusEvent): void };
export type AlarmListener = (change: AlarmChange) => void;

/**
 * Hands each device event to the live sessions watching that device: one listener on the device events for all
 * sessions, so a stored message costs a map lookup, not a call per open browser. In a cluster (`relay`) the events
 * other instances produced come in too, for the organizations this instance's sessions watch.
 */
export class LiveHub {
  private readonly watchers = new Map<string, Set<LiveListener>>();
  /** Alarm changes go to every session of the organization (no subscription). */
  private readonly alarmWatchers = new Map<string, Set<AlarmListener>>();

  private readonly relay: LiveRelay | undefined;

  constructor(events: DeviceEvents, relay?: LiveRelay) {
    this.relay = relay;
    for (const source of relay ? [events, relay.remote] : [events]) {
      source.on('values', (event) => {
        for (const listener of this.watchers.get(event.deviceId) ?? []) listener.values(event);
      });
      source.on('status', (event) => {
        for (const listener of this.watchers.get(event.deviceId) ?? []) listener.status(event);
      });
      source.on('alarm', (change) => {
        for (const listener of this.alarmWatchers.get(change.organizationId) ?? []) listener(change);
      });
    }
  }

  /** Every session watches its organization's alarms (so the relay brings that organization's events in). */
  watchAlarms(organizationId: string, listener: AlarmListener): void {
    const set = this.alarmWatchers.get(organizationId) ?? new Set();
    if (set.size === 0) this.relay?.watch(organizationId);
    set.add(listener);
    this.alarmWatchers.set(organizationId, set);
  }

  unwatchAlarms(organizationId: string, listener: AlarmListener): void {
    const set = this.alarmWatchers.get(organizationId);
    if (!set?.delete(listener) || set.size > 0) return;
    this.alarmWatchers.delete(organizationId);
    this.relay?.unwatch(organizationId);
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
