import { and, eq } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { type ModelPath, modelVersions, presets } from '../../../db/schema.ts';

/** The paths of the model version a preset binds to, by path. */
export async function modelPathsOf(db: Db, presetId: string): Promise<Map<string, ModelPath>> {
  const [row] = await db
    .select({ paths: modelVersions.paths })
    .from(presets)
    .innerJoin(
      modelVersions,
      and(eq(modelVersions.modelId, presets.modelId), eq(modelVersions.version, presets.modelVersion)),
    )
    .where(eq(presets.id, presetId));
  return new Map((row?.paths ?? []).map((path) => [path.path, path]));
}
