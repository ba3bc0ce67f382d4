import type { Db } from '../../db/index.ts';
import type { ModelPath, PresetMapping } from '../../db/schema.ts';
import * as store from './store.ts';
import { mappingErrors, modelErrors } from './validation.ts';

export const DEMO_MODEL_NAME = 'Packaging line';
export const DEMO_PRESET_NAME = 'Packaging line PLC';

/** A packaging line: conveyor, its motor, a glue tank, a writable speed set-point and a status text. */
export const DEMO_MODEL_PATHS: ModelPath[] = [
  {
    path: '/line/speed',
    type: 'number',
    unit: 'pcs/min',
    description: 'Packs per minute leaving the line',
    min: 0,
    max: 250,
  },
  { path: '/line/running', type: 'boolean', description: 'The line is producing' },
  {
    path: '/line/count',
    type: 'integer',
    unit: 'pcs',
    description: 'Packs produced since the shift started',
    min: 0,
  },
  { path: '/motor/temperature', type: 'number', unit: '°C', description: 'Main drive winding temperature' },
  { path: '/motor/current', type: 'number', unit: 'A', description: 'Main drive current' },
  { path: '/tank/level', type: 'number', unit: '%', description: 'Glue tank level', min: 0, max: 100 },
  {
    path: '/setpoints/speed',
    type: 'number',
    unit: 'pcs/min',
    description: 'Target line speed',
    writable: true,
    min: 0,
    max: 200,
  },
  { path: '/status/message', type: 'string', description: 'Last message of the PLC' },
];

/** The PLC's data tags: it reports the motor temperature in tenths of a degree, hence `value / 10`. */
export const DEMO_PRESET_MAPPINGS: PresetMapping[] = [
  { tag: 'LineSpeed', path: '/line/speed' },
  { tag: 'Running', path: '/line/running' },
  { tag: 'PackCount', path: '/line/count' },
  { tag: 'MotorTemp', path: '/motor/temperature', formula: 'value / 10' },
  { tag: 'MotorCurrent', path: '/motor/current' },
  { tag: 'TankLevel', path: '/tank/level' },
  { tag: 'SpeedSetpoint', path: '/setpoints/speed' },
  { tag: 'StatusText', path: '/status/message' },
];

export const DEMO_DEVICE_CONFIGURATION = { publishIntervalMs: 1000, qos: 1 };

/**
 * The demo organization's model "Packaging line" and preset "Packaging line PLC" (idempotent: existing ones of those
 * names are kept). Answers their ids, for the demo devices and the simulator.
 */
export async function seedDemoModel(
  db: Db,
  organizationId: string,
): Promise<{ modelId: string; presetId: string }> {
  const problems = [
    ...modelErrors({ name: DEMO_MODEL_NAME, paths: DEMO_MODEL_PATHS }),
    ...mappingErrors(DEMO_PRESET_MAPPINGS, DEMO_MODEL_PATHS).errors,
  ];
  if (problems.length > 0) throw new Error(`demo model is not valid: ${JSON.stringify(problems)}`);
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const model =
      (await store.findModelByName(tx, organizationId, DEMO_MODEL_NAME)) ??
      (await store.insertModel(
        tx,
        {
          organizationId,
          name: DEMO_MODEL_NAME,
          description: 'Conveyor, drive, glue tank and speed set-point of a packaging line',
        },
        DEMO_MODEL_PATHS,
        null,
      ));
    const existing = await store.findPresetByName(tx, organizationId, DEMO_PRESET_NAME);
    const presetId =
      existing?.id ??
      (
        await store.insertPreset(tx, {
          organizationId,
          name: DEMO_PRESET_NAME,
          modelId: model.id,
          modelVersion: model.currentVersion,
          mappings: DEMO_PRESET_MAPPINGS,
          deviceConfiguration: DEMO_DEVICE_CONFIGURATION,
        })
      ).id;
    return { modelId: model.id, presetId };
  });
}
