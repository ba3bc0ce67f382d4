import type { core } from '@edgeport/contract';
import type { Db } from '../../../db/index.ts';
import { badRequest, notFound } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { recordAudit } from '../../audit/service.ts';
import * as store from './store.ts';

/** `scheme://host[:port]` of an http(s) address, or undefined. */
export function originOf(address: string): string | undefined {
  try {
    const url = new URL(address);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

type Likes = { counts: Map<string, number>; liked: Set<string> };

export function toApp(row: store.AppRow, likes: Likes): core.App {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    publisher: row.publisher,
    version: row.version,
    plans: row.plans.map((plan) => ({ ...plan })),
    likeCount: likes.counts.get(row.id) ?? 0,
    liked: likes.liked.has(row.id),
  };
}

const NO_LIKES: Likes = { counts: new Map(), liked: new Set() };

/**
 * The store catalogue is shared by every organization (the `apps` table names none): any signed-in user may read
 * it. It offers apps but does not run them: the entry address comes only with the launch of an app the organization
 * installed (/organizations/{org}/apps/{id}/launch).
 */
export async function listApps(db: Db, principal: Principal, query: core.AppsQuery): Promise<core.AppsPage> {
  const { rows, total } = await store.listApps(db, query);
  const likes = await store.likesOf(
    db,
    rows.map((row) => row.id),
    principal.userId,
  );
  return {
    items: rows.map((row) => toApp(row, likes)),
    total,
    page: query.page ?? 0,
    pageSize: query.pageSize ?? 50,
  };
}

/** The catalogue row of an app, or 404. */
export async function appRow(db: Db, id: string): Promise<store.AppRow> {
  const row = await store.findApp(db, id);
  if (!row) throw notFound(`app '${id}' not found`);
  return row;
}

export async function getApp(db: Db, principal: Principal, id: string): Promise<core.App> {
  const row = await appRow(db, id);
  return toApp(row, await store.likesOf(db, [row.id], principal.userId));
}

async function likeOf(db: Db, principal: Principal, id: string): Promise<core.AppLike> {
  const likes = await store.likesOf(db, [id], principal.userId);
  return { liked: likes.liked.has(id), likeCount: likes.counts.get(id) ?? 0 };
}

/** Whether the caller likes the app, and how many users do (any signed-in user). */
export async function getLike(db: Db, principal: Principal, id: string): Promise<core.AppLike> {
  await appRow(db, id);
  return likeOf(db, principal, id);
}

/** Likes (true) or unlikes (false) the app for the caller; idempotent. Audited when it changed something. */
export async function setLike(
  db: Db,
  principal: Principal,
  id: string,
  like: boolean,
): Promise<core.AppLike> {
  const app = await appRow(db, id);
  const changed = like
    ? await store.addLike(db, id, principal.userId)
    : await store.removeLike(db, id, principal.userId);
  if (changed)
    await recordAudit(db, principal, {
      organizationId: null,
      action: like ? 'apps.like' : 'apps.unlike',
      resourceType: 'apps',
      resourceId: app.id,
      resourceName: app.name,
    });
  return likeOf(db, principal, id);
}

/** The origins the portal may frame: those of the registered apps' entry addresses. */
export async function appOrigins(db: Db): Promise<string[]> {
  const origins = (await store.entryUrls(db)).map(originOf).filter((origin) => origin !== undefined);
  return [...new Set(origins)].sort();
}

function checkPlans(plans: readonly core.AppPlan[]): void {
  const seen = new Set<string>();
  for (const [index, plan] of plans.entries()) {
    if (!/^[A-Za-z0-9_.-]{1,40}$/.test(plan.id))
      throw badRequest(`plans/${index}/id must match ^[A-Za-z0-9_.-]+$`);
    if (seen.has(plan.id)) throw badRequest(`plans/${index}/id '${plan.id}' is used twice`);
    seen.add(plan.id);
    if (!Number.isSafeInteger(plan.priceMinor) || plan.priceMinor < 0)
      throw badRequest(`plans/${index}/priceMinor must be an integer of at least 0 (minor units)`);
    if (!/^[A-Z]{3}$/.test(plan.currency))
      throw badRequest(`plans/${index}/currency must be an ISO 4217 code`);
    if (plan.period !== 'MONTH' && plan.period !== 'YEAR')
      throw badRequest(`plans/${index}/period must be one of MONTH, YEAR`);
  }
}

/**
 * Registers (or updates) a catalogue app; the entry address must be an absolute http(s) address, plan ids unique,
 * prices integer minor units.
 */
export async function registerApp(db: Db, app: store.NewApp): Promise<core.App> {
  if (!/^[A-Za-z0-9_.-]{1,80}$/.test(app.id)) throw badRequest('id must match ^[A-Za-z0-9_.-]+$');
  if (!originOf(app.entryUrl)) throw badRequest('entryUrl must be an absolute http(s) address');
  checkPlans(app.plans ?? []);
  if (app.version !== undefined && !app.version.trim()) throw badRequest('version must not be blank');
  return toApp(await store.upsertApp(db, app), NO_LIKES);
}
