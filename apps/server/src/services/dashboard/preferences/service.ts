import type { Db } from '../../../db/index.ts';
import { badRequest } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { anyDashboardWithAccess } from '../access.ts';
import * as store from './store.ts';

/** The most JSON one preference value may take. */
export const PREFERENCE_MAX_BYTES = 64 * 1024;

export type Preference = { dashboardId: string; key: string; value: unknown; updatedAt: string };

function toPreference(row: store.PreferenceRow): Preference {
  return {
    dashboardId: row.dashboardId,
    key: row.key,
    value: row.value,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * The caller's own preferences for a dashboard (flow, widget) they may open, all or the one key. A user's
 * preferences are their own view settings: nobody else reads or writes them.
 */
export async function listPreferences(
  db: Db,
  principal: Principal,
  query: { dashboardId: string; key?: string },
): Promise<Preference[]> {
  const { row } = await anyDashboardWithAccess(db, principal, query.dashboardId);
  return (await store.preferencesOf(db, principal.userId, row.id, query.key)).map(toPreference);
}

/** Saves (inserts or replaces) one of the caller's preferences for a dashboard they may open. */
export async function writePreference(
  db: Db,
  principal: Principal,
  input: { dashboardId: string; key: string; value?: unknown },
): Promise<Preference> {
  const { org, row } = await anyDashboardWithAccess(db, principal, input.dashboardId);
  if (input.value === undefined || input.value === null)
    throw badRequest('body/value must not be null (DELETE removes a preference)');
  const size = Buffer.byteLength(JSON.stringify(input.value), 'utf8');
  if (size > PREFERENCE_MAX_BYTES)
    throw badRequest(`body/value must be at most ${PREFERENCE_MAX_BYTES} bytes of JSON (it is ${size})`);
  const saved = await store.upsertPreference(db, {
    organizationId: org.id,
    userId: principal.userId,
    dashboardId: row.id,
    key: input.key,
    value: input.value,
  });
  return toPreference(saved);
}

/** Deletes one of the caller's preferences for a dashboard, or all of them when no key is given. */
export async function deletePreferences(
  db: Db,
  principal: Principal,
  query: { dashboardId: string; key?: string },
): Promise<void> {
  const { row } = await anyDashboardWithAccess(db, principal, query.dashboardId);
  await store.deletePreferences(db, principal.userId, row.id, query.key);
}
