import { type common, dashboards as contract } from '@edgeport/contract';
import { bindingsOf, type DashboardDocument, emptyDocument, readDocument } from '@edgeport/dashboard-schema';
import type { BlobStore } from '../../../blob/blob-store.ts';
import type { Db } from '../../../db/index.ts';
import { sortKey } from '../../../db/paging.ts';
import type { DashboardKind, ShareLevel } from '../../../db/schema.ts';
import { badRequest, conflict, notFound } from '../../../http/errors.ts';
import { abilityIn, type Principal } from '../../../http/principal.ts';
import { rollupAverages } from '../../../telemetry/rollups.ts';
import { csvCell, csvRow } from '../../audit/csv.ts';
import { recordAudit } from '../../audit/service.ts';
import type { OrganizationRow } from '../../core/organizations/store.ts';
import { dataAccessOf } from '../../core/roles/data-access.ts';
import { rangeOf, valueCell } from '../../platform/data/service.ts';
import {
  type AccessLevel,
  type DashboardRow,
  dashboardOrganization,
  dashboardWithAccess,
} from '../access.ts';
import { assetFileCleanup } from '../assets/service.ts';
import * as store from './store.ts';

type Json = Record<string, unknown>;

function toDashboard(
  row: DashboardRow,
  shares: readonly store.ShareRow[],
  names: Map<string, string>,
  access: AccessLevel,
): contract.Dashboard {
  const own = shares.filter((share) => share.dashboardId === row.id);
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    description: row.description,
    ownerId: row.ownerId,
    ownerName: row.ownerId ? (names.get(row.ownerId) ?? null) : null,
    currentVersion: row.currentVersion,
    readers: own.filter((share) => share.level === 'r').map((share) => share.userId),
    editors: own.filter((share) => share.level === 'r/w').map((share) => share.userId),
    access,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Whether the caller acts as owner of every dashboard of the organization (UPDATE on dashboards). */
function isDashboardAdmin(principal: Principal, org: OrganizationRow): boolean {
  return abilityIn(principal, org).can('UPDATE', 'dashboards');
}

/** Rows as the API shows them, with their shares, owner names and the caller's access. */
async function present(
  db: Db,
  principal: Principal,
  org: OrganizationRow,
  rows: readonly DashboardRow[],
): Promise<contract.Dashboard[]> {
  const shares = await store.sharesOf(
    db,
    rows.map((row) => row.id),
  );
  const names = await store.namesOf(
    db,
    rows.map((row) => row.ownerId),
  );
  const admin = isDashboardAdmin(principal, org);
  return rows.map((row) => {
    const mine = shares.find((share) => share.dashboardId === row.id && share.userId === principal.userId);
    const access: AccessLevel = row.ownerId === principal.userId || admin ? 'owner' : (mine?.level ?? 'r');
    return toDashboard(row, shares, names, access);
  });
}

async function presentOne(
  db: Db,
  principal: Principal,
  org: OrganizationRow,
  row: DashboardRow,
): Promise<contract.Dashboard> {
  const [shown] = await present(db, principal, org, [row]);
  if (!shown) throw new Error('present returned nothing');
  return shown;
}

/** A submitted document of the kind, checked and brought to the current schema; 400 naming the field. */
function checkedDocument(kind: DashboardKind, raw: unknown, at: string): Json {
  const result = readDocument(kind, raw, at);
  if (!result.ok) throw badRequest(result.errors.join('; '));
  return result.document as unknown as Json;
}

function audit(
  db: Db,
  principal: Principal,
  org: OrganizationRow,
  row: DashboardRow,
  action: string,
  detail: Json = {},
) {
  return recordAudit(db, principal, {
    organizationId: org.id,
    action: `dashboards.${action}`,
    resourceType: 'dashboards',
    resourceId: row.id,
    resourceName: row.name,
    detail: { kind: row.kind, ...detail },
  });
}

// --- Dashboards -----------------------------------------------------------------------------------------------------

/** Creates a dashboard (flow, widget) owned by the caller, with version 1 (CREATE dashboards). */
export async function createDashboard(
  db: Db,
  principal: Principal,
  kind: DashboardKind,
  input: contract.DashboardCreate,
): Promise<contract.Dashboard> {
  const org = await dashboardOrganization(db, principal, 'CREATE');
  const name = input.name.trim();
  if (!name) throw badRequest('body/name must not be blank');
  const document =
    input.document === undefined
      ? (emptyDocument(kind) as unknown as Json)
      : checkedDocument(kind, input.document, 'body/document');
  const row = await store.insertDashboard(db, {
    organizationId: org.id,
    kind,
    name,
    description: input.description ?? '',
    ownerId: principal.userId,
    document,
  });
  await audit(db, principal, org, row, 'create');
  return presentOne(db, principal, org, row);
}

/** Renames or describes a dashboard (r/w). */
export async function patchDashboard(
  db: Db,
  principal: Principal,
  kind: DashboardKind,
  input: contract.DashboardPatch,
): Promise<contract.Dashboard> {
  const { org, row } = await dashboardWithAccess(db, principal, kind, input.id, 'r/w');
  const changes: { name?: string; description?: string } = {};
  if (input.name !== undefined) {
    const name = input.name.trim();
    if (!name) throw badRequest('body/name must not be blank');
    changes.name = name;
  }
  if (input.description !== undefined) changes.description = input.description;
  const updated = await store.updateDashboard(db, row.id, changes);
  await audit(db, principal, org, updated, 'update', {
    changes,
    before: { name: row.name, description: row.description },
  });
  return presentOne(db, principal, org, updated);
}

export type ListKind = 'visible' | 'mine' | 'shared';

/** The caller's list of one kind: what they may open, what they own, or what others shared with them (READ). */
export async function listDashboards(
  db: Db,
  principal: Principal,
  kind: DashboardKind,
  which: ListKind,
  query: common.PageQuery,
) {
  const org = await dashboardOrganization(db, principal);
  const scope: store.ListScope = which === 'visible' && isDashboardAdmin(principal, org) ? 'all' : which;
  const page = query.page ?? 0;
  const pageSize = query.pageSize ?? 50;
  const { rows, total } = await store.pageOfDashboards(db, {
    organizationId: org.id,
    kind,
    userId: principal.userId,
    scope,
    search: query.search,
    sort: sortKey(query.sort, Object.keys(store.DASHBOARD_SORTS) as store.DashboardSort[], 'name'),
    order: query.order ?? 'asc',
    page,
    pageSize,
  });
  return { items: await present(db, principal, org, rows), total, page, pageSize };
}

export async function getDashboard(
  db: Db,
  principal: Principal,
  kind: DashboardKind,
  id: string,
): Promise<contract.Dashboard> {
  const { org, row } = await dashboardWithAccess(db, principal, kind, id);
  return presentOne(db, principal, org, row);
}

/** Deletes a dashboard with its versions, shares, assets (and their files) and preferences (owner). */
export async function deleteDashboard(
  db: Db,
  blobs: BlobStore,
  principal: Principal,
  kind: DashboardKind,
  id: string,
) {
  const { org, row } = await dashboardWithAccess(db, principal, kind, id, 'owner');
  const removeFiles = await assetFileCleanup(db, blobs, org.id, row.id);
  await store.deleteDashboard(db, row.id);
  await audit(db, principal, org, row, 'delete');
  await removeFiles();
}

// --- Versions -------------------------------------------------------------------------------------------------------

async function summaryOf(
  db: Db,
  row: DashboardRow,
  versions: readonly store.VersionSummaryRow[],
): Promise<Omit<contract.DashboardVersion, 'document' | 'readers' | 'editors'>[]> {
  const names = await store.namesOf(
    db,
    versions.map((version) => version.createdBy),
  );
  return versions.map((version) => ({
    dashboardId: version.dashboardId,
    version: version.version,
    current: version.version === row.currentVersion,
    derivedFrom: version.derivedFrom,
    comment: version.comment,
    createdBy: version.createdBy,
    createdByName: version.createdBy ? (names.get(version.createdBy) ?? null) : null,
    createdAt: version.createdAt.toISOString(),
  }));
}

async function fullVersion(
  db: Db,
  row: DashboardRow,
  version: store.VersionRow,
): Promise<contract.DashboardVersion> {
  const [summary] = await summaryOf(db, row, [version]);
  if (!summary) throw new Error('summaryOf returned nothing');
  const read = readDocument(row.kind, version.document, 'document');
  if (!read.ok) {
    throw conflict(
      `version ${version.version} holds a document the current schema cannot read: ${read.errors.join('; ')}`,
    );
  }
  const shares = await store.sharesOf(db, [row.id]);
  return {
    ...summary,
    document: read.document,
    readers: shares.filter((share) => share.level === 'r').map((share) => share.userId),
    editors: shares.filter((share) => share.level === 'r/w').map((share) => share.userId),
  };
}

/** The versions, newest first, without documents (r). */
export async function listVersions(db: Db, principal: Principal, kind: DashboardKind, id: string) {
  const { row } = await dashboardWithAccess(db, principal, kind, id);
  return summaryOf(db, row, await store.versionsOf(db, row.id));
}

/** The largest version number the database holds (PostgreSQL integer). */
const MAX_VERSION = 2_147_483_647;

async function versionOf(db: Db, row: DashboardRow, v: number): Promise<store.VersionRow> {
  const version = v <= MAX_VERSION ? await store.findVersion(db, row.id, v) : undefined;
  if (!version) throw notFound(`version ${v} of ${row.kind} '${row.id}' not found`);
  return version;
}

/** One version with its document migrated to the current schema (r). */
export async function getVersion(db: Db, principal: Principal, kind: DashboardKind, id: string, v: number) {
  const { row } = await dashboardWithAccess(db, principal, kind, id);
  return fullVersion(db, row, await versionOf(db, row, v));
}

/** Saves a new version numbered after the highest; current unless `current` is false (r/w). */
export async function createVersion(
  db: Db,
  principal: Principal,
  kind: DashboardKind,
  id: string,
  input: contract.VersionCreate,
): Promise<contract.DashboardVersion> {
  const { org, row } = await dashboardWithAccess(db, principal, kind, id, 'r/w');
  const document = checkedDocument(kind, input.document, 'body/document');
  const current = input.current ?? true;
  const created = await store.insertVersion(db, {
    dashboardId: row.id,
    document,
    derivedFrom: null,
    comment: input.comment ?? '',
    createdBy: principal.userId,
    current,
  });
  if (!created) throw conflict('another version was saved at the same time: try again');
  const updated = { ...row, currentVersion: current ? created.version : row.currentVersion };
  await audit(db, principal, org, row, 'version.create', { version: created.version, current });
  return fullVersion(db, updated, created);
}

/** Derives version v2 (the next free number, else 409) from version v: a copy, not current (r/w). */
export async function deriveVersion(
  db: Db,
  principal: Principal,
  kind: DashboardKind,
  id: string,
  v: number,
  v2: number,
): Promise<contract.DashboardVersion> {
  const { org, row } = await dashboardWithAccess(db, principal, kind, id, 'r/w');
  const source = await versionOf(db, row, v);
  const next = (await store.highestVersion(db, row.id)) + 1;
  if (v2 !== next) throw conflict(`params/v2 must be the next free version number, ${next}`);
  const read = readDocument(kind, source.document, 'document');
  const created = await store.insertVersion(db, {
    dashboardId: row.id,
    version: v2,
    document: read.ok ? (read.document as unknown as Json) : source.document,
    derivedFrom: v,
    comment: `derived from version ${v}`,
    createdBy: principal.userId,
    current: false,
  });
  if (!created) throw conflict(`params/v2: version ${v2} was taken meanwhile; the next free number changed`);
  await audit(db, principal, org, row, 'version.derive', { version: v2, derivedFrom: v });
  return fullVersion(db, row, created);
}

/** Deletes a version that is not the current one (owner); the current one: 409. */
export async function deleteVersion(
  db: Db,
  principal: Principal,
  kind: DashboardKind,
  id: string,
  v: number,
) {
  const { org, row } = await dashboardWithAccess(db, principal, kind, id, 'owner');
  await versionOf(db, row, v);
  if (v === row.currentVersion || (await store.deleteVersion(db, row.id, v)) === 0) {
    throw conflict(`version ${v} is the current version: make another version current before deleting it`);
  }
  await audit(db, principal, org, row, 'version.delete', { version: v });
}

/** Makes version v the current one (owner). */
export async function makeCurrent(db: Db, principal: Principal, kind: DashboardKind, id: string, v: number) {
  const { org, row } = await dashboardWithAccess(db, principal, kind, id, 'owner');
  await versionOf(db, row, v);
  const updated = await store.updateDashboard(db, row.id, { currentVersion: v });
  await audit(db, principal, org, row, 'version.current', { version: v, before: row.currentVersion });
  return presentOne(db, principal, org, updated);
}

// --- Sharing (spec 4) -----------------------------------------------------------------------------------------------

async function checkShareable(
  db: Db,
  org: OrganizationRow,
  row: DashboardRow,
  users: readonly { userId: string; at: string }[],
) {
  const members = await store.membersAmong(
    db,
    org.id,
    users.map((user) => user.userId),
  );
  for (const { userId, at } of users) {
    if (userId === row.ownerId)
      throw badRequest(`${at} is the ${row.kind}'s owner, who has full access already`);
    if (!members.has(userId))
      throw badRequest(`${at}: user '${userId}' is not a member of this organization`);
  }
}

/** Shares with one member as reader ('r') or editor ('r/w'); a user is in one list only (owner). */
export async function shareOne(
  db: Db,
  principal: Principal,
  kind: DashboardKind,
  id: string,
  userId: string,
  level: ShareLevel,
): Promise<contract.Dashboard> {
  const { org, row } = await dashboardWithAccess(db, principal, kind, id, 'owner');
  await checkShareable(db, org, row, [{ userId, at: 'params/user' }]);
  await store.upsertShares(db, row.id, [{ userId, level }]);
  await audit(db, principal, org, row, 'share', { shared: [{ user: userId, level }] });
  return presentOne(db, principal, org, row);
}

/** Shares with a list: each user gets its level (default the list's); a user without a level is removed (owner). */
export async function shareList(
  db: Db,
  principal: Principal,
  kind: DashboardKind,
  id: string,
  input: contract.ShareList,
  listLevel: ShareLevel,
): Promise<contract.Dashboard> {
  const { org, row } = await dashboardWithAccess(db, principal, kind, id, 'owner');
  const seen = new Set<string>();
  input.users.forEach((entry, index) => {
    if (seen.has(entry.user)) throw badRequest(`body/users/${index}/user '${entry.user}' is listed twice`);
    seen.add(entry.user);
  });
  const shared = input.users
    .map((entry, index) => ({ ...entry, at: `body/users/${index}/user` }))
    .filter((entry) => entry.level !== undefined);
  await checkShareable(
    db,
    org,
    row,
    shared.map((entry) => ({ userId: entry.user, at: entry.at })),
  );
  const removed = input.users.filter((entry) => entry.level === undefined).map((entry) => entry.user);
  const levels = shared.map((entry) => ({ userId: entry.user, level: entry.level ?? listLevel }));
  await store.upsertShares(db, row.id, levels);
  await store.deleteShares(db, row.id, removed);
  await audit(db, principal, org, row, 'share', {
    shared: levels.map((entry) => ({ user: entry.userId, level: entry.level })),
    removed,
  });
  return presentOne(db, principal, org, row);
}

/**
 * Removes users from the readers AND the editors (owner). One user named in the path must be a reader or editor
 * (else 404, nothing to remove); users of a list that are neither are passed over.
 */
export async function unshare(
  db: Db,
  principal: Principal,
  kind: DashboardKind,
  id: string,
  userIds: readonly string[],
  one = false,
): Promise<contract.Dashboard> {
  const { org, row } = await dashboardWithAccess(db, principal, kind, id, 'owner');
  const count = await store.deleteShares(db, row.id, [...new Set(userIds)]);
  if (one && count === 0)
    throw notFound(`user '${userIds[0]}' is neither a reader nor an editor of the ${kind}`);
  if (count > 0) await audit(db, principal, org, row, 'unshare', { users: userIds, removed: count });
  return presentOne(db, principal, org, row);
}

// --- Data export ----------------------------------------------------------------------------------------------------

/** The most rows one export holds. */
export const EXPORT_ROW_LIMIT = 100_000;

/** The device-bound columns of a dashboard document: `{slot}:{path}` in the order widgets name them, no repeats. */
export function columnsOf(document: DashboardDocument): { slot: string; path: string }[] {
  const seen = new Map<string, { slot: string; path: string }>();
  for (const page of document.pages) {
    for (const widget of page.widgets) {
      for (const [, binding] of bindingsOf(widget)) {
        if (!('slot' in binding)) continue;
        const key = `${binding.slot}:${binding.path}`;
        if (!seen.has(key)) seen.set(key, { slot: binding.slot, path: binding.path });
      }
    }
  }
  return [...seen.values()];
}

/** A file name from the dashboard's name (letters, digits, `-` and `_` only), saying what a rollup export holds. */
export function exportFilename(
  name: string,
  now: Date,
  resolution: contract.ExportResolution = 'raw',
): string {
  const safe =
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9_-]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 80) || 'dashboard';
  const holds = resolution === 'raw' ? '' : `-${resolution}-averages`;
  return `${safe}-${now.toISOString().slice(0, 10)}${holds}.csv`;
}

