import { randomUUID } from 'node:crypto';
import type { platform } from '@edgeport/contract';
import type { Db } from '../../../db/index.ts';
import { badRequest, forbidden, notFound } from '../../../http/errors.ts';
import { abilityIn, type Principal } from '../../../http/principal.ts';
import type { Ingest } from '../../../ingest/index.ts';
import { typedValue } from '../../../ingest/payload.ts';
import { recordAudit } from '../../audit/service.ts';
import { deviceInOrganization } from '../../core/devices/service.ts';
import { authorizeInOrganization } from '../../core/organizations/service.ts';
import { dataAccessOf } from '../../core/roles/data-access.ts';
import { type BoundTag, presetBindingOf } from '../../mappings/binding.ts';
import { modelPathsOf } from './store.ts';

async function deviceOf(db: Db, organizationId: string, id: string) {
  const device = await deviceInOrganization(db, organizationId, id);
  if (!device) throw notFound(`device '${id}' not found`);
  return device;
}

/** The latest value of every path of the device the caller may read (READ devices; data roles filter paths). */
export async function latestValues(
  db: Db,
  ingest: Ingest,
  principal: Principal,
  ref: string,
  id: string,
): Promise<platform.LatestValues> {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'devices');
  const device = await deviceOf(db, org.id, id);
  const access = await dataAccessOf(db, principal.userId, org.id);
  const mayUpdate = abilityIn(principal, org).can('UPDATE', 'devices');
  const paths = device.presetId ? await modelPathsOf(db, device.presetId) : new Map();
  const values = (await ingest.latestValues(id))
    .filter((entry) => access.canRead(entry.path))
    .map((entry) => {
      const path = paths.get(entry.path);
      return {
        path: entry.path,
        value: entry.value,
        ts: new Date(entry.ts).toISOString(),
        type: path?.type ?? null,
        unit: path?.unit ?? null,
        writable: mayUpdate && path?.writable === true && access.canWrite(entry.path),
      };
    });
  return { deviceId: device.id, status: device.status, values };
}

function checkSetpoint(bound: BoundTag | undefined, input: platform.SetpointWrite) {
  if (!bound) throw badRequest(`body/path '${input.path}' is not a path of the device's preset`);
  if (!bound.writable) throw badRequest(`body/path '${input.path}' is not writable`);
  const typed = typedValue({ ...bound, formula: undefined }, input.value);
  if (!typed.ok) throw badRequest(`body/value ${typed.reason}`);
  if (typeof typed.value === 'number') {
    if (bound.min !== undefined && typed.value < bound.min)
      throw badRequest(`body/value must be >= ${bound.min}`);
    if (bound.max !== undefined && typed.value > bound.max)
      throw badRequest(`body/value must be <= ${bound.max}`);
  }
  return typed.value;
}

/**
 * Writes a set-point to the device (UPDATE devices): the path must be writable in the device's model and the caller's
 * data roles must allow writing it. The value is in model units and goes to the device's set-point topic (QoS 1).
 */
export async function writeSetpoint(
  db: Db,
  ingest: Ingest,
  principal: Principal,
  ref: string,
  id: string,
  input: platform.SetpointWrite,
): Promise<platform.SetpointSent> {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'devices');
  const device = await deviceOf(db, org.id, id);
  const access = await dataAccessOf(db, principal.userId, org.id);
  if (!access.canWrite(input.path)) throw forbidden(`your data roles do not allow writing ${input.path}`);
  const binding = device.presetId ? await presetBindingOf(db, device.presetId) : undefined;
  const bound = [...(binding?.tags.values() ?? [])].find((tag) => tag.path === input.path);
  const value = checkSetpoint(bound, input);
  const setpoint = { id: randomUUID(), tag: bound?.tag ?? '', path: input.path, value };
  await ingest.sendSetpoint(device.id, setpoint);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'devices.setpoint',
    resourceType: 'devices',
    resourceId: device.id,
    resourceName: device.label,
    detail: { path: input.path, value },
  });
  return {
    ...setpoint,
    sentAt: new Date().toISOString(),
    deviceOnline: ingest.connections.isOnline(device.id),
  };
}
