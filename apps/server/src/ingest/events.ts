import { EventEmitter } from 'node:events';
import type { alarms } from '@edgeport/contract';
import type { DeviceStatus } from '../db/schema.ts';
import type { DataValue } from './payload.ts';

export type ValuesEvent = {
  organizationId: string;
  deviceId: string;
  ts: number;
  values: Record<string, DataValue>;
};
export type StatusEvent = { organizationId: string; deviceId: string; status: DeviceStatus; at: number };

/** An alarm was raised or changed (acknowledged, reset, its condition cleared, cleared, closed). */
export type AlarmChange = { organizationId: string; event: alarms.AlarmEventKind; alarm: alarms.Alarm };

type EventMap = { values: [ValuesEvent]; status: [StatusEvent]; alarm: [AlarmChange] };

/**
 * Device events inside one server process: stored values and connection changes, for the live feed, alarm and trigger
 * rules, and alarm changes for the live feed and notifications. Several server instances would carry them over PostgreSQL LISTEN/NOTIFY behind this same interface.
 */
export class DeviceEvents extends EventEmitter<EventMap> {
  constructor() {
    super();
    // Every open live connection listens; the default warning at 10 listeners would be noise.
    this.setMaxListeners(0);
  }
}
