import type { Database } from '../db/index.ts';
import type { BusLog, EventBus } from './event-bus.ts';
import { InProcessEventBus } from './event-bus.ts';
import { PostgresEventBus } from './postgres-event-bus.ts';

/**
 * The bus's channels, all in one place. Each payload is one id; receivers read the current state themselves.
 * - alarm and trigger rules: an organization id (its rules changed: reload them);
 * - limits: an organization id (its limits changed: read them again at the next message);
 * - device routing: a device id (its preset changed or it was deleted: look up its organization and preset again).
 * - gateway tunnels: a command to the instance holding a gateway's tunnel, as JSON with the gateway id (`taken` by a
 *   newer connection: close an older one; `drop`: a new agent secret or a reset; `lan`: the portal changed its LAN).
 * - vpn session ended: a remote-access session id (its end is written: break its streams wherever they run).
 */
export const CHANNELS = {
  alarmRules: 'edgeport_alarm_rules',
  triggerRules: 'edgeport_trigger_rules',
  limits: 'edgeport_limits',
  deviceRouting: 'edgeport_device_routing',
  gatewayTunnels: 'edgeport_gateway_tunnels',
  vpnSessionEnded: 'edgeport_vpn_session_ended',
} as const;

/** Something every instance caches by key (an organization's rules, a device's routing) that a change makes stale. */
export type Invalidation = {
  /**
   * The thing of `key` changed (call after the change is committed): it is dropped here at once, so the caller reads
   * its own write, and on every instance, this one included, when the message arrives.
   */
  changed(key: string): Promise<void>;
  /** Ends the subscription. */
  stop(): void;
};

export function invalidation(
  bus: EventBus,
  channel: string,
  handlers: {
    /** Drops or reloads what is kept for one key. */
    one: (key: string) => unknown;
    /** Drops or reloads everything (messages may have been missed). */
    all: () => unknown;
  },
): Invalidation {
  const stop = bus.subscribe(channel, handlers.one, handlers.all);
  return {
    async changed(key) {
      await Promise.all([handlers.one(key), bus.publish(channel, key)]);
    },
    stop,
  };
}

/** The bus for a database: LISTEN/NOTIFY on PostgreSQL, the process itself on PGlite (one process by nature). */
export async function eventBusFor(database: Database, log: BusLog): Promise<EventBus> {
  if (database.kind === 'pglite') return new InProcessEventBus(log);
  if (!database.connectionString)
    throw new Error('event bus: the PostgreSQL database has no connection string');
  return PostgresEventBus.connect({ connectionString: database.connectionString, db: database.db, log });
}
