import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/index.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import type { Setpoint } from '../../ingest/index.ts';
import type { DataValue } from '../../ingest/payload.ts';
import { typedValue } from '../../ingest/payload.ts';
import { deviceInOrganization } from '../core/devices/service.ts';
import { presetBindingOf } from '../mappings/binding.ts';

/**
 * The set-point a write action sends, checked as `platform/values` checks an operator's write: the device must be
 * one of the organization, the path writable in its preset's model, the value of the path's type and within its
 * min/max. The value goes to the device's data tag bound to the path. `field` prefixes the messages.
 */
export async function setpointFor(
  db: Db,
  organizationId: string,
  target: { deviceId: string; path: string; value: DataValue },
  field: string,
): Promise<Setpoint> {
  const device = await deviceInOrganization(db, organizationId, target.deviceId);
  if (!device) throw notFound(`${field}/deviceId: device '${target.deviceId}' not found`);
  const binding = device.presetId ? await presetBindingOf(db, device.presetId) : undefined;
  const bound = [...(binding?.tags.values() ?? [])].find((tag) => tag.path === target.path);
  if (!bound) throw badRequest(`${field}/path '${target.path}' is not a path of the device's preset`);
  if (!bound.writable) throw badRequest(`${field}/path '${target.path}' is not writable`);
  const typed = typedValue({ ...bound, formula: undefined }, target.value);
  if (!typed.ok) throw badRequest(`${field}/value ${typed.reason}`);
  if (typeof typed.value === 'number') {
    if (bound.min !== undefined && typed.value < bound.min)
      throw badRequest(`${field}/value must be >= ${bound.min}`);
    if (bound.max !== undefined && typed.value > bound.max)
      throw badRequest(`${field}/value must be <= ${bound.max}`);
  }
  return { id: randomUUID(), tag: bound.tag, path: target.path, value: typed.value };
}
