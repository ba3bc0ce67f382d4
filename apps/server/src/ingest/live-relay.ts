import type { FastifyBaseLogger } from 'fastify';
import type { MqttClient } from 'mqtt';
import { type AlarmChange, DeviceEvents, type StatusEvent, type ValuesEvent } from './events.ts';

/** How long events of one organization are gathered into one broker message (a burst costs one publish, not one each). */
const GATHER_MS = 5;

type Batch = { origin: string; values: ValuesEvent[]; status: StatusEvent[]; alarms: AlarmChange[] };

/**
 * Live events between the instances of a cluster, over the broker they already share: the values, status changes and
 * alarm changes this instance produced are published (QoS 0, a few milliseconds' worth per message) to
 * `{root}/{organizationId}/live`, and the organizations this instance's browsers watch are subscribed to. What other
 * instances sent comes out of `remote` — for the live feed only: alarm and trigger rules see each value once, on the
 * instance that consumed it, through the local device events.
 */
export class LiveRelay {
  /** Events other instances produced. */
  readonly remote = new DeviceEvents();
  private readonly pending = new Map<string, Batch>();
  private readonly watched = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private readonly client: MqttClient;
  private readonly root: string;
  private readonly instanceId: string;
  private readonly log: FastifyBaseLogger;

  constructor(
    client: MqttClient,
    local: DeviceEvents,
    options: { root: string; instanceId: string; log: FastifyBaseLogger },
  ) {
    this.client = client;
    this.root = options.root;
    this.instanceId = options.instanceId;
    this.log = options.log;
    local.on('values', (event) => this.batchOf(event.organizationId).values.push(event));
    local.on('status', (event) => this.batchOf(event.organizationId).status.push(event));
    local.on('alarm', (change) => this.batchOf(change.organizationId).alarms.push(change));
    client.on('message', (topic, payload) => {
      if (topic.startsWith(`${this.root}/`)) this.receive(payload);
    });
  }

  /** A browser of the organization is watching on this instance: receive its events from the others. */
  watch(organizationId: string): void {
    const count = this.watched.get(organizationId) ?? 0;
    this.watched.set(organizationId, count + 1);
    if (count === 0) this.client.subscribe(this.topicOf(organizationId), { qos: 0 });
  }

  unwatch(organizationId: string): void {
    const count = (this.watched.get(organizationId) ?? 0) - 1;
    if (count > 0) {
      this.watched.set(organizationId, count);
      return;
    }
    this.watched.delete(organizationId);
    this.client.unsubscribe(this.topicOf(organizationId));
  }

  /** Sends what is gathered and stops. */
  close(): void {
    clearTimeout(this.timer);
    this.flush();
  }

  private topicOf(organizationId: string): string {
    return `${this.root}/${organizationId}/live`;
  }

  private batchOf(organizationId: string): Batch {
    let batch = this.pending.get(organizationId);
    if (!batch) {
      batch = { origin: this.instanceId, values: [], status: [], alarms: [] };
      this.pending.set(organizationId, batch);
      this.timer ??= setTimeout(() => this.flush(), GATHER_MS);
    }
    return batch;
  }

  private flush(): void {
    this.timer = undefined;
    for (const [organizationId, batch] of this.pending)
      this.client.publish(this.topicOf(organizationId), JSON.stringify(batch), { qos: 0 });
    this.pending.clear();
  }

  private receive(payload: Buffer): void {
    let batch: Batch;
    try {
      batch = JSON.parse(payload.toString()) as Batch;
    } catch (error) {
      this.log.warn({ error }, 'a live event batch from another instance is not JSON');
      return;
    }
    if (batch?.origin === this.instanceId) return;
    for (const event of listOf(batch?.values)) this.remote.emit('values', event);
    for (const event of listOf(batch?.status)) this.remote.emit('status', event);
    for (const change of listOf(batch?.alarms)) this.remote.emit('alarm', change);
  }
}

function listOf<T>(value: T[] | undefined): T[] {
  return Array.isArray(value) ? value : [];
}
