import { Readable } from 'node:stream';
import type { audit } from '@edgeport/contract';
import type { Db } from '../../db/index.ts';
import { pageWindow } from '../../db/paging.ts';
import { badRequest } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import { authorizeInOrganization } from '../core/organizations/service.ts';
import { csvRow } from './csv.ts';
import * as store from './store.ts';

export type AuditEvent = {
  /** The organization the change happened in (null for realm-wide changes such as a user's own account). */
  organizationId: string | null;
  /** `{resourceType}.{verb}`, for example `roles.update`. */
  action: string;
  resourceType: string;
  resourceId?: string | null;
  resourceName?: string;
  /** What changed; stored as given, shown back as text. Never put secrets here. */
  detail?: Record<string, unknown>;
};

function actorEmail(principal: Principal): string {
  const { email, preferred_username: username } = principal.token as {
    email?: unknown;
    preferred_username?: unknown;
  };
  if (typeof email === 'string') return email;
  return typeof username === 'string' ? username : '';
}

/** Records one mutation for the audit log. Every service calls this after a change succeeded. */
export async function recordAudit(db: Db, principal: Principal, event: AuditEvent): Promise<void> {
  await store.insertAuditRecord(db, {
    realm: principal.realm,
    organizationId: event.organizationId,
    actorId: principal.userId,
    actorEmail: actorEmail(principal),
    action: event.action,
    resourceType: event.resourceType,
    resourceId: event.resourceId ?? null,
    resourceName: event.resourceName ?? '',
    detail: event.detail ?? {},
  });
}

/** The most rows one CSV export holds. */
export const EXPORT_LIMIT = 100_000;
/** Rows read per query while exporting. */
export const EXPORT_BATCH = 1_000;

export const CSV_COLUMNS = [
  'at',
  'actorEmail',
  'actorId',
  'action',
  'resourceType',
  'resourceId',
  'resourceName',
  'detail',
] as const;

function toEntry(row: store.AuditRecord): audit.Entry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actorId: row.actorId,
    actorEmail: row.actorEmail,
    action: row.action,
    resourceType: row.resourceType,
    resourceId: row.resourceId,
    resourceName: row.resourceName,
    detail: row.detail,
  };
}

function parseInstant(field: 'from' | 'to', value: string | undefined): Date | undefined {
  if (value === undefined || value === '') return undefined;
  const instant = new Date(value);
  if (Number.isNaN(instant.getTime())) throw badRequest(`${field} must be an ISO date-time`);
  return instant;
}

/** The store's criteria for the query's filters; refuses a time range that ends before it starts. */
function criteriaOf(organizationId: string, filter: audit.EntryFilter): store.EntryCriteria {
  const from = parseInstant('from', filter.from);
  const to = parseInstant('to', filter.to);
  if (from && to && from.getTime() > to.getTime()) throw badRequest("'from' must not be after 'to'");
  const text = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);
  return {
    organizationId,
    who: text(filter.who),
    what: text(filter.what),
    resourceType: text(filter.resourceType),
    resourceId: text(filter.resourceId),
    from,
    to,
    search: text(filter.search),
  };
}

function orderOf(filter: audit.EntryFilter): store.EntryOrder {
  const sort = filter.sort ?? 'at';
  return { sort, order: filter.order ?? (sort === 'at' ? 'desc' : 'asc') };
}

function authorizeLog(db: Db, principal: Principal, ref: string) {
  return authorizeInOrganization(db, principal, ref, 'ACCESS', 'audit');
}

/** One page of the organization's log, newest first unless another order is asked for. */
export async function listEntries(
  db: Db,
  principal: Principal,
  ref: string,
  query: audit.EntryQuery,
): Promise<audit.EntryPage> {
  const org = await authorizeLog(db, principal, ref);
  const criteria = criteriaOf(org.id, query);
  const { page, pageSize, offset } = pageWindow(query);
  const [rows, total] = await Promise.all([
    store.findEntries(db, criteria, orderOf(query), offset, pageSize),
    store.countEntries(db, criteria),
  ]);
  return { items: rows.map(toEntry), total, page, pageSize };
}

/** The actions and resource types present in the organization's log. */
export async function entryFacets(db: Db, principal: Principal, ref: string): Promise<audit.Facets> {
  const org = await authorizeLog(db, principal, ref);
  const [actions, resourceTypes] = await Promise.all([
    store.distinctActions(db, org.id),
    store.distinctResourceTypes(db, org.id),
  ]);
  return { actions, resourceTypes };
}

function csvLine(row: store.AuditRecord): string {
  return csvRow([
    row.at.toISOString(),
    row.actorEmail,
    row.actorId,
    row.action,
    row.resourceType,
    row.resourceId,
    row.resourceName,
    JSON.stringify(row.detail),
  ]);
}

/**
 * Every matching record (at most EXPORT_LIMIT) as a CSV stream, read in batches. Checks access and filters before the
 * first byte, so refusals still answer as errors; records written during the export are left out.
 */
export async function exportEntries(
  db: Db,
  principal: Principal,
  ref: string,
  filter: audit.EntryFilter,
  { now = new Date(), limit = EXPORT_LIMIT }: { now?: Date; limit?: number } = {},
): Promise<{ filename: string; body: Readable }> {
  const org = await authorizeLog(db, principal, ref);
  const criteria = { ...criteriaOf(org.id, filter), maxId: await store.latestEntryId(db, org.id) };
  const order = orderOf(filter);
  async function* lines() {
    // The byte order mark lets spreadsheet programs read the file as UTF-8.
    yield `\uFEFF${csvRow(CSV_COLUMNS)}`;
    for (let offset = 0; offset < limit; offset += EXPORT_BATCH) {
      const batch = Math.min(EXPORT_BATCH, limit - offset);
      const rows = await store.findEntries(db, criteria, order, offset, batch);
      if (rows.length > 0) yield rows.map(csvLine).join('');
      if (rows.length < batch) return;
    }
  }
  const name = org.resourceId.replace(/[^A-Za-z0-9_-]/g, '_');
  return { filename: `audit-${name}-${now.toISOString().slice(0, 10)}.csv`, body: Readable.from(lines()) };
}
