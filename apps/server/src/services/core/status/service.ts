import type { core } from '@edgeport/contract';
import type { Db } from '../../../db/index.ts';
import { isUuid } from '../../../db/uuid.ts';
import { notFound } from '../../../http/errors.ts';
import { type Principal, realmOfHost } from '../../../http/principal.ts';
import { authorizeAsRealmOperator } from '../organizations/service.ts';
import * as store from './store.ts';

/** Issues updated within this window are in the feed the portal polls. */
const FEED_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;
const FEED_LIMIT = 50;

function toIssue({ realm: _realm, ...row }: store.StatusIssueRow): core.StatusIssue {
  return { ...row, date: row.date.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

/** The feed of the realm the host names, plus issues posted for every realm. */
export async function statusFeed(db: Db, host: string | undefined): Promise<core.StatusIssue[]> {
  const since = new Date(Date.now() - FEED_WINDOW_MS);
  return (await store.recentIssues(db, realmOfHost(host), since, FEED_LIMIT)).map(toIssue);
}

/**
 * The status feed is the realm's, seen by every tenant: only its operator writes it — a permission token of the
 * organization that owns the realm, granting UPDATE on portal there. Another tenant's administrator gets 403.
 */
async function assertStatusEditor(db: Db, principal: Principal) {
  await authorizeAsRealmOperator(db, principal, 'UPDATE', 'portal');
}

function values(input: core.StatusIssueCreate) {
  return {
    type: input.type,
    status: input.status,
    title: input.title,
    date: input.date ? new Date(input.date) : new Date(),
  };
}

export async function postIssue(db: Db, principal: Principal, input: core.StatusIssueCreate) {
  await assertStatusEditor(db, principal);
  return toIssue(await store.insertIssue(db, principal.realm, values(input)));
}

export async function changeIssue(db: Db, principal: Principal, id: string, input: core.StatusIssueCreate) {
  await assertStatusEditor(db, principal);
  const row = isUuid(id) ? await store.updateIssue(db, principal.realm, id, values(input)) : undefined;
  if (!row) throw notFound(`status issue '${id}' not found`);
  return toIssue(row);
}

export async function removeIssue(db: Db, principal: Principal, id: string): Promise<void> {
  await assertStatusEditor(db, principal);
  if (!isUuid(id) || !(await store.deleteIssue(db, principal.realm, id)))
    throw notFound(`status issue '${id}' not found`);
}
