import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { partitionLeases } from '../db/schema.ts';
import type { BusLog, EventBus } from './event-bus.ts';
import type { ClusterMembership } from './membership.ts';

/**
 * Devices are hashed into a fixed number of partitions; one instance at a time owns each partition (a lease in
 * `partition_leases`) and alone runs the alarm and trigger state of its devices, as ThingsBoard assigns Kafka
 * partitions. 64 spreads the work evenly over up to a few dozen instances and keeps a handover small.
 */
export const PARTITIONS = 64;
/** How often an owner renews its leases and rebalances. */
export const RENEW_MS = 2_000;
/** A lease lasts this long after its last renewal: an instance that died loses its partitions after it. */
export const LEASE_MS = 6_000;
/**
 * An owner stops acting on a partition this long before its lease could expire in the database (a stalled process,
 * a failed renewal): the next owner never starts before this one has stopped.
 */
const SAFETY_MS = 1_500;
/** Ownership changes (released partitions, an instance leaving): the others rebalance at once instead of at their next tick. */
export const REBALANCE_CHANNEL = 'edgeport_partitions';

/** The partition of a device: FNV-1a over its id, stable across instances, releases and restarts. */
export function partitionOf(deviceId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < deviceId.length; i++) {
    hash ^= deviceId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % PARTITIONS;
}

/** What partitions this instance gained or lost; handlers run before the change takes effect for the others. */
export type PartitionHandlers = {
  /** This instance now owns `partitions`: restore their state (awaited before their events are delivered). */
  gained(partitions: Set<number>): Promise<void>;
  /** This instance no longer owns `partitions`: forget their state and timers (before they are released). */
  lost(partitions: Set<number>): void;
};

/**
 * This instance's partitions in a cluster: every RENEW_MS it renews its leases, then claims unowned or expired ones up
 * to its fair share (ceil(PARTITIONS / live instances)) or releases the ones over it, so that a new instance gets work
 * and a dead one's partitions move within LEASE_MS. Each claim, renewal and release is one SQL statement: a row lock
 * decides between two claimers, so a partition never has two owners in the database at once.
 */
export class PartitionOwner {
  readonly #db: Db;
  readonly #membership: ClusterMembership;
  readonly #bus: EventBus;
  readonly #log: BusLog;
  readonly #owned = new Set<number>();
  readonly #handlers: PartitionHandlers[] = [];
  /** performance.now() until which the owned leases are certainly this instance's. */
  #validUntil = 0;
  #timer: NodeJS.Timeout | undefined;
  #unsubscribe: (() => void) | undefined;
  /** Ticks run one after another. */
  #ticking: Promise<void> = Promise.resolve();
  #stopped = false;

  constructor(deps: { db: Db; membership: ClusterMembership; bus: EventBus; log: BusLog }) {
    this.#db = deps.db;
    this.#membership = deps.membership;
    this.#bus = deps.bus;
    this.#log = deps.log;
  }

  get instanceId(): string {
    return this.#membership.self.instanceId;
  }

  /** Registers what runs when partitions are gained or lost (call before `start`). */
  onChange(handlers: PartitionHandlers): void {
    this.#handlers.push(handlers);
  }

  /** Claims a first share and renews every RENEW_MS. */
  async start(): Promise<void> {
    this.#unsubscribe = this.#bus.subscribe(REBALANCE_CHANNEL, (leaving) => this.tick(leaving || undefined));
    await this.#bus.ready();
    await this.tick();
    // A new instance: the others release their extras now rather than at their next tick.
    await this.#announce('');
    this.#timer = setInterval(() => void this.tick(), RENEW_MS);
    this.#timer.unref();
  }

  owns(deviceId: string): boolean {
    return this.ownsPartition(partitionOf(deviceId));
  }

  ownsPartition(partition: number): boolean {
    return this.#owned.has(partition) && performance.now() < this.#validUntil;
  }

  /** The partitions owned now (tests, logs). */
  owned(): number[] {
    return [...this.#owned].sort((a, b) => a - b);
  }

  /** Renews, claims and releases once; `leaving`: an instance that announced it stops (not counted). */
  tick(leaving?: string): Promise<void> {
    const next = this.#ticking.then(() => (this.#stopped ? undefined : this.#rebalance(leaving)));
    this.#ticking = next.catch((error: unknown) => {
      this.#log.warn({ error }, 'partition leases not renewed');
      // Renewal failed: the leases may expire before the next tick, so stop acting on them now.
      if (performance.now() >= this.#validUntil) this.#lose(new Set(this.#owned));
    });
    return this.#ticking;
  }

