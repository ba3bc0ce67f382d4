import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.ts';
import type { Ingest } from '../../ingest/index.ts';
import type { AlarmEngine } from '../alarms/engine.ts';
import type { Notifier } from '../notifications/notifier.ts';

/**
 * Runs the organizations' trigger rules: on stored values (data conditions) and alarm changes (alarm conditions),
 * an action when the condition becomes true — notify, call a webhook, write a value to a device, raise an alarm.
 */
export class TriggerEngine {
  private readonly deps: {
    db: Db;
    ingest: Ingest;
    alarms: AlarmEngine;
    notifier: Notifier;
    log: FastifyBaseLogger;
  };

  constructor(deps: {
    db: Db;
    ingest: Ingest;
    alarms: AlarmEngine;
    notifier: Notifier;
    log: FastifyBaseLogger;
  }) {
    this.deps = deps;
  }

  async start(): Promise<void> {}

  async rulesChanged(_organizationId: string): Promise<void> {}

  async settled(): Promise<void> {}

  async close(): Promise<void> {}
}
