import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/index.ts';
import type { DeviceStatus } from '../db/schema.ts';
import type { DeviceEvents } from './events.ts';
import * as store from './store.ts';

/**
 * Connection status of devices: ONLINE while at least one connection of the device is open. Each change is stored
 * (device status and history) and announced; changes of one device are written in the order they happened.
 */
export class ConnectionTracker {
  private readonly open = new Map<string, number>();
  private readonly queue = new Map<string, Promise<void>>();
  private readonly db: Db;
  private readonly events: DeviceEvents;
  private readonly log: FastifyBaseLogger;

  constructor(db: Db, events: DeviceEvents, log: FastifyBaseLogger) {
    this.db = db;
    this.events = events;
    this.log = log;
  }

  opened(deviceId: string, detail = 'connected'): void {
    const count = (this.open.get(deviceId) ?? 0) + 1;
    this.open.set(deviceId, count);
    if (count === 1) this.record(deviceId, 'ONLINE', detail);
  }

  closed(deviceId: string, detail = 'disconnected'): void {
    const count = (this.open.get(deviceId) ?? 0) - 1;
    if (count > 0) {
      this.open.set(deviceId, count);
      return;
    }
    this.open.delete(deviceId);
    this.record(deviceId, 'OFFLINE', detail);
  }

  /** A status a device reported itself (external brokers, where the server does not see connections). */
  reported(deviceId: string, status: DeviceStatus): void {
    this.record(deviceId, status, 'reported by the device');
  }

  isOnline(deviceId: string): boolean {
    return this.open.has(deviceId);
  }

  /** Resolves when every change so far is stored. */
  async settled(): Promise<void> {
    await Promise.all(this.queue.values());
  }

  private record(deviceId: string, status: DeviceStatus, detail: string): void {
    const at = new Date();
    const previous = this.queue.get(deviceId) ?? Promise.resolve();
    const next = previous
      .then(async () => {
        await store.recordStatus(this.db, deviceId, status, detail, at);
        const routing = await store.deviceRouting(this.db, deviceId);
        if (routing) {
          this.events.emit('status', {
            organizationId: routing.organizationId,
            deviceId,
            status,
            at: at.getTime(),
          });
        }
      })
      .catch((error: unknown) =>
        this.log.error({ error, deviceId, status }, 'recording device status failed'),
      )
      .finally(() => {
        if (this.queue.get(deviceId) === next) this.queue.delete(deviceId);
      });
    this.queue.set(deviceId, next);
  }
}
