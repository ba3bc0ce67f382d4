import { and, eq, lt } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db } from '../db/index.ts';
import { oidcPayloads } from '../db/schema.ts';

/** Every realm's oidc-provider keeps its sessions, codes, grants and tokens in one table, keyed by model name. */
export function databaseAdapterFactory(db: Db) {
  return (type: string): Adapter => new DatabaseAdapter(db, type);
}

class DatabaseAdapter implements Adapter {
  readonly #db: Db;
  readonly #type: string;

  constructor(db: Db, type: string) {
    this.#db = db;
    this.#type = type;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const row = {
      id,
      type: this.#type,
      payload: payload as Record<string, unknown>,
      grantId: payload.grantId ?? null,
      userCode: payload.userCode ?? null,
      uid: payload.uid ?? null,
      expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
    };
    await this.#db
      .insert(oidcPayloads)
      .values(row)
      .onConflictDoUpdate({ target: [oidcPayloads.type, oidcPayloads.id], set: row });
  }

  find(id: string) {
    return this.#findBy(eq(oidcPayloads.id, id));
  }

  findByUid(uid: string) {
    return this.#findBy(eq(oidcPayloads.uid, uid));
  }

  findByUserCode(userCode: string) {
    return this.#findBy(eq(oidcPayloads.userCode, userCode));
  }

  async consume(id: string): Promise<void> {
    await this.#db
      .update(oidcPayloads)
      .set({ consumedAt: new Date() })
      .where(and(eq(oidcPayloads.type, this.#type), eq(oidcPayloads.id, id)));
  }

  async destroy(id: string): Promise<void> {
    await this.#db
      .delete(oidcPayloads)
      .where(and(eq(oidcPayloads.type, this.#type), eq(oidcPayloads.id, id)));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.#db
      .delete(oidcPayloads)
      .where(and(eq(oidcPayloads.type, this.#type), eq(oidcPayloads.grantId, grantId)));
  }

  async #findBy(condition: ReturnType<typeof eq>): Promise<AdapterPayload | undefined> {
    const [row] = await this.#db
      .select()
      .from(oidcPayloads)
      .where(and(eq(oidcPayloads.type, this.#type), condition))
      .limit(1);
    if (!row) return undefined;
    if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) return undefined;
    return {
      ...row.payload,
      ...(row.consumedAt ? { consumed: Math.floor(row.consumedAt.getTime() / 1000) } : {}),
    };
  }
}

/** Expired rows are useless; the server sweeps them periodically. */
export async function sweepExpiredPayloads(db: Db): Promise<void> {
  await db.delete(oidcPayloads).where(lt(oidcPayloads.expiresAt, new Date()));
}
