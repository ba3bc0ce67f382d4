import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from '../db/index.ts';
import {
  type BusLog,
  type BusMessage,
  checkChannel,
  checkPayload,
  type EventBus,
  Subscribers,
  type Subscription,
} from './event-bus.ts';

/** The first wait before connecting again after the LISTEN connection dropped; it doubles up to RETRY_MAX_MS. */
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 5_000;
/** The `application_name` of the LISTEN connections. */
export const LISTENER_NAME = 'edgeport event bus';

/**
 * The cluster's bus: PostgreSQL's LISTEN/NOTIFY on the database every instance already uses. One dedicated connection
 * per instance LISTENs to the channels subscribed here; messages are sent with `pg_notify` over the pool.
 *
 * What PostgreSQL guarantees and what it does not: a NOTIFY sent inside a transaction is delivered when (and only if)
 * it commits, to every session listening at that moment, in commit order. A message sent while this instance's LISTEN
 * connection is down is lost for it: after reconnecting, every subscriber is told (`missed`) and reloads what it
 * keeps. The callers in this server publish after their change was committed (autocommit statements and finished
 * transactions), so the message is sent at once.
 */
export class PostgresEventBus implements EventBus {
  readonly #connectionString: string;
  readonly #db: Db;
  readonly #log: BusLog;
  readonly #subscribers: Subscribers;
  /** The LISTEN connection while it is up. */
  #client: pg.Client | undefined;
  /** LISTEN and UNLISTEN commands run one after another on the connection. */
  #commands: Promise<void> = Promise.resolve();
  #retry: NodeJS.Timeout | undefined;
  #closed = false;

  private constructor(options: { connectionString: string; db: Db; log: BusLog }) {
    this.#connectionString = options.connectionString;
    this.#db = options.db;
    this.#log = options.log;
    this.#subscribers = new Subscribers(options.log);
  }

  /** Opens the LISTEN connection; rejects when PostgreSQL cannot be reached. */
  static async connect(options: {
    connectionString: string;
    db: Db;
    log: BusLog;
  }): Promise<PostgresEventBus> {
    const bus = new PostgresEventBus(options);
    await bus.#open();
    return bus;
  }

  async publish(channel: string, payload: string): Promise<void> {
    checkChannel(channel);
    checkPayload(payload);
    await this.#db.execute(sql`select pg_notify(${channel}, ${payload})`);
  }

  /** One statement, so one transaction: PostgreSQL serializes NOTIFYing commits, and each costs a commit. */
  async publishAll(messages: readonly BusMessage[]): Promise<void> {
    if (messages.length === 0) return;
    for (const { channel, payload } of messages) {
      checkChannel(channel);
      checkPayload(payload);
    }
    const channels = messages.map((message) => message.channel);
    const payloads = messages.map((message) => message.payload);
    await this.#db.execute(
      sql`select pg_notify(m.channel, m.payload) from unnest(${sql.param(channels)}::text[], ${sql.param(payloads)}::text[]) as m(channel, payload)`,
    );
  }

  subscribe(channel: string, handler: (payload: string) => unknown, missed?: () => unknown): () => void {
    checkChannel(channel);
    const subscription: Subscription = { handler, missed };
    if (this.#subscribers.add(channel, subscription)) void this.#command(`listen ${channel}`);
    return () => {
      if (this.#subscribers.remove(channel, subscription) && !this.#closed)
        void this.#command(`unlisten ${channel}`);
    };
  }

  ready(): Promise<void> {
    return this.#commands;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    this.#subscribers.clear();
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }

  /** Connects and LISTENs to every subscribed channel (again, after a drop). */
  async #open(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.#connectionString,
      keepAlive: true,
      // How an operator finds the bus's connections in pg_stat_activity.
      application_name: LISTENER_NAME,
    });
    client.on('notification', (message) => this.#subscribers.deliver(message.channel, message.payload ?? ''));
    client.on('error', (error) => this.#lost(client, error));
    client.on('end', () => this.#lost(client, new Error('the connection ended')));
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.#closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.#client = client;
    // Channels subscribed while this ran are LISTENed by their own command too; LISTEN twice is harmless.
    for (const channel of this.#subscribers.channels()) void this.#command(`listen ${channel}`);
    await this.#commands;
  }

  /** Runs a LISTEN or UNLISTEN (channel names are checked identifiers) after the earlier ones. */
  #command(text: string): Promise<void> {
    const next = this.#commands.then(async () => {
      await this.#client?.query(text);
    });
    // A failure here means the connection broke: reconnecting LISTENs to every channel again.
    this.#commands = next.catch((error: unknown) =>
      this.#log.warn({ error, command: text }, 'event bus: failed'),
    );
    return this.#commands;
  }

  #lost(client: pg.Client, error: Error): void {
    if (this.#closed || this.#client !== client) return;
    this.#client = undefined;
    client.end().catch(() => undefined);
    this.#log.warn(
      { error: error.message },
      'event bus: the LISTEN connection to PostgreSQL was lost; invalidations from other instances wait until it is back',
    );
    this.#reconnect(0);
  }

  #reconnect(attempt: number): void {
    const delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** attempt);
    this.#retry = setTimeout(() => {
      this.#open().then(
        () => {
          if (this.#closed) return;
          this.#log.info({ attempt: attempt + 1 }, 'event bus: the LISTEN connection to PostgreSQL is back');
          // What was published meanwhile never reached this instance.
          this.#subscribers.missed();
        },
        (error: unknown) => {
          if (this.#closed) return;
          this.#log.warn({ error, attempt: attempt + 1 }, 'event bus: reconnecting to PostgreSQL failed');
          this.#reconnect(attempt + 1);
        },
      );
    }, delay);
    this.#retry.unref();
  }
}
