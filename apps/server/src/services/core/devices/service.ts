import type { core } from '@edgeport/contract';
import type { Config } from '../../../config.ts';
import type { Db } from '../../../db/index.ts';
import { badRequest, conflict, forbidden, notFound } from '../../../http/errors.ts';
import { abilityIn, type Principal } from '../../../http/principal.ts';
import { recordAudit } from '../../audit/service.ts';
import { recordUsage, releaseUsage } from '../../license/subscriptions/journal.ts';
import { assertWithinLimit } from '../../limits/enforce.ts';
import { findClient } from '../clients/store.ts';
import { deviceGroupInOrganization, groupsOfDevices } from '../device-groups/service.ts';
import { redeemImportToken } from '../organizations/admin-service.ts';
import { authorizeInOrganization } from '../organizations/service.ts';
import * as store from './store.ts';
import { forgetTotals, rememberedIfSlow } from './totals.ts';

export function toDevice(row: store.DeviceSummaryRow): core.CoreDevice {
  return {
    id: row.id,
    organizationId: row.organizationId,
    label: row.label,
    alias: row.alias,
    serialNumber: row.serialNumber,
    description: row.description,
    tags: row.tags,
    status: row.status,
    presetId: row.presetId,
    latitude: row.latitude,
    longitude: row.longitude,
    lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The devices of the organization, paged and sorted; search matches label, alias and serial number; filters by
 * status, labelling tags (all of them), device group, preset and whether a map position is set (READ devices).
 */
export async function listDevices(db: Db, principal: Principal, ref: string, query: core.DeviceListQuery) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'devices');
  const page = await store.pageOfDevices(db, org.id, { ...query, tags: query.tag });
  return { ...page, items: page.items.map(toDevice) };
}

export async function searchDevices(db: Db, principal: Principal, ref: string, q: string, pageSize: number) {
  return listDevices(db, principal, ref, { search: q, pageSize, page: 0 });
}

/** The positioned devices inside a map's bounding box (READ devices); `truncated` when more than `limit` match. */
export async function devicePositions(
  db: Db,
  principal: Principal,
  ref: string,
  query: core.DevicePositionsQuery,
): Promise<core.DevicePositions> {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'devices');
  const box = [query.south, query.west, query.north, query.east];
  const given = box.filter((value) => value !== undefined).length;
  if (given !== 0 && given !== 4) throw badRequest('querystring/south, west, north and east go together');
  if (query.south !== undefined && query.north !== undefined && query.south > query.north)
    throw badRequest('querystring/south must not be north of querystring/north');
  if (query.west !== undefined && query.east !== undefined && query.west > query.east)
    throw badRequest('querystring/west must not be east of querystring/east');
  return store.positionsOfDevices(db, org.id, {
    ...query,
    tags: query.tag,
    limit: query.limit ?? 2000,
  });
}

/** The labelling tags in use in the organization with their device counts, the first 500 by name (READ devices). */
export async function deviceTags(db: Db, principal: Principal, ref: string): Promise<core.DeviceTagCounts> {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'devices');
  // Counting the tags of 100,000 devices takes about 150 ms: a slow answer is reused for 30 s.
  return rememberedIfSlow(`${org.id}|tags`, () => store.tagCounts(db, org.id, 500), {
    slowMs: 50,
    ttlMs: 30_000,
  });
}

export const DEFAULT_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
const OSM_ATTRIBUTION = '© OpenStreetMap contributors';

/** The device map's background tiles: MAP_TILE_URL (and MAP_TILE_ATTRIBUTION) or OpenStreetMap (READ devices). */
export async function mapSettings(
  db: Db,
  principal: Principal,
  ref: string,
  config: Pick<Config, 'mapTileUrl' | 'mapTileAttribution'>,
): Promise<core.DeviceMapSettings> {
  await authorizeInOrganization(db, principal, ref, 'READ', 'devices');
  const tileUrl = config.mapTileUrl ?? DEFAULT_TILE_URL;
  return {
    tileUrl,
    attribution: config.mapTileAttribution ?? (tileUrl === DEFAULT_TILE_URL ? OSM_ATTRIBUTION : ''),
    maxZoom: 19,
  };
}

/** One device with its configuration and its device groups (READ devices). */
export async function getDevice(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
): Promise<core.CoreDeviceDetail> {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'devices');
  const row = await store.findDevice(db, org.id, id);
  if (!row) throw notFound(`device '${id}' not found`);
  const groups = (await groupsOfDevices(db, org.id, [row.id])).get(row.id) ?? [];
  return {
    ...toDevice(row),
    configuration: row.configuration,
    groups: groups.sort((a, b) => a.name.localeCompare(b.name)),
    serviceClientId: row.serviceClientId,
  };
}

