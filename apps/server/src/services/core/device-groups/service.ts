import type { common, core } from '@edgeport/contract';
import type { Db } from '../../../db/index.ts';
import { badRequest, conflict, notFound } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { recordAudit } from '../../audit/service.ts';
import { authorizeInOrganization } from '../organizations/service.ts';
import * as store from './store.ts';

/** At most this many devices are added or removed by one call. */
export const MAX_DEVICES_PER_CALL = 100;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function toGroup(row: store.GroupWithCount): core.DeviceGroup {
  return {
    id: row.id,
    organizationId: row.organizationId,
    name: row.name,
    description: row.description,
    deviceCount: row.deviceCount,
    createdAt: row.createdAt.toISOString(),
  };
}

async function groupOf(db: Db, organizationId: string, id: string) {
  const row = await store.findGroup(db, organizationId, id);
  if (!row) throw notFound(`device group '${id}' not found`);
  return row;
}

function cleanName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw badRequest('body/name must not be blank');
  return trimmed;
}

export async function listGroups(db: Db, principal: Principal, ref: string, query: common.PageQuery) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'devicegroups');
  const page = await store.pageOfGroups(db, org.id, query);
  return { ...page, items: page.items.map(toGroup) };
}

export async function getGroup(db: Db, principal: Principal, ref: string, id: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'devicegroups');
  return toGroup(await groupOf(db, org.id, id));
}

export async function createGroup(db: Db, principal: Principal, ref: string, input: core.DeviceGroupCreate) {
  const org = await authorizeInOrganization(db, principal, ref, 'CREATE', 'devicegroups');
  const name = cleanName(input.name);
  if (await store.nameTaken(db, org.id, name)) {
    throw conflict(`name: a device group named '${name}' already exists in this organization`);
  }
  const row = await store.insertGroup(db, {
    organizationId: org.id,
    name,
    description: input.description ?? '',
  });
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'devicegroups.create',
    resourceType: 'devicegroups',
    resourceId: row.id,
    resourceName: row.name,
    detail: { description: row.description },
  });
  return toGroup(await groupOf(db, org.id, row.id));
}

export async function updateGroup(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
  input: core.DeviceGroupUpdate,
) {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'devicegroups');
  const before = await groupOf(db, org.id, id);
  const changes: { name?: string; description?: string } = {};
  if (input.name !== undefined) {
    const name = cleanName(input.name);
    if (await store.nameTaken(db, org.id, name, id)) {
      throw conflict(`name: a device group named '${name}' already exists in this organization`);
    }
    changes.name = name;
  }
  if (input.description !== undefined) changes.description = input.description;
  await store.updateGroup(db, org.id, id, changes);
  const after = await groupOf(db, org.id, id);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'devicegroups.update',
    resourceType: 'devicegroups',
    resourceId: id,
    resourceName: after.name,
    detail: { changes, before: { name: before.name, description: before.description } },
  });
  return toGroup(after);
}

/** Deletes the group and its memberships (the devices stay). */
export async function deleteGroup(db: Db, principal: Principal, ref: string, id: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'DELETE', 'devicegroups');
  const group = await groupOf(db, org.id, id);
  if (!(await store.deleteGroup(db, org.id, id))) throw notFound(`device group '${id}' not found`);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'devicegroups.delete',
    resourceType: 'devicegroups',
    resourceId: id,
    resourceName: group.name,
    detail: { deviceCount: group.deviceCount },
  });
}

export async function listMembers(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
  query: common.PageQuery,
) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'devicegroups');
  await groupOf(db, org.id, id);
  return store.pageOfMembers(db, id, query);
}

function parseDeviceIds(joined: string): string[] {
  const ids = [...new Set(joined.split(',').map((id) => id.trim().toLowerCase()))];
  const bad = ids.find((id) => !UUID.test(id));
  if (bad !== undefined) throw badRequest(`params/devices: '${bad}' is not a device id`);
  if (ids.length > MAX_DEVICES_PER_CALL) {
    throw badRequest(`params/devices: at most ${MAX_DEVICES_PER_CALL} devices per call`);
  }
  return ids;
}

/**
 * Adds devices to the group or removes them (UPDATE devicegroups). Every named device must be a device of the same
 * organization, else 404 naming the first unknown id and nothing changes.
 */
export async function changeMembers(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
  joined: string,
  change: 'add' | 'remove',
): Promise<core.DeviceGroupMembersChanged> {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'devicegroups');
  const group = await groupOf(db, org.id, id);
  const ids = parseDeviceIds(joined);
  const found = await store.devicesOfOrganization(db, org.id, ids);
  const known = new Set(found.map((device) => device.id));
  const missing = ids.find((deviceId) => !known.has(deviceId));
  if (missing !== undefined) throw notFound(`device '${missing}' not found in this organization`);
  const changed =
    change === 'add'
      ? await store.addMembers(db, group.id, ids)
      : await store.removeMembers(db, group.id, ids);
  if (changed.length > 0) {
    const labels = new Map(found.map((device) => [device.id, device.label]));
    await recordAudit(db, principal, {
      organizationId: org.id,
      action: change === 'add' ? 'devicegroups.addDevices' : 'devicegroups.removeDevices',
      resourceType: 'devicegroups',
      resourceId: group.id,
      resourceName: group.name,
      detail: { devices: changed.map((deviceId) => ({ id: deviceId, label: labels.get(deviceId) ?? '' })) },
    });
  }
  return { group: toGroup(await groupOf(db, org.id, id)), changed: changed.length };
}

// --- for other areas (the platform service) ---------------------------------------------------------------------

/** A device group of the organization, or undefined. */
export async function deviceGroupInOrganization(db: Db, organizationId: string, id: string) {
  return store.findGroup(db, organizationId, id);
}

/** The groups each of the devices is in (devices in no group are left out of the map). */
export async function groupsOfDevices(
  db: Db,
  organizationId: string,
  deviceIds: string[],
): Promise<Map<string, { id: string; name: string }[]>> {
  const out = new Map<string, { id: string; name: string }[]>();
  for (const row of await store.groupsOfDevices(db, organizationId, deviceIds)) {
    const list = out.get(row.deviceId) ?? [];
    list.push({ id: row.id, name: row.name });
    out.set(row.deviceId, list);
  }
  return out;
}

/** The labelling tags of the group's devices, each once, sorted. */
export async function tagsOfGroupDevices(db: Db, groupId: string): Promise<string[]> {
  const lists = await store.tagListsOfMembers(db, groupId);
  return [...new Set(lists.flat())].sort((a, b) => a.localeCompare(b));
}