  /** Forgets and releases every partition so the others take them over at once; renews no more. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#unsubscribe?.();
    await this.#ticking;
    this.#stopped = true;
    const released = [...this.#owned];
    this.#lose(new Set(released));
    await this.#db
      .delete(partitionLeases)
      .where(eq(partitionLeases.instanceId, this.instanceId))
      .catch((error: unknown) => this.#log.warn({ error }, 'partition leases not released'));
    if (released.length > 0) await this.#announce(this.instanceId);
  }

  async #rebalance(leaving: string | undefined): Promise<void> {
    const startedAt = performance.now();
    const kept = await this.#renew();
    this.#validUntil = startedAt + LEASE_MS - SAFETY_MS;
    const lostMeanwhile = new Set([...this.#owned].filter((partition) => !kept.has(partition)));
    if (lostMeanwhile.size > 0) this.#lose(lostMeanwhile);
    // Leases this instance id still holds from a previous life (killed and restarted within a lease's lifetime) are
    // this process's now: without restoring and listening to them, their events would go to a channel nobody hears.
    const adopted = new Set([...kept].filter((partition) => !this.#owned.has(partition)));
    if (adopted.size > 0) await this.#gain(adopted);

    const live = (await this.#membership.liveInstances()).filter(
      (member) => member.instanceId !== leaving,
    ).length;
    const share = Math.ceil(PARTITIONS / Math.max(1, live));
    if (kept.size > share) {
      // Forget first, release after: the next owner never overlaps with this one.
      const extras = new Set([...kept].sort((a, b) => b - a).slice(0, kept.size - share));
      this.#lose(extras);
      await this.#db
        .delete(partitionLeases)
        .where(
          and(
            eq(partitionLeases.instanceId, this.instanceId),
            inArray(partitionLeases.partition, [...extras]),
          ),
        );
      await this.#announce('');
      return;
    }
    if (kept.size < share) {
      const claimed = await this.#claim(share - kept.size);
      if (claimed.size > 0) await this.#gain(claimed);
    }
  }

  /** Extends this instance's unexpired leases; answers the partitions it still holds. */
  async #renew(): Promise<Set<number>> {
    const rows = await this.#db
      .update(partitionLeases)
      .set({ expiresAt: sql`now() + ${`${LEASE_MS} milliseconds`}::interval` })
      .where(and(eq(partitionLeases.instanceId, this.instanceId), sql`${partitionLeases.expiresAt} > now()`))
      .returning({ partition: partitionLeases.partition });
    return new Set(rows.map((row) => row.partition));
  }

  /**
   * Takes up to `count` partitions nobody holds (no row, or an expired lease). The conflict clause re-checks expiry
   * on the locked row, so of two instances claiming one partition at once exactly one gets it.
   */
  async #claim(count: number): Promise<Set<number>> {
    const result = await this.#db.execute(sql`
      insert into partition_leases (partition, instance_id, expires_at)
      select p, ${this.instanceId}, now() + ${`${LEASE_MS} milliseconds`}::interval
      from generate_series(0, ${PARTITIONS - 1}) as p
      where not exists (select 1 from partition_leases l where l.partition = p and l.expires_at > now())
      order by random()
      limit ${count}
      on conflict (partition) do update set instance_id = excluded.instance_id, expires_at = excluded.expires_at
        where partition_leases.expires_at <= now()
      returning partition`);
    // PGlite and node-postgres both answer `{ rows }`.
    const { rows } = result as unknown as { rows: { partition: number }[] };
    return new Set(rows.map((row) => Number(row.partition)));
  }

  /** Owned from now on; the handlers hold the partitions' events back until they restored its state. */
  async #gain(partitions: Set<number>): Promise<void> {
    for (const partition of partitions) this.#owned.add(partition);
    await Promise.all(this.#handlers.map((handlers) => handlers.gained(partitions)));
    this.#log.info({ partitions: [...partitions] }, 'device partitions gained');
  }

  #lose(partitions: Set<number>): void {
    if (partitions.size === 0) return;
    for (const partition of partitions) this.#owned.delete(partition);
    for (const handlers of this.#handlers) {
      try {
        handlers.lost(partitions);
      } catch (error) {
        this.#log.error({ error }, 'forgetting a lost partition failed');
      }
    }
    this.#log.info({ partitions: [...partitions] }, 'device partitions lost');
  }

  async #announce(leaving: string): Promise<void> {
    await this.#bus
      .publish(REBALANCE_CHANNEL, leaving)
      .catch((error: unknown) => this.#log.warn({ error }, 'partition rebalance not announced'));
  }
}
