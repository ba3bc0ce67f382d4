/**
 * Messages between the server instances of a cluster: invalidations of what an instance keeps in memory (an
 * organization's alarm and trigger rules, its limits, a device's preset routing). A message carries a short payload
 * (an id); receivers read the current state from the database themselves.
 *
 * Every subscriber of a channel receives every message published on it, on every instance, the publishing instance
 * included. Publish only after the change is committed: a receiver reads the database as soon as the message arrives.
 */
export interface EventBus {
  /** Sends `payload` (at most MAX_PAYLOAD_BYTES) to the subscribers of `channel` on every instance. */
  publish(channel: string, payload: string): Promise<void>;
  /** Sends several messages at once (one round trip to the engine), each as `publish` would, in their order. */
  publishAll(messages: readonly BusMessage[]): Promise<void>;
  /**
   * Calls `handler` with each payload published on `channel`. `missed` is called when messages may have been lost
   * (the bus reconnected to its engine): the subscriber must then treat everything it keeps as stale. Answers the
   * function that ends the subscription.
   */
  subscribe(channel: string, handler: (payload: string) => unknown, missed?: () => unknown): () => void;
  /** Resolves once the subscriptions made so far receive what is published from now on. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export type BusMessage = { channel: string; payload: string };

/** PostgreSQL's limit for a NOTIFY payload is 8000 bytes; ids are far smaller. */
export const MAX_PAYLOAD_BYTES = 7_999;

const CHANNEL_NAME = /^[a-z][a-z0-9_]{0,62}$/;

/** A channel name that is also a plain PostgreSQL identifier (lower case, at most 63 bytes). */
export function checkChannel(channel: string): void {
  if (!CHANNEL_NAME.test(channel)) throw new Error(`event bus: '${channel}' is not a valid channel name`);
}

export function checkPayload(payload: string): void {
  if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES)
    throw new Error(`event bus: a payload of ${Buffer.byteLength(payload)} bytes is too long`);
}

export type BusLog = {
  warn(detail: object, message: string): void;
  error(detail: object, message: string): void;
  info(detail: object, message: string): void;
};

export type Subscription = { handler: (payload: string) => unknown; missed?: () => unknown };

/** Keeps the subscriptions by channel and calls them; a failing handler is logged and never reaches the sender. */
export class Subscribers {
  readonly #byChannel = new Map<string, Set<Subscription>>();
  readonly #log: BusLog | undefined;

  constructor(log?: BusLog) {
    this.#log = log;
  }

  /** Adds a subscription; answers whether it is the channel's first. */
  add(channel: string, subscription: Subscription): boolean {
    const set = this.#byChannel.get(channel);
    if (set) {
      set.add(subscription);
      return false;
    }
    this.#byChannel.set(channel, new Set([subscription]));
    return true;
  }

  /** Removes a subscription; answers whether the channel has none left. */
  remove(channel: string, subscription: Subscription): boolean {
    const set = this.#byChannel.get(channel);
    if (!set?.delete(subscription)) return false;
    if (set.size > 0) return false;
    this.#byChannel.delete(channel);
    return true;
  }

  channels(): string[] {
    return [...this.#byChannel.keys()];
  }

  deliver(channel: string, payload: string): void {
    for (const subscription of this.#byChannel.get(channel) ?? []) {
      this.#call(() => subscription.handler(payload), channel);
    }
  }

  /** Tells every subscription that messages may have been lost. */
  missed(): void {
    for (const [channel, set] of this.#byChannel) {
      for (const subscription of set) {
        const missed = subscription.missed;
        if (missed) this.#call(missed, channel);
      }
    }
  }

  clear(): void {
    this.#byChannel.clear();
  }

  #call(run: () => unknown, channel: string): void {
    const fail = (error: unknown) => this.#log?.error({ error, channel }, 'event bus: a subscriber failed');
    try {
      const result = run();
      if (result instanceof Promise) result.catch(fail);
    } catch (error) {
      fail(error);
    }
  }
}

/**
 * The embedded server's bus: one process, so a message goes straight to its subscribers (on a later turn of the event
 * loop, never inside the publisher's call, as it would arrive from PostgreSQL).
 */
export class InProcessEventBus implements EventBus {
  readonly #subscribers: Subscribers;

  constructor(log?: BusLog) {
    this.#subscribers = new Subscribers(log);
  }

  async publish(channel: string, payload: string): Promise<void> {
    checkChannel(channel);
    checkPayload(payload);
    setImmediate(() => this.#subscribers.deliver(channel, payload));
  }

  async publishAll(messages: readonly BusMessage[]): Promise<void> {
    for (const { channel, payload } of messages) {
      checkChannel(channel);
      checkPayload(payload);
    }
    for (const { channel, payload } of messages) await this.publish(channel, payload);
  }

  subscribe(channel: string, handler: (payload: string) => unknown, missed?: () => unknown): () => void {
    checkChannel(channel);
    const subscription: Subscription = { handler, missed };
    this.#subscribers.add(channel, subscription);
    return () => {
      this.#subscribers.remove(channel, subscription);
    };
  }

  async ready(): Promise<void> {}

  async close(): Promise<void> {
    this.#subscribers.clear();
  }
}
