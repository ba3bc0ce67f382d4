import { checkFormula, type Formula } from '@edgeport/formula';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import {
  type ModelPath,
  type ModelPathType,
  modelVersions,
  type PresetMapping,
  presets,
} from '../../db/schema.ts';

/** One device data tag as its preset binds it: the model path it lands on, its type and limits, its formula. */
export type BoundTag = {
  tag: string;
  path: string;
  type: ModelPathType;
  writable: boolean;
  min?: number;
  max?: number;
  formula?: Formula;
};

/** What ingest needs to turn a device's data tags into model-path values: the preset's tags, keyed by tag name. */
export type PresetBinding = {
  presetId: string;
  modelId: string;
  modelVersion: number;
  tags: Map<string, BoundTag>;
};

/**
 * The tags of a preset bound to the paths of its model version. A mapping whose path is missing from the version or
 * whose formula does not compile is left out (presets are validated when stored, so this only guards old rows).
 */
export function bindMappings(
  mappings: readonly PresetMapping[],
  paths: readonly ModelPath[],
): Map<string, BoundTag> {
  const byPath = new Map(paths.map((path) => [path.path, path]));
  const tags = new Map<string, BoundTag>();
  for (const mapping of mappings) {
    const target = byPath.get(mapping.path);
    if (!target) continue;
    const bound: BoundTag = {
      tag: mapping.tag,
      path: target.path,
      type: target.type,
      writable: target.writable === true,
    };
    if (target.min !== undefined) bound.min = target.min;
    if (target.max !== undefined) bound.max = target.max;
    if (mapping.formula?.trim()) {
      const check = checkFormula(mapping.formula);
      if (!check.valid) continue;
      bound.formula = check.formula;
    }
    tags.set(mapping.tag, bound);
  }
  return tags;
}

/** The binding of a preset (by id, any organization: callers know the device's preset id), or undefined. */
export async function presetBindingOf(db: Db, presetId: string): Promise<PresetBinding | undefined> {
  const [preset] = await db
    .select({
      id: presets.id,
      modelId: presets.modelId,
      modelVersion: presets.modelVersion,
      mappings: presets.mappings,
    })
    .from(presets)
    .where(eq(presets.id, presetId));
  if (!preset) return undefined;
  const [version] = await db
    .select({ paths: modelVersions.paths })
    .from(modelVersions)
    .where(and(eq(modelVersions.modelId, preset.modelId), eq(modelVersions.version, preset.modelVersion)));
  return {
    presetId: preset.id,
    modelId: preset.modelId,
    modelVersion: preset.modelVersion,
    tags: bindMappings(preset.mappings, version?.paths ?? []),
  };
}
