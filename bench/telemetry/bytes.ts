/**
 * Bytes per stored value, before and after (issue 34), in a database of their own so that nothing else is counted:
 * one UTC day of one device with the three paths at 1 Hz (86,400 messages, 259,200 values).
 * Before: the layout before partitioning — one flat table and its (device_id, ts) index.
 * After: every table whose name starts with `telemetry` (day partitions or compacted blocks, rollups, flush marks),
 * each with its indexes and TOAST, the day's rollups made by the rollup job and the day compacted when compaction
 * exists. Both after VACUUM (ANALYZE).
 */
import { sql } from 'drizzle-orm';
import { DAY_MS, dayOf, ensurePartitionsBetween } from '../../apps/server/src/telemetry/partitions.ts';
import { rebuildRollups } from '../../apps/server/src/telemetry/rollups.ts';
import { freshBenchDatabase, type RelationSize, sizesOf, vacuumAnalyze } from './database.ts';
import { type Compact, createFlatTable, foldDay, insertDay, PATHS, type RollupMode } from './generate.ts';

const FLAT_TABLE = 'bench_flat_day';

export type BytesResult = {
  values: number;
  flatBytes: number;
  relations: RelationSize[];
  afterBytes: number;
  compacted: unknown;
};

export async function measureBytes(
  serverUrl: string | undefined,
  mode: RollupMode,
  compact: Compact | undefined,
  log: (message: string) => void,
): Promise<BytesResult> {
  const bench = await freshBenchDatabase('telemetry-bytes', serverUrl);
  try {
    const { db } = bench;
    const deviceId = crypto.randomUUID();
    // The day before yesterday (UTC): over by more than COMPACT_AFTER_MS whatever the time of day.
    const dayMs = dayOf(Date.now()) - 2 * DAY_MS;
    await createFlatTable(db, FLAT_TABLE);
    const messages = await insertDay(db, FLAT_TABLE, [deviceId], dayMs, 1000, 0);
    await vacuumAnalyze(db, FLAT_TABLE);
    const [flat] = await sizesOf(db, FLAT_TABLE);
    await db.execute(sql`drop table ${sql.identifier(FLAT_TABLE)}`);

    await ensurePartitionsBetween(db, dayMs, dayMs + DAY_MS - 1);
    await insertDay(db, 'telemetry', [deviceId], dayMs, 1000, 0);
    if (mode === 'fold') await foldDay(db, [deviceId], dayMs);
    else await rebuildRollups(db, deviceId);
    const compacted = compact ? await compact(db, Date.now()) : undefined;
    await vacuumAnalyze(db, 'telemetry');
    const relations = (await sizesOf(db, 'telemetry')).filter((relation) => relation.bytes > 0);
    const afterBytes = relations.reduce((sum, relation) => sum + relation.bytes, 0);
    const values = messages * PATHS.length;
    log(
      `bytes per value: ${(flat?.bytes ?? 0) / values} before, ${afterBytes / values} after ` +
        `(${relations.map((relation) => `${relation.name} ${relation.bytes}`).join(', ')})`,
    );
    return { values, flatBytes: flat?.bytes ?? 0, relations, afterBytes, compacted };
  } finally {
    await bench.remove();
  }
}
