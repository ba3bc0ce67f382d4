import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { clusterInstances } from '../db/schema.ts';

/** How often a live instance renews its row. */
export const HEARTBEAT_MS = 2_000;
/** An instance whose row was not renewed for this long counts as gone (three missed heartbeats). */
export const LIVE_WITHIN_MS = 3 * HEARTBEAT_MS;

export type Member = { instanceId: string; internalUrl: string };

type Log = { warn(object: object, message: string): void };

const liveSince = () => sql`now() - ${`${LIVE_WITHIN_MS} milliseconds`}::interval`;

/**
 * This instance's membership of the cluster: a row in `cluster_instances` renewed every HEARTBEAT_MS while it runs,
 * removed when it stops. The live rows say which instances share the work (device partitions) and where each is
 * reached (forwarded remote-access sessions). The timer is this instance's own heartbeat, not shared state.
 */
export class ClusterMembership {
  readonly self: Member;
  readonly #db: Db;
  readonly #log: Log;
  #timer: NodeJS.Timeout | undefined;

  private constructor(db: Db, self: Member, log: Log) {
    this.#db = db;
    this.self = self;
    this.#log = log;
  }

  static async join(db: Db, self: Member, log: Log): Promise<ClusterMembership> {
    const membership = new ClusterMembership(db, self, log);
    await membership.heartbeat();
    membership.#timer = setInterval(() => {
      membership.heartbeat().catch((error: unknown) => log.warn({ error }, 'cluster heartbeat failed'));
    }, HEARTBEAT_MS);
    membership.#timer.unref();
    return membership;
  }

  /** Renews this instance's row (made anew if another instance's sweep or a restart removed it). */
  async heartbeat(): Promise<void> {
    await this.#db
      .insert(clusterInstances)
      .values({ ...this.self, heartbeatAt: sql`now()` })
      .onConflictDoUpdate({
        target: clusterInstances.instanceId,
        set: { internalUrl: this.self.internalUrl, heartbeatAt: sql`now()` },
      });
  }

  /** The instances whose heartbeat is recent, this one included, in a stable order. */
  async liveInstances(): Promise<Member[]> {
    return this.#db
      .select({ instanceId: clusterInstances.instanceId, internalUrl: clusterInstances.internalUrl })
      .from(clusterInstances)
      .where(gt(clusterInstances.heartbeatAt, liveSince()))
      .orderBy(clusterInstances.instanceId);
  }

  /** Where a live instance is reached; undefined when it is gone. */
  async internalUrlOf(instanceId: string): Promise<string | undefined> {
    const [row] = await this.#db
      .select({ internalUrl: clusterInstances.internalUrl })
      .from(clusterInstances)
      .where(and(eq(clusterInstances.instanceId, instanceId), gt(clusterInstances.heartbeatAt, liveSince())));
    return row?.internalUrl;
  }

  /** Stops the heartbeat and removes the row, so the others take over this instance's work at once. */
  async leave(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#db
      .delete(clusterInstances)
      .where(eq(clusterInstances.instanceId, this.self.instanceId))
      .catch((error: unknown) => this.#log.warn({ error }, 'leaving the cluster failed'));
  }
}
