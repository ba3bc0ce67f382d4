import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { devices, type ModelPath, models, modelVersions, presets } from '../../../db/schema.ts';
import { ensurePartitionsBetween } from '../../../telemetry/partitions.ts';
import { rebuildRollups } from '../../../telemetry/rollups.ts';

/** A model with one version, a preset of it, devices bound to the preset and generated values (tests, browser tests). */
export type TelemetryFixture = {
  model: string;
  paths: ModelPath[];
  preset: string;
  devices: string[];
  /** Values per device, one every `intervalMs`, the newest at `endMs` (default now). */
  points: number;
  intervalMs: number;
  endMs?: number;
};

/**
 * The generated value of point `g` (1-based) of a path: numbers follow 20 + 10·sin(g/10) (3 decimals), integers
 * g mod 100, booleans alternate every 30 points, strings 'state-' || g mod 3.
 */
function generated(type: ModelPath['type']): SQL {
  switch (type) {
    case 'number':
      return sql`round((20 + 10 * sin(g / 10.0))::numeric, 3)`;
    case 'integer':
      return sql`(g % 100)`;
    case 'boolean':
      return sql`((g / 30) % 2 = 0)`;
    case 'string':
      return sql`('state-' || (g % 3))`;
  }
}

export async function seedTelemetryFixture(db: Db, organizationId: string, fixture: TelemetryFixture) {
  const [model] = await db.insert(models).values({ organizationId, name: fixture.model }).returning();
  if (!model) throw new Error('model insert returned nothing');
  await db.insert(modelVersions).values({ modelId: model.id, version: 1, paths: fixture.paths });
  const [preset] = await db
    .insert(presets)
    .values({
      organizationId,
      name: fixture.preset,
      modelId: model.id,
      modelVersion: 1,
      mappings: fixture.paths.map((entry) => ({
        tag: entry.path.slice(1).replaceAll('/', '_'),
        path: entry.path,
      })),
    })
    .returning();
  if (!preset) throw new Error('preset insert returned nothing');
  const bound: Record<string, { id: string }> = {};
  const endMs = fixture.endMs ?? Date.now();
  for (const label of fixture.devices) {
    const [device] = await db
      .insert(devices)
      .values({ organizationId, label, presetId: preset.id, status: 'ONLINE' })
      .returning();
    if (!device) throw new Error('device insert returned nothing');
    bound[label] = { id: device.id };
    if (fixture.points <= 0 || fixture.paths.length === 0) continue;
    const firstMs = endMs - (fixture.points - 1) * fixture.intervalMs;
    await ensurePartitionsBetween(db, firstMs, endMs);
    const pairs = fixture.paths.map((entry) => sql`${entry.path}::text, ${generated(entry.type)}`);
    await db.execute(sql`
      insert into telemetry (device_id, ts, values)
      select ${device.id}::uuid,
        to_timestamp((${endMs}::float8 - (${fixture.points}::int - g) * ${fixture.intervalMs}::float8) / 1000.0),
        jsonb_build_object(${sql.join(pairs, sql`, `)})
      from generate_series(1, ${fixture.points}::int) g`);
    await rebuildRollups(db, device.id);
  }
  return { modelId: model.id, presetId: preset.id, devices: bound };
}
