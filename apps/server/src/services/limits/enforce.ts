import type { Db } from '../../db/index.ts';
import { conflict } from '../../http/errors.ts';
import * as store from './store.ts';

export type CountedKey = 'devices' | 'users' | 'dashboards';

/** The organization's limit for `key`: a number, or null when it has none (no limits, or the key is unlimited). */
export async function limitOf(
  db: Db,
  organizationId: string,
  key: CountedKey | store.DailyKey,
): Promise<number | null> {
  const row = await store.findLimits(db, organizationId);
  return row?.limits[key] ?? null;
}

async function countOf(db: Db, organizationId: string, key: CountedKey): Promise<number> {
  if (key === 'devices') return store.countDevices(db, organizationId);
  if (key === 'users') return store.countMembers(db, organizationId);
  // There are no dashboards yet (no table): nothing counts against the limit.
  return 0;
}

/**
 * Refuses (409 "organization limit reached: devices (10)") to add one more `key` to an organization that has as many
 * as its limit allows already. Call it before creating (inside the creating transaction where there is one).
 */
export async function assertWithinLimit(db: Db, organizationId: string, key: CountedKey): Promise<void> {
  const limit = await limitOf(db, organizationId, key);
  if (limit === null) return;
  if ((await countOf(db, organizationId, key)) >= limit) {
    throw conflict(`organization limit reached: ${key} (${limit})`);
  }
}

/**
 * Uses up `amount` of the organization's daily allowance (UTC day) of `key`, atomically: answers true and counts it
 * when it fits under the limit (or there is none), false and counts nothing when it does not.
 */
export async function consumeDaily(
  db: Db,
  organizationId: string,
  key: store.DailyKey,
  amount: number,
): Promise<boolean> {
  if (amount <= 0) return true;
  const limit = await limitOf(db, organizationId, key);
  const total = await store.addDailyUsage(db, organizationId, store.utcDay(), key, amount, limit);
  return total !== undefined;
}
