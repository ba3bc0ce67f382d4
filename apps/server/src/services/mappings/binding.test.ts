import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../db/index.ts';
import { models, modelVersions, organizations, presets, realms } from '../../db/schema.ts';
import { bindMappings, presetBindingOf } from './binding.ts';

let database: Database;
let presetId: string;
let modelId: string;

beforeAll(async () => {
  database = await openDatabase({});
  const { db } = database;
  await db.insert(realms).values({ name: 'bind', displayName: 'Bind' });
  const [org] = await db
    .insert(organizations)
    .values({ realm: 'bind', name: 'Bind org', resourceId: 'bind-org' })
    .returning();
  if (!org) throw new Error('no organization');
  const [model] = await db
    .insert(models)
    .values({ organizationId: org.id, name: 'Line', currentVersion: 2 })
    .returning();
  if (!model) throw new Error('no model');
  modelId = model.id;
  await db.insert(modelVersions).values([
    { modelId, version: 1, paths: [{ path: '/old', type: 'string' }] },
    {
      modelId,
      version: 2,
      paths: [
        { path: '/line/speed', type: 'number', unit: 'pcs/min' },
        { path: '/motor/temperature', type: 'number' },
        { path: '/setpoints/speed', type: 'number', writable: true, min: 0, max: 200 },
        { path: '/line/running', type: 'boolean' },
      ],
    },
  ]);
  const [preset] = await db
    .insert(presets)
    .values({
      organizationId: org.id,
      name: 'PLC',
      modelId,
      modelVersion: 2,
      mappings: [
        { tag: 'LineSpeed', path: '/line/speed' },
        { tag: 'MotorTemp', path: '/motor/temperature', formula: 'value / 10' },
        { tag: 'SpeedSetpoint', path: '/setpoints/speed' },
        { tag: 'Running', path: '/line/running', formula: '' },
        { tag: 'Gone', path: '/old' },
      ],
    })
    .returning();
  if (!preset) throw new Error('no preset');
  presetId = preset.id;
});
afterAll(() => database.close());

describe('presetBindingOf', () => {
  it('binds every tag of the preset to its path in the preset model version', async () => {
    const binding = await presetBindingOf(database.db, presetId);
    expect(binding).toBeDefined();
    if (!binding) return;
    expect(binding).toMatchObject({ presetId, modelId, modelVersion: 2 });
    expect([...binding.tags.keys()].sort()).toEqual(['LineSpeed', 'MotorTemp', 'Running', 'SpeedSetpoint']);
    expect(binding.tags.get('LineSpeed')).toEqual({
      tag: 'LineSpeed',
      path: '/line/speed',
      type: 'number',
      writable: false,
    });
    expect(binding.tags.get('SpeedSetpoint')).toEqual({
      tag: 'SpeedSetpoint',
      path: '/setpoints/speed',
      type: 'number',
      writable: true,
      min: 0,
      max: 200,
    });
    const temperature = binding.tags.get('MotorTemp');
    expect(temperature?.formula?.(235)).toBe(23.5);
    // A blank formula is no formula; a path of another version ('/old' is only in version 1) is not bound.
    expect(binding.tags.get('Running')?.formula).toBeUndefined();
    expect(binding.tags.has('Gone')).toBe(false);
  });

  it('answers undefined for a preset that does not exist', async () => {
    expect(await presetBindingOf(database.db, randomUUID())).toBeUndefined();
  });
});

describe('bindMappings', () => {
  it('leaves out a mapping whose formula does not compile', () => {
    const tags = bindMappings(
      [
        { tag: 'a', path: '/a', formula: 'value +' },
        { tag: 'b', path: '/a', formula: 'value * 2' },
      ],
      [{ path: '/a', type: 'integer' }],
    );
    expect(tags.has('a')).toBe(false);
    expect(tags.get('b')?.formula?.(4)).toBe(8);
  });
});
