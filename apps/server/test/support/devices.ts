import { eq } from 'drizzle-orm';
import {
  devices,
  type ModelPath,
  models,
  modelVersions,
  type PresetMapping,
  presets,
} from '../../src/db/schema.ts';
import { createDevice } from '../../src/services/core/devices/provisioning.ts';
import { issueDeviceCredentials } from '../../src/services/license/device-credentials.ts';
import type { TestServer } from './server.ts';

/** A small machine model and a preset binding data tags to it (one formula, one writable set-point). */
export const TEST_PATHS: ModelPath[] = [
  { path: '/line/speed', type: 'number', unit: 'pcs/min' },
  { path: '/line/running', type: 'boolean' },
  { path: '/motor/temperature', type: 'number', unit: '°C' },
  { path: '/batch/count', type: 'integer' },
  { path: '/status/message', type: 'string' },
  { path: '/setpoints/speed', type: 'number', writable: true, min: 0, max: 200 },
];
export const TEST_MAPPINGS: PresetMapping[] = [
  { tag: 'LineSpeed', path: '/line/speed' },
  { tag: 'Running', path: '/line/running' },
  { tag: 'MotorTemp', path: '/motor/temperature', formula: 'value / 10' },
  { tag: 'Batch', path: '/batch/count' },
  { tag: 'StatusText', path: '/status/message' },
  { tag: 'SpeedSetpoint', path: '/setpoints/speed' },
];

export async function testPreset(server: TestServer, organizationId: string, name = 'Test preset') {
  const { db } = server.database;
  const [model] = await db
    .insert(models)
    .values({ organizationId, name: `${name} model` })
    .returning();
  if (!model) throw new Error('model insert returned nothing');
  await db.insert(modelVersions).values({ modelId: model.id, version: 1, paths: TEST_PATHS });
  const [preset] = await db
    .insert(presets)
    .values({ organizationId, name, modelId: model.id, modelVersion: 1, mappings: TEST_MAPPINGS })
    .returning();
  if (!preset) throw new Error('preset insert returned nothing');
  return preset;
}

/** A device bound to the preset with MQTT credentials, as activation leaves it. */
export async function activatedDevice(
  server: TestServer,
  organizationId: string,
  label: string,
  presetId?: string,
) {
  const { db } = server.database;
  const device = await createDevice(db, organizationId, label);
  if (presetId) await db.update(devices).set({ presetId }).where(eq(devices.id, device.id));
  const credentials = await issueDeviceCredentials(db, device.id);
  return { deviceId: device.id, password: credentials.password };
}
