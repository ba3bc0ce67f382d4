import type { core } from '@edgeport/contract';
import type { Db } from '../../../db/index.ts';
import { badRequest, notFound } from '../../../http/errors.ts';
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

function toApp(row: store.AppRow): core.App {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    publisher: row.publisher,
    entryUrl: row.entryUrl,
    origin: originOf(row.entryUrl) ?? '',
  };
}

/**
 * The store catalogue is shared by every organization (the `apps` table names none): any signed-in user may read
 * it. What an organization installed is the organization apps area (/organizations/{org}/apps).
 */
export async function listApps(db: Db, query: core.AppsQuery): Promise<core.AppsPage> {
  const { rows, total } = await store.listApps(db, query);
  return { items: rows.map(toApp), total, page: query.page ?? 0, pageSize: query.pageSize ?? 50 };
}

export async function getApp(db: Db, id: string): Promise<core.App> {
  const row = await store.findApp(db, id);
  if (!row) throw notFound(`app '${id}' not found`);
  return toApp(row);
}

/** The origins the portal may frame: those of the registered apps' entry addresses. */
export async function appOrigins(db: Db): Promise<string[]> {
  const origins = (await store.entryUrls(db)).map(originOf).filter((origin) => origin !== undefined);
  return [...new Set(origins)].sort();
}

/** Registers (or updates) a catalogue app; the entry address must be an absolute http(s) address. */
export async function registerApp(db: Db, app: store.NewApp): Promise<core.App> {
  if (!/^[A-Za-z0-9_.-]{1,80}$/.test(app.id)) throw badRequest('id must match ^[A-Za-z0-9_.-]+$');
  if (!originOf(app.entryUrl)) throw badRequest('entryUrl must be an absolute http(s) address');
  return toApp(await store.upsertApp(db, app));
}
