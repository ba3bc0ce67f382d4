import { DeviceEvents, type StatusEvent, type ValuesEvent } from '../ingest/events.ts';
import type { BusLog, BusMessage, EventBus } from './event-bus.ts';
import { MAX_PAYLOAD_BYTES } from './event-bus.ts';
import { type PartitionHandlers, type PartitionOwner, partitionOf } from './partitions.ts';

/** How long the events of one partition are gathered into one NOTIFY (a burst costs one message, not one each). */
const GATHER_MS = 5;

type Batch = { v: ValuesEvent[]; s: StatusEvent[] };

/** The channel of a partition's engine input: only its owner LISTENs to it. */
export const partitionChannel = (partition: number) => `edgeport_partition_${partition}`;

/** Restores and forgets per-device state when partitions move (the alarm and trigger engines). */
export type PartitionedState = {
  gained(partitions: Set<number>): Promise<void>;
  lost(partitions: Set<number>): void;
};

/**
 * The engines' input in a cluster. The instance that consumed a device's message stored it (as on one process) and
 * hands its value and status events to the engines of the device's partition owner: here when this instance owns the
 * partition, else as a PostgreSQL NOTIFY on the partition's channel, which only the owner LISTENs to.
 *
 * Why NOTIFY and not the MQTT broker: every cluster has the database and its bus already (tests and deployments
 * without MQTT_URL too), a channel per partition is LISTENed only by its owner, and a reconnect tells the owner that
 * messages may be lost so it restores its partitions from the database. Its limit: PostgreSQL serializes NOTIFYing
 * commits through one queue and each costs a commit, so events are gathered for GATHER_MS into one message per
 * partition (at most MAX_PAYLOAD_BYTES each), all sent in one statement, and only events of a partition owned
 * elsewhere are sent at all.
 *
 * Two consumers' events of one device interleave (Mosquitto's shared subscriptions hand out messages in batches), so
 * the owner evaluates each (device, path) in the order of the values' timestamps: an older value than the newest
 * evaluated is dropped, and so is an older connection change.
 */
export class PartitionRouter implements PartitionHandlers {
  /** What the engines listen to ('values', 'status'): only devices of owned partitions, in timestamp order. */
  readonly input = new DeviceEvents();
  readonly #owner: PartitionOwner;
  readonly #bus: EventBus;
  readonly #log: BusLog;
  readonly #local: DeviceEvents;
  readonly #engines: PartitionedState[] = [];
  /** Partitions gained whose state is being restored: their events wait here. */
  readonly #restoring = new Map<number, Batch>();
  readonly #listening = new Map<number, () => void>();
  readonly #outgoing = new Map<number, Batch>();
  readonly #sending = new Set<Promise<void>>();
  #timer: NodeJS.Timeout | undefined;
  /** The newest value timestamp evaluated per device and path, and the newest connection change per device. */
  readonly #newestValue = new Map<string, Map<string, number>>();
  readonly #newestStatus = new Map<string, number>();

  constructor(deps: { owner: PartitionOwner; bus: EventBus; events: DeviceEvents; log: BusLog }) {
    this.#owner = deps.owner;
    this.#bus = deps.bus;
    this.#local = deps.events;
    this.#log = deps.log;
    deps.owner.onChange(this);
  }

  readonly owns = (deviceId: string): boolean => this.#owner.owns(deviceId);

  /** The partitions this instance owns now. */
  owned(): number[] {
    return this.#owner.owned();
  }

  /** Starts routing and takes this instance's share of the partitions (the engines restore their state). */
  async start(engines: PartitionedState[]): Promise<void> {
    this.#engines.push(...engines);
    this.#local.on('values', this.#onLocalValues);
    this.#local.on('status', this.#onLocalStatus);
    await this.#owner.start();
  }

  /** Releases the partitions (the others take them at once) and stops routing. */
  async stop(): Promise<void> {
    this.#local.off('values', this.#onLocalValues);
    this.#local.off('status', this.#onLocalStatus);
    this.#flush();
    await this.settled();
    await this.#owner.stop();
  }