export async function getDeviceByLabel(db: Db, principal: Principal, ref: string, label: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'devices');
  const row = await store.findDeviceByLabel(db, org.id, label);
  if (!row) throw notFound(`no device labelled '${label}'`);
  return toDevice(row);
}

/**
 * Changes label, alias, description, tags, map position or service client (UPDATE devices); a label or alias another device of the
 * organization has: 409. Latitude and longitude are set together (both numbers, or both null to remove it).
 */
export async function patchDevice(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
  input: core.CoreDevicePatch,
) {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'devices');
  const before = await store.findDevice(db, org.id, id);
  if (!before) throw notFound(`device '${id}' not found`);
  const changes: store.DeviceChanges = {};
  if (input.label !== undefined) {
    const label = input.label.trim();
    if (!label) throw badRequest('label must not be blank');
    if (await store.labelTaken(db, org.id, label, id)) {
      throw conflict(`label: another device of this organization is labelled '${label}'`);
    }
    changes.label = label;
  }
  if (input.alias !== undefined) {
    const alias = input.alias === null ? null : input.alias.trim() || null;
    if (alias !== null && (await store.aliasTaken(db, org.id, alias, id))) {
      throw conflict(`alias: another device of this organization has the alias '${alias}'`);
    }
    changes.alias = alias;
  }
  if (input.description !== undefined) changes.description = input.description;
  if (input.tags !== undefined) changes.tags = cleanTags(input.tags);
  if (input.latitude !== undefined || input.longitude !== undefined) {
    if (input.latitude === undefined || input.longitude === undefined)
      throw badRequest('body/latitude and body/longitude must be given together');
    if ((input.latitude === null) !== (input.longitude === null))
      throw badRequest('body/latitude and body/longitude must both be numbers or both be null');
    changes.latitude = input.latitude;
    changes.longitude = input.longitude;
  }
  if (input.serviceClientId !== undefined) {
    if (input.serviceClientId !== null && !(await findClient(db, org.id, input.serviceClientId)))
      throw notFound(`body/serviceClientId: service client '${input.serviceClientId}' not found`);
    changes.serviceClientId = input.serviceClientId;
  }
  const updated = await store.updateDevice(db, org.id, id, changes);
  if (!updated) throw notFound(`device '${id}' not found`);
  forgetTotals(org.id);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'devices.update',
    resourceType: 'devices',
    resourceId: id,
    resourceName: updated.label,
    detail: {
      changes,
      before: {
        label: before.label,
        alias: before.alias,
        description: before.description,
        tags: before.tags,
        latitude: before.latitude,
        longitude: before.longitude,
        serviceClientId: before.serviceClientId,
      },
    },
  });
  return toDevice(updated);
}

/**
 * Moves a device into the organization of an import token (UPDATE devices in the organization it leaves). The token
 * is used up; the device's security-policy assignments belong to the old organization and are dropped.
 */
export async function moveDevice(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
  input: core.MoveRequest,
) {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'devices');
  const device = await store.findDevice(db, org.id, id);
  if (!device) throw notFound(`device '${id}' not found`);
  const { moved, target } = await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const target = await redeemImportToken(tx, org.realm, input.organizationImportToken);
    if (target.id === org.id)
      throw badRequest('organizationImportToken leads to the organization the device is in');
    if (await store.labelTaken(tx, target.id, device.label)) {
      throw conflict(`label: organization '${target.name}' already has a device labelled '${device.label}'`);
    }
    await assertWithinLimit(tx, target.id, 'devices');
    const moved = await store.moveDevice(tx, device.id, org.id, target.id);
    if (!moved) throw notFound(`device '${id}' not found`);
    const released = await releaseUsage(tx, {
      organizationId: org.id,
      resourceType: 'devices',
      reason: 'device.movedOut',
      subjectId: device.id,
    });
    await recordUsage(tx, {
      organizationId: target.id,
      resourceType: 'devices',
      delta: -released,
      reason: 'device.movedIn',
      subjectId: device.id,
    });
    return { moved, target };
  });
  forgetTotals(org.id);
  forgetTotals(target.id);
  const event = {
    action: 'devices.move',
    resourceType: 'devices',
    resourceId: device.id,
    resourceName: device.label,
    detail: { fromOrganizationId: org.id, toOrganizationId: target.id, toOrganizationName: target.name },
  };
  await recordAudit(db, principal, { ...event, organizationId: org.id });
  await recordAudit(db, principal, { ...event, organizationId: target.id });
  return toDevice(moved);
}

