import type { common, mappings } from '@edgeport/contract';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Db } from '../../db/index.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import { deleteDeviceData } from '../../ingest/device-data.ts';
import { recordAudit } from '../audit/service.ts';
import { toDevice } from '../core/devices/service.ts';
import { aliasTaken, labelTaken } from '../core/devices/store.ts';
import { authorizeInOrganization } from '../core/organizations/service.ts';
import { announceRevocation } from '../license/device-credentials.ts';
import { releaseUsage } from '../license/subscriptions/journal.ts';
import { usablePreset } from './presets.ts';
import { scopeOf } from './service.ts';
import * as store from './store.ts';

/** The devices of the mappings service (spec 7 "Mappings", Devices): each device's preset, listing, changes. */

/**
 * Tells device-data ingest on every instance to drop what it cached of a device (its preset changed, or it is gone);
 * called after the change is committed.
 */
export type ForgetDevice = (deviceId: string) => Promise<void> | void;

function toMappingDevice(row: store.DeviceWithPreset): mappings.MappingDevice {
  const { device } = row;
  return {
    ...toDevice(device),
    presetId: device.presetId,
    presetName: row.presetName,
    configuration: device.configuration,
    latitude: device.latitude,
    longitude: device.longitude,
    lastSeenAt: device.lastSeenAt ? device.lastSeenAt.toISOString() : null,
  };
}

async function deviceOf(db: Db, organizationId: string, id: string) {
  const row = await store.findDevice(db, organizationId, id);
  if (!row) throw notFound(`device '${id}' not found`);
  return row;
}

export async function listDevices(db: Db, principal: Principal, ref: string, query: common.PageQuery) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'devices');
  const page = await store.pageOfDevices(db, org.id, { text: query.search }, query);
  return { ...page, items: page.items.map(toMappingDevice) };
}

/** Devices matching text (label, alias, serial number), preset (null: none), status and labelling tags. */
export async function searchDevices(db: Db, principal: Principal, ref: string, input: mappings.DeviceSearch) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'devices');
  const page = await store.pageOfDevices(
    db,
    org.id,
    { text: input.text, presetId: input.presetId, status: input.status, tags: input.tags },
    input,
  );
  return { ...page, items: page.items.map(toMappingDevice) };
}

export async function getDevice(db: Db, principal: Principal, ref: string, id: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'devices');
  return toMappingDevice(await deviceOf(db, org.id, id));
}

/**
 * Gives the device a preset (UPDATE devices): one of the organization's own or one an ancestor shares with it; null
 * takes the preset away. The device's values are then stored by the paths of that preset's model version.
 */
export async function setDevicePreset(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
  input: mappings.DevicePreset,
  forget: ForgetDevice = () => {},
) {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'devices');
  const before = await deviceOf(db, org.id, id);
  let presetName: string | null = null;
  if (input.presetId !== null) {
    const preset = await usablePreset(db, await scopeOf(db, org), input.presetId);
    if (!preset) throw notFound(`presetId: preset '${input.presetId}' not found`);
    presetName = preset.preset.name;
  }
  if (before.device.presetId !== input.presetId) {
    const updated = await store.updateDevice(db, org.id, id, { presetId: input.presetId });
    if (!updated) throw notFound(`device '${id}' not found`);
    await forget(id);
    await recordAudit(db, principal, {
      organizationId: org.id,
      action: 'devices.preset',
      resourceType: 'devices',
      resourceId: id,
      resourceName: before.device.label,
      detail: {
        presetId: input.presetId,
        presetName,
        before: { presetId: before.device.presetId, presetName: before.presetName },
      },
    });
  }
  return toMappingDevice(await deviceOf(db, org.id, id));
}

/** Changes label, alias, description or configuration (UPDATE devices); a label or alias in use: 409. */
export async function patchDevice(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
  input: mappings.DevicePatch,
) {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'devices');
  const before = (await deviceOf(db, org.id, id)).device;
  const changes: Parameters<typeof store.updateDevice>[3] = {};
  if (input.label !== undefined) {
    const label = input.label.trim();
    if (!label) throw badRequest('body/label: must not be blank');
    if (await labelTaken(db, org.id, label, id))
      throw conflict(`label: another device of this organization is labelled '${label}'`);
    changes.label = label;
  }
  if (input.alias !== undefined) {
    const alias = input.alias === null ? null : input.alias.trim() || null;
    if (alias !== null && (await aliasTaken(db, org.id, alias, id)))
      throw conflict(`alias: another device of this organization has the alias '${alias}'`);
    changes.alias = alias;
  }
  if (input.description !== undefined) changes.description = input.description;
  if (input.configuration !== undefined) changes.configuration = input.configuration;
  let updated: store.DeviceRow | undefined;
  try {
    updated = await store.updateDevice(db, org.id, id, changes);
  } catch (error) {
    if (isUniqueViolation(error))
      throw conflict('label or alias: another device of this organization has it');
    throw error;
  }
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
        configuration: before.configuration,
      },
    },
  });
  return toMappingDevice(await deviceOf(db, org.id, id));
}

/**
 * Deletes a device (DELETE devices) with its stored values, in one transaction: telemetry has no foreign key, the
 * other device tables cascade and a device licence keeps its row with the device unset.
 */
export async function deleteDevice(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
  forget: ForgetDevice = () => {},
) {
  const org = await authorizeInOrganization(db, principal, ref, 'DELETE', 'devices');
  const { device } = await deviceOf(db, org.id, id);
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    await deleteDeviceData(tx, id);
    await releaseUsage(tx, {
      organizationId: org.id,
      resourceType: 'devices',
      reason: 'device.deleted',
      subjectId: id,
    });
    if (!(await store.deleteDevice(tx, org.id, id))) throw notFound(`device '${id}' not found`);
  });
  await forget(id);
  // Its credentials went with it: its broker connection (and an external broker's client of it) too.
  announceRevocation(id);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'devices.delete',
    resourceType: 'devices',
    resourceId: id,
    resourceName: device.label,
    detail: { serialNumber: device.serialNumber, presetId: device.presetId },
  });
}
