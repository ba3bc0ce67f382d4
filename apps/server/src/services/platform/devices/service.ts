import type { common, platform } from '@edgeport/contract';
import type { Db } from '../../../db/index.ts';
import { badRequest, notFound } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { recordAudit } from '../../audit/service.ts';
import {
  deviceGroupInOrganization,
  groupsOfDevices,
  tagsOfGroupDevices,
} from '../../core/device-groups/service.ts';
import { toDevice } from '../../core/devices/service.ts';
import { authorizeInOrganization } from '../../core/organizations/service.ts';
import { mergeConfiguration } from './configuration.ts';
import * as store from './store.ts';

/** Spec 9: the connection history answers at most this many changes (also the default). */
export const STATUS_HISTORY_LIMIT = 1000;

export function toPlatformDevice(
  row: store.DeviceWithPreset,
  groups?: { id: string; name: string }[],
): platform.PlatformDevice {
  const device: platform.PlatformDevice = toDevice(row);
  if (groups) {
    device.presetName = row.presetName;
    device.groups = groups;
  }
  return device;
}

async function deviceOf(db: Db, organizationId: string, id: string) {
  const row = await store.findDevice(db, organizationId, id);
  if (!row) throw notFound(`device '${id}' not found`);
  return row;
}

async function readable(db: Db, principal: Principal, ref: string) {
  return authorizeInOrganization(db, principal, ref, 'READ', 'devices');
}

/** The data tags the device has reported, and whether (and where) its preset maps each. */
export async function availableTags(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
): Promise<platform.AvailableTags> {
  const org = await readable(db, principal, ref);
  const device = await deviceOf(db, org.id, id);
  const [reported, preset] = await Promise.all([
    store.dataTagsOf(db, device.id),
    store.presetOf(db, device.presetId),
  ]);
  const pathOf = new Map((preset?.mappings ?? []).map((mapping) => [mapping.tag, mapping.path]));
  const seen = new Set(reported.map((tag) => tag.name));
  return {
    deviceId: device.id,
    presetId: device.presetId,
    tags: reported.map((tag) => ({
      name: tag.name,
      type: tag.type,
      lastSeenAt: tag.lastSeenAt.toISOString(),
      mapped: pathOf.has(tag.name),
      path: pathOf.get(tag.name) ?? null,
    })),
    missing: [...pathOf]
      .filter(([tag]) => !seen.has(tag))
      .map(([name, path]) => ({ name, path }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

function toTags(row: store.DeviceRow): platform.DeviceTags {
  return { deviceId: row.id, label: row.label, tags: row.tags };
}

export async function deviceTags(db: Db, principal: Principal, ref: string, id: string) {
  const org = await readable(db, principal, ref);
  return toTags(await deviceOf(db, org.id, id));
}

export async function deviceTagsByName(db: Db, principal: Principal, ref: string, name: string) {
  const org = await readable(db, principal, ref);
  const row = await store.findDeviceByLabel(db, org.id, name);
  if (!row) throw notFound(`no device labelled '${name}'`);
  return toTags(row);
}

/** Replaces the device's labelling tags (UPDATE devices): trimmed, each once, in the order given. */
export async function replaceTags(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
  input: platform.DeviceTagsUpdate,
) {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'devices');
  const before = await deviceOf(db, org.id, id);
  const tags = [...new Set(input.tags.map((tag) => tag.trim()))];
  const blank = tags.indexOf('');
  if (blank >= 0) throw badRequest(`body/tags/${blank} must not be blank`);
  const updated = await store.setTags(db, org.id, id, tags);
  if (!updated) throw notFound(`device '${id}' not found`);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'devices.update',
    resourceType: 'devices',
    resourceId: id,
    resourceName: updated.label,
    detail: { changes: { tags }, before: { tags: before.tags } },
  });
  return toTags(updated);
}

/** The devices carrying any (or all) of the labelling tags, paged. */
export async function devicesByTags(
  db: Db,
  principal: Principal,
  ref: string,
  body: platform.TagsQueryBody,
  query: common.PageQuery,
) {
  const org = await readable(db, principal, ref);
  const tags = [...new Set(body.tags.map((tag) => tag.trim()))];
  const page = await store.pageByTags(db, org.id, tags, body.match ?? 'any', query);
  return { ...page, items: page.items.map((row) => toPlatformDevice(row)) };
}

/** The union of the labelling tags of the group's devices (READ devices and READ devicegroups). */
export async function groupTags(db: Db, principal: Principal, ref: string, groupId: string) {
  const org = await readable(db, principal, ref);
  await authorizeInOrganization(db, principal, ref, 'READ', 'devicegroups');
  const group = await deviceGroupInOrganization(db, org.id, groupId);
  if (!group) throw notFound(`device group '${groupId}' not found`);
  return { groupId: group.id, name: group.name, tags: await tagsOfGroupDevices(db, group.id) };
}

function instant(value: string | undefined, field: string): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw badRequest(`querystring/${field} must be an ISO date-time`);
  return date;
}