/** A device of the organization (for other areas: security policies assign devices of the same organization). */
export async function deviceInOrganization(db: Db, organizationId: string, id: string) {
  return store.findDevice(db, organizationId, id);
}

function cleanTags(tags: string[]): string[] {
  const cleaned = [...new Set(tags.map((tag) => tag.trim()))];
  const blank = cleaned.indexOf('');
  if (blank >= 0) throw badRequest(`tags/${blank} must not be blank`);
  return cleaned;
}

/**
 * One action on up to 1000 devices of the organization: add or remove labelling tags, add them to a device group
 * (UPDATE devices; the group also needs UPDATE devicegroups) or delete them with their stored data (DELETE devices).
 * Every id must be a device of the organization, otherwise 404 naming it and nothing changes. Every changed device
 * gets its own audit record.
 */
export async function bulkDevices(
  db: Db,
  principal: Principal,
  ref: string,
  input: core.DeviceBulkRequest,
): Promise<core.DeviceBulkResult> {
  const action = input.action;
  const org = await authorizeInOrganization(
    db,
    principal,
    ref,
    action === 'delete' ? 'DELETE' : 'UPDATE',
    'devices',
  );
  if (action === 'setGroup' && !abilityIn(principal, org).can('UPDATE', 'devicegroups'))
    throw forbidden('UPDATE on devicegroups is not granted in this organization');
  if ((action === 'addTags' || action === 'removeTags') && !input.tags)
    throw badRequest(`body/tags is required for ${action}`);
  if (action === 'setGroup' && !input.groupId) throw badRequest('body/groupId is required for setGroup');
  // tags belong to addTags/removeTags and groupId to setGroup; the other actions leave them alone.
  const tags = input.tags && (action === 'addTags' || action === 'removeTags') ? cleanTags(input.tags) : [];

  const found = await store.devicesAmong(db, org.id, input.ids);
  const byId = new Map(found.map((device) => [device.id, device]));
  const missing = input.ids.find((id) => !byId.has(id));
  if (missing) throw notFound(`body/ids: device '${missing}' not found`);
  const targets = input.ids.flatMap((id) => {
    const device = byId.get(id);
    return device ? [device] : [];
  });

  type Change = { id: string; label: string; detail: Record<string, unknown> };
  const changes: Change[] = [];
  let auditAction = 'devices.update';
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    if (action === 'addTags' || action === 'removeTags') {
      for (const device of targets) {
        const next =
          action === 'addTags'
            ? [...device.tags, ...tags.filter((tag) => !device.tags.includes(tag))]
            : device.tags.filter((tag) => !tags.includes(tag));
        if (next.length === device.tags.length) continue;
        if (next.length > 50)
          throw badRequest(`body/tags: device '${device.label}' would carry more than 50 tags`);
        await store.setTags(tx, org.id, device.id, next);
        changes.push({
          id: device.id,
          label: device.label,
          detail: { bulk: action, tags, before: device.tags },
        });
      }
    } else if (action === 'setGroup') {
      const group = await deviceGroupInOrganization(tx, org.id, input.groupId ?? '');
      if (!group) throw notFound(`body/groupId: device group '${input.groupId}' not found`);
      const added = new Set(
        await store.addGroupMembers(
          tx,
          group.id,
          targets.map((device) => device.id),
        ),
      );
      auditAction = 'devices.addToGroup';
      for (const device of targets) {
        if (added.has(device.id))
          changes.push({
            id: device.id,
            label: device.label,
            detail: { groupId: group.id, groupName: group.name },
          });
      }
    } else {
      for (const device of targets) {
        await releaseUsage(tx, {
          organizationId: org.id,
          resourceType: 'devices',
          reason: 'device.deleted',
          subjectId: device.id,
        });
      }
      await store.deleteDevices(
        tx,
        org.id,
        targets.map((device) => device.id),
      );
      auditAction = 'devices.delete';
      for (const device of targets)
        changes.push({ id: device.id, label: device.label, detail: { bulk: true } });
    }
  });
  forgetTotals(org.id);
  for (const change of changes) {
    await recordAudit(db, principal, {
      organizationId: org.id,
      action: auditAction,
      resourceType: 'devices',
      resourceId: change.id,
      resourceName: change.label,
      detail: change.detail,
    });
  }
  return { action, changed: changes.length, requested: input.ids.length };
}