  /** Resolves when every event handed to another owner so far was published. */
  async settled(): Promise<void> {
    this.#flush();
    while (this.#sending.size > 0) await Promise.allSettled([...this.#sending]);
  }

  async gained(partitions: Set<number>): Promise<void> {
    for (const partition of partitions) {
      this.#restoring.set(partition, { v: [], s: [] });
      if (this.#listening.has(partition)) continue;
      const channel = partitionChannel(partition);
      this.#listening.set(
        partition,
        this.#bus.subscribe(
          channel,
          (payload) => this.#receive(partition, payload),
          () => this.#missed(partition),
        ),
      );
    }
    await this.#bus.ready();
    await Promise.all(this.#engines.map((engine) => engine.gained(partitions)));
    for (const partition of partitions) {
      const waiting = this.#restoring.get(partition);
      this.#restoring.delete(partition);
      if (waiting) this.#deliver(waiting);
    }
  }

  lost(partitions: Set<number>): void {
    for (const partition of partitions) {
      this.#listening.get(partition)?.();
      this.#listening.delete(partition);
      this.#restoring.delete(partition);
    }
    for (const engine of this.#engines) engine.lost(partitions);
    for (const deviceId of this.#newestValue.keys())
      if (partitions.has(partitionOf(deviceId))) this.#newestValue.delete(deviceId);
    for (const deviceId of this.#newestStatus.keys())
      if (partitions.has(partitionOf(deviceId))) this.#newestStatus.delete(deviceId);
  }

  readonly #onLocalValues = (event: ValuesEvent): void => this.#route(event.deviceId, 'v', event);
  readonly #onLocalStatus = (event: StatusEvent): void => this.#route(event.deviceId, 's', event);

  #route<K extends keyof Batch>(deviceId: string, kind: K, event: Batch[K][number]): void {
    const partition = partitionOf(deviceId);
    const waiting = this.#restoring.get(partition);
    if (waiting) {
      (waiting[kind] as Batch[K][number][]).push(event);
      return;
    }
    if (this.#owner.ownsPartition(partition)) {
      this.#deliver(
        kind === 'v' ? { v: [event as ValuesEvent], s: [] } : { v: [], s: [event as StatusEvent] },
      );
      return;
    }
    let batch = this.#outgoing.get(partition);
    if (!batch) {
      batch = { v: [], s: [] };
      this.#outgoing.set(partition, batch);
      this.#timer ??= setTimeout(() => this.#flush(), GATHER_MS);
    }
    (batch[kind] as Batch[K][number][]).push(event);
  }

  #receive(partition: number, payload: string): void {
    let batch: Batch;
    try {
      batch = JSON.parse(payload) as Batch;
    } catch (error) {
      this.#log.warn({ error, partition }, 'an engine input message is not JSON');
      return;
    }
    const waiting = this.#restoring.get(partition);
    if (waiting) {
      waiting.v.push(...batch.v);
      waiting.s.push(...batch.s);
    } else if (this.#owner.ownsPartition(partition)) {
      this.#deliver(batch);
    }
  }

  /** The bus reconnected: events of owned partitions may be lost, so their state is restored from the database. */
  #missed(partition: number): void {
    if (!this.#owner.ownsPartition(partition) || this.#restoring.has(partition)) return;
    const partitions = new Set([partition]);
    for (const engine of this.#engines) engine.lost(partitions);
    this.gained(partitions).catch((error: unknown) =>
      this.#log.error({ error, partition }, 'partition state not restored'),
    );
  }

  /** Hands events to the engines, dropping those older than what was evaluated for their device (and path). */
  #deliver(batch: Batch): void {
    for (const event of batch.s) {
      if ((this.#newestStatus.get(event.deviceId) ?? Number.NEGATIVE_INFINITY) > event.at) continue;
      this.#newestStatus.set(event.deviceId, event.at);
      this.input.emit('status', event);
    }
    for (const event of batch.v) {
      const fresh = this.#newerValues(event);
      if (fresh) this.input.emit('values', fresh);
    }
  }

  #newerValues(event: ValuesEvent): ValuesEvent | undefined {
    let newest = this.#newestValue.get(event.deviceId);
    if (!newest) {
      newest = new Map();
      this.#newestValue.set(event.deviceId, newest);
    }
    let values: ValuesEvent['values'] | undefined;
    let dropped = false;
    for (const path in event.values) {
      if ((newest.get(path) ?? Number.NEGATIVE_INFINITY) > event.ts) {
        dropped = true;
        continue;
      }
      newest.set(path, event.ts);
      values ??= {};
      values[path] = event.values[path] as ValuesEvent['values'][string];
    }
    if (!values) return undefined;
    return dropped ? { ...event, values } : event;
  }

  /** Sends every partition's gathered events in one statement: each NOTIFYing commit is serialized by PostgreSQL. */
  #flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#outgoing.size === 0) return;
    const messages: BusMessage[] = [];
    for (const [partition, batch] of this.#outgoing)
      for (const payload of payloadsOf(batch, this.#log))
        messages.push({ channel: partitionChannel(partition), payload });
    this.#outgoing.clear();
    const sent = this.#bus
      .publishAll(messages)
      .catch((error: unknown) =>
        this.#log.error({ error, messages: messages.length }, 'engine input not sent to its owners'),
      )
      .finally(() => this.#sending.delete(sent));
    this.#sending.add(sent);
  }
}

/** A batch as NOTIFY payloads of at most MAX_PAYLOAD_BYTES; a single over-long event is split by path. */
function payloadsOf(batch: Batch, log: BusLog): string[] {
  const items: { kind: keyof Batch; event: ValuesEvent | StatusEvent; json: string }[] = [];
  const add = (kind: keyof Batch, event: ValuesEvent | StatusEvent) =>
    items.push({ kind, event, json: JSON.stringify(event) });
  for (const event of batch.s) add('s', event);
  for (const event of batch.v) {
    if (Buffer.byteLength(JSON.stringify(event)) < MAX_PAYLOAD_BYTES / 2) add('v', event);
    else
      for (const [path, value] of Object.entries(event.values))
        add('v', { ...event, values: { [path]: value } });
  }
  const payloads: string[] = [];
  let current: Batch = { v: [], s: [] };
  let size = 20;
  const close = () => {
    if (current.v.length + current.s.length > 0) payloads.push(JSON.stringify(current));
    current = { v: [], s: [] };
    size = 20;
  };
  for (const item of items) {
    const bytes = Buffer.byteLength(item.json) + 1;
    if (bytes + 20 > MAX_PAYLOAD_BYTES) {
      log.warn({ deviceId: item.event.deviceId }, 'a value too long for the engine input was not evaluated');
      continue;
    }
    if (size + bytes > MAX_PAYLOAD_BYTES) close();
    if (item.kind === 'v') current.v.push(item.event as ValuesEvent);
    else current.s.push(item.event as StatusEvent);
    size += bytes;
  }
  close();
  return payloads;
}