/** The device's connection history, newest first: since and to bound it, limit (at most 1000) caps it. */
export async function statusHistory(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
  query: platform.StatusHistoryQuery,
): Promise<platform.StatusHistory> {
  const org = await readable(db, principal, ref);
  const since = instant(query.since, 'since');
  const to = instant(query.to, 'to');
  if (since && to && since.getTime() > to.getTime())
    throw badRequest('querystring/since must not be after to');
  const limit = Math.min(query.limit ?? STATUS_HISTORY_LIMIT, STATUS_HISTORY_LIMIT);
  const device = await deviceOf(db, org.id, id);
  const rows = await store.statusHistory(db, device.id, { since, to, limit: limit + 1 });
  return {
    deviceId: device.id,
    items: rows
      .slice(0, limit)
      .map((row) => ({ status: row.status, detail: row.detail, at: row.at.toISOString() })),
    limit,
    truncated: rows.length > limit,
  };
}

/** The device's current status, when it was last seen, and its ingest counters. */
export async function statusSync(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
): Promise<platform.StatusSync> {
  const org = await readable(db, principal, ref);
  const device = await deviceOf(db, org.id, id);
  const [stats, [last]] = await Promise.all([
    store.ingestStatsOf(db, device.id),
    store.statusHistory(db, device.id, { limit: 1 }),
  ]);
  return {
    deviceId: device.id,
    status: device.status,
    lastSeenAt: device.lastSeenAt?.toISOString() ?? null,
    since: last?.at.toISOString() ?? null,
    ingest: {
      accepted: stats?.accepted ?? 0,
      malformed: stats?.malformed ?? 0,
      unknownPath: stats?.unknownPath ?? 0,
      wrongType: stats?.wrongType ?? 0,
      lastError: stats?.lastError ?? null,
      lastErrorAt: stats?.lastErrorAt?.toISOString() ?? null,
    },
  };
}

/** The device's configuration over its preset's deviceConfiguration. */
export async function configuration(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
): Promise<platform.DeviceConfiguration> {
  const org = await readable(db, principal, ref);
  const device = await deviceOf(db, org.id, id);
  const preset = await store.presetOf(db, device.presetId);
  const presetConfiguration = preset?.deviceConfiguration ?? {};
  return {
    deviceId: device.id,
    presetId: device.presetId,
    configuration: mergeConfiguration(presetConfiguration, device.configuration),
    presetConfiguration,
    deviceConfiguration: device.configuration,
  };
}

/** The organization's devices, paged; with details also the preset name and the device groups of each. */
export async function listDevices(
  db: Db,
  principal: Principal,
  ref: string,
  query: platform.DeviceListQuery,
) {
  const org = await readable(db, principal, ref);
  const page = await store.pageOfDevices(db, org.id, query);
  if (!query.details) return { ...page, items: page.items.map((row) => toPlatformDevice(row)) };
  const groups = await groupsOfDevices(
    db,
    org.id,
    page.items.map((row) => row.id),
  );
  return { ...page, items: page.items.map((row) => toPlatformDevice(row, groups.get(row.id) ?? [])) };
}

export async function deviceByAlias(db: Db, principal: Principal, ref: string, alias: string) {
  const org = await readable(db, principal, ref);
  const row = await store.findDeviceByAlias(db, org.id, alias.trim());
  if (!row) throw notFound(`no device with alias '${alias}'`);
  const groups = await groupsOfDevices(db, org.id, [row.id]);
  return toPlatformDevice(row, groups.get(row.id) ?? []);
}