/**
 * CSV of the current version's device-bound values between from and to: one row per time (UTC, milliseconds),
 * columns `time` then `{slot}:{path}`; the stored values, or the averages of the 1-minute or 1-hour rollups (a row
 * per bucket start, text paths empty) as `resolution` asks or `exportResolutionFor` picks. Each slot shows the device `slots` gives (it must be of the organization,
 * else 400 naming the slot) or the slot's default device; paths the caller's data roles hide are left out (r).
 */
export async function exportData(
  db: Db,
  principal: Principal,
  id: string,
  input: contract.DataExport,
  { now = new Date(), limit = EXPORT_ROW_LIMIT }: { now?: Date; limit?: number } = {},
): Promise<{ filename: string; body: string; resolution: contract.ExportResolution }> {
  const { org, row } = await dashboardWithAccess(db, principal, 'dashboard', id);
  const range = rangeOf('body', input.from, input.to);
  const stored = await versionOf(db, row, row.currentVersion);
  const read = readDocument('dashboard', stored.document, 'document');
  if (!read.ok) throw conflict(`the current version cannot be read: ${read.errors.join('; ')}`);
  const document = read.document;
  const slotNames = new Set(document.slots.map((slot) => slot.name));
  const given = input.slots ?? {};
  for (const slot of Object.keys(given)) {
    if (!slotNames.has(slot)) throw badRequest(`body/slots/${slot} is not a slot of the dashboard`);
  }
  const known = await store.devicesOfOrganization(db, org.id, [
    ...Object.values(given),
    ...document.slots.flatMap((slot) => (slot.defaultDeviceId ? [slot.defaultDeviceId] : [])),
  ]);
  for (const [slot, deviceId] of Object.entries(given)) {
    if (!known.has(deviceId))
      throw badRequest(`body/slots/${slot}: device '${deviceId}' is not a device of this organization`);
  }
  const deviceOf = new Map<string, string>();
  for (const slot of document.slots) {
    const deviceId = given[slot.name] ?? slot.defaultDeviceId;
    if (deviceId && known.has(deviceId)) deviceOf.set(slot.name, deviceId);
  }
  const access = await dataAccessOf(db, principal.userId, org.id);
  const columns = columnsOf(document).filter((column) => access.canRead(column.path));
  const resolution =
    !input.resolution || input.resolution === 'auto'
      ? contract.exportResolutionFor(range.from.getTime(), range.to.getTime())
      : input.resolution;

  // time -> column index -> value
  const rows = new Map<string, Map<number, unknown>>();
  for (const [slot, deviceId] of deviceOf) {
    const indexes = columns.flatMap((column, index) => (column.slot === slot ? [index] : []));
    if (indexes.length === 0) continue;
    const paths = [...new Set(indexes.map((index) => columns[index]?.path ?? ''))];
    const found =
      resolution === 'raw'
        ? await store.telemetryOf(db, deviceId, paths, range, limit)
        : await rollupAverages(db, deviceId, paths, resolution, range, limit);
    for (const record of found) {
      let cells = rows.get(record.ts);
      if (!cells) {
        cells = new Map();
        rows.set(record.ts, cells);
      }
      for (const index of indexes) {
        const path = columns[index]?.path ?? '';
        if (path in record.values) cells.set(index, record.values[path]);
      }
    }
  }
  const times = [...rows.keys()].sort().slice(0, limit);
  let body = `\uFEFF${csvRow(['time', ...columns.map((column) => `${column.slot}:${column.path}`)])}`;
  for (const time of times) {
    const cells = rows.get(time) ?? new Map<number, unknown>();
    body += `${[csvCell(time), ...columns.map((_, index) => valueCell(cells.get(index)))].join(',')}\r\n`;
  }
  return { filename: exportFilename(row.name, now, resolution), body, resolution };
}
