import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { lt, sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { rateLimitCounters } from '../db/schema.ts';

type Counted = { current: number; ttl: number };

/**
 * @fastify/rate-limit's store on PostgreSQL: one upsert counts a request and restarts an ended window, so every
 * instance of a cluster counts against the same limit. Keys are namespaced by route (what `child` is given).
 */
export function databaseRateLimitStore(db: Db): FastifyRateLimitStoreCtor {
  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    readonly #route: string;

    constructor(_options?: unknown, route = '*') {
      this.#route = route;
    }

    incr(key: string, callback: (error: Error | null, result?: Counted) => void, timeWindow: number) {
      countHit(db, `${this.#route} ${key}`, timeWindow).then(
        (result) => callback(null, result),
        (error: Error) => callback(error),
      );
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      return new DatabaseRateLimitStore(undefined, routeName(routeOptions));
    }
  }
  return DatabaseRateLimitStore;
}

/** The plugin hands `child` its merged options with the route under `routeInfo` (its typings omit it). */
function routeName(options: object): string {
  const route: unknown = Reflect.get(options, 'routeInfo');
  if (!route || typeof route !== 'object') return '*';
  return `${String(Reflect.get(route, 'method'))} ${String(Reflect.get(route, 'url'))}`;
}

async function countHit(db: Db, key: string, timeWindowMs: number): Promise<Counted> {
  const windowEnd = sql`now() + ${`${timeWindowMs} milliseconds`}::interval`;
  const ended = sql`${rateLimitCounters.windowEndsAt} <= now()`;
  const [row] = await db
    .insert(rateLimitCounters)
    .values({ key, hits: 1, windowEndsAt: windowEnd })
    .onConflictDoUpdate({
      target: rateLimitCounters.key,
      set: {
        hits: sql`case when ${ended} then 1 else ${rateLimitCounters.hits} + 1 end`,
        windowEndsAt: sql`case when ${ended} then ${windowEnd} else ${rateLimitCounters.windowEndsAt} end`,
      },
    })
    .returning({
      hits: rateLimitCounters.hits,
      ttl: sql<number>`greatest(0, ceil(extract(epoch from ${rateLimitCounters.windowEndsAt} - now()) * 1000))::int`,
    });
  return { current: row?.hits ?? 1, ttl: row?.ttl ?? timeWindowMs };
}

/** Removes counters whose window ended (run with the other periodic sweeps). */
export async function sweepRateLimitCounters(db: Db): Promise<void> {
  await db.delete(rateLimitCounters).where(lt(rateLimitCounters.windowEndsAt, sql`now()`));
}
