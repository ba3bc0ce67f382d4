import type { common, core } from '@edgeport/contract';
import type { Db } from '../../../db/index.ts';
import { badRequest, conflict, notFound } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { recordAudit } from '../../audit/service.ts';
import { redeemImportToken } from '../organizations/admin-service.ts';
import { authorizeInOrganization } from '../organizations/service.ts';
import * as store from './store.ts';

export function toDevice(row: store.DeviceRow): core.CoreDevice {
  return {
    id: row.id,
    organizationId: row.organizationId,
    label: row.label,
    alias: row.alias,
    serialNumber: row.serialNumber,
    description: row.description,
    tags: row.tags,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The devices of the organization, paged; search matches label, alias and serial number (READ devices). */
export async function listDevices(db: Db, principal: Principal, ref: string, query: common.PageQuery) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'devices');
  const page = await store.pageOfDevices(db, org.id, query);
  return { ...page, items: page.items.map(toDevice) };
}

export async function searchDevices(db: Db, principal: Principal, ref: string, q: string, pageSize: number) {
  return listDevices(db, principal, ref, { search: q, pageSize, page: 0 });
}

export async function getDevice(db: Db, principal: Principal, ref: string, id: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'devices');
  const row = await store.findDevice(db, org.id, id);
  if (!row) throw notFound(`device '${id}' not found`);
  return toDevice(row);
}

export async function getDeviceByLabel(db: Db, principal: Principal, ref: string, label: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'devices');
  const row = await store.findDeviceByLabel(db, org.id, label);
  if (!row) throw notFound(`no device labelled '${label}'`);
  return toDevice(row);
}

/** Changes label, alias, description or tags (UPDATE devices); a label another device of the org has: 409. */
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
  const changes: Parameters<typeof store.updateDevice>[3] = {};
  if (input.label !== undefined) {
    const label = input.label.trim();
    if (!label) throw badRequest('label must not be blank');
    if (await store.labelTaken(db, org.id, label, id)) {
      throw conflict(`label: another device of this organization is labelled '${label}'`);
    }
    changes.label = label;
  }
  if (input.alias !== undefined) changes.alias = input.alias === null ? null : input.alias.trim() || null;
  if (input.description !== undefined) changes.description = input.description;
  if (input.tags !== undefined) changes.tags = [...new Set(input.tags.map((tag) => tag.trim()))];
  const updated = await store.updateDevice(db, org.id, id, changes);
  if (!updated) throw notFound(`device '${id}' not found`);
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
    const moved = await store.moveDevice(tx, device.id, org.id, target.id);
    if (!moved) throw notFound(`device '${id}' not found`);
    return { moved, target };
  });
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
