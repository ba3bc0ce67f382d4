import type { alarms } from '@edgeport/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.ts';
import type { DeviceEvents } from '../../ingest/events.ts';

/** An alarm a trigger rule raises (no alarm rule behind it). */
export type RaisedByTrigger = {
  organizationId: string;
  triggerId: string;
  name: string;
  deviceId: string | null;
  severity: alarms.Severity;
  message: string;
  ackRequired: boolean;
  resetRequired: boolean;
  value: number | boolean | string | null;
};

/**
 * Evaluates the organizations' alarm rules inside the ingest pipeline (on every stored value and connection change,
 * no polling) and keeps the alarm instances and their history. Every change is emitted as an `alarm` device event.
 */
export class AlarmEngine {
  private readonly db: Db;
  private readonly events: DeviceEvents;
  private readonly log: FastifyBaseLogger;

  constructor(deps: { db: Db; events: DeviceEvents; log: FastifyBaseLogger }) {
    this.db = deps.db;
    this.events = deps.events;
    this.log = deps.log;
  }

  /** Loads the rules and the open alarms, then listens to the device events. */
  async start(): Promise<void> {}

  /** An organization's rules changed: evaluate with the new ones from the next value on. */
  async rulesChanged(_organizationId: string): Promise<void> {}

  async raise(_input: RaisedByTrigger): Promise<alarms.Alarm> {
    throw new Error('not built yet');
  }

  /** Resolves when every write started so far has finished (tests, shutdown). */
  async settled(): Promise<void> {}

  async close(): Promise<void> {}
}
