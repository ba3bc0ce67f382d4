import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { gatewayLeases } from '../db/schema.ts';

/** Who holds a gateway's tunnel: an instance and its connection (one WebSocket of the agent). */
export type Lease = { instanceId: string; connectionId: string };

const expiresIn = (ttlMs: number) => sql`now() + ${`${ttlMs} milliseconds`}::interval`;

/**
 * Which instance holds each gateway's tunnel: a row of `gateway_leases` per gateway, taken when an agent's tunnel is
 * registered (a newer connection replaces an older one wherever it is), renewed while it lives and deleted when it
 * closes. A lease not renewed within `ttlMs` (its instance died) counts as gone: the gateway is offline until the
 * agent reconnects somewhere. The database's clock decides expiry, so every instance agrees.
 */
export class GatewayLeases {
  readonly instanceId: string;
  readonly #db: Db;
  readonly #ttlMs: number;

  constructor(db: Db, instanceId: string, ttlMs: number) {
    this.#db = db;
    this.instanceId = instanceId;
    this.#ttlMs = ttlMs;
  }

  /** This instance's connection now holds the gateway's tunnel (replacing any other holder's). */
  async take(gatewayId: string, connectionId: string): Promise<void> {
    const expiresAt = expiresIn(this.#ttlMs);
    await this.#db
      .insert(gatewayLeases)
      .values({ gatewayId, instanceId: this.instanceId, connectionId, expiresAt })
      .onConflictDoUpdate({
        target: gatewayLeases.gatewayId,
        set: { instanceId: this.instanceId, connectionId, expiresAt },
      });
  }

  /**
   * Extends the leases of these connections of this instance; answers the connections that still hold theirs (a
   * missing one was replaced by a newer connection, or its gateway deleted).
   */
  async renew(connectionIds: string[]): Promise<Set<string>> {
    if (connectionIds.length === 0) return new Set();
    const rows = await this.#db
      .update(gatewayLeases)
      .set({ expiresAt: expiresIn(this.#ttlMs) })
      .where(
        and(
          eq(gatewayLeases.instanceId, this.instanceId),
          inArray(gatewayLeases.connectionId, connectionIds),
        ),
      )
      .returning({ connectionId: gatewayLeases.connectionId });
    return new Set(rows.map((row) => row.connectionId));
  }

  /** The connection closed: its lease goes. Answers whether it still held it (else a newer connection does). */
  async release(gatewayId: string, connectionId: string): Promise<boolean> {
    const rows = await this.#db
      .delete(gatewayLeases)
      .where(and(eq(gatewayLeases.gatewayId, gatewayId), eq(gatewayLeases.connectionId, connectionId)))
      .returning({ gatewayId: gatewayLeases.gatewayId });
    return rows.length > 0;
  }

  /** The gateway's live lease, if any. */
  async holder(gatewayId: string): Promise<Lease | undefined> {
    const [row] = await this.#db
      .select({ instanceId: gatewayLeases.instanceId, connectionId: gatewayLeases.connectionId })
      .from(gatewayLeases)
      .where(and(eq(gatewayLeases.gatewayId, gatewayId), gt(gatewayLeases.expiresAt, sql`now()`)));
    return row;
  }
}
