import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { everyPeriodOnce } from '../cluster/periodic.ts';
import type { TelemetryRetention } from '../config.ts';
import type { Database } from '../db/index.ts';
import { compactTelemetry } from './compaction.ts';
import { ensurePartitionsAhead } from './partitions.ts';
import { applyRetention } from './retention.ts';
import { foldRollups } from './rollups.ts';

/** How often one instance of the cluster makes the coming days' partitions, compacts and applies retention. */
export const MAINTENANCE_PERIOD_MS = 60 * 60 * 1000;
/** The first maintenance comes this soon after start, so frequent restarts never put compaction off. */
export const MAINTENANCE_FIRST_AFTER_MS = 2 * 60 * 1000;
/** How often the rollups take in the minutes that are over: they are at most this much behind a minute's end. */
export const ROLLUP_PERIOD_MS = 15_000;

/**
 * What every server needs to store values: today's and the coming days' partitions now, and the rollups of the
 * minutes that are over every ROLLUP_PERIOD_MS (on one instance of the cluster). PGlite runs without autovacuum, so
 * there the job vacuums the queue it empties (at full ingest it churns megabytes a second). Answers the function
 * that stops it.
 */
export async function startTelemetryStorage(
  database: Pick<Database, 'db' | 'kind'>,
  log: FastifyBaseLogger,
): Promise<() => void> {
  const { db } = database;
  await ensurePartitionsAhead(db, Date.now());
  return everyPeriodOnce(
    db,
    'telemetry rollups',
    ROLLUP_PERIOD_MS,
    async () => {
      await foldRollups(db);
      if (database.kind === 'pglite') await db.execute(sql`vacuum telemetry_rollup_queue`);
    },
    (error) => log.warn({ error }, 'folding telemetry rollups failed'),
  );
}

/**
 * The server process's hourly maintenance, on one instance of the cluster: the coming days' partitions, the
 * compaction of the days that are over, the retention run. A run holds the cluster-wide lock 'telemetry maintenance'
 * (compaction and retention rewrite blocks: two at once would lose values). Values age in real time. Answers the
 * function that stops it.
 */
export function startTelemetryMaintenance(
  database: Pick<Database, 'db' | 'exclusive' | 'kind'>,
  retention: TelemetryRetention,
  log: FastifyBaseLogger,
): () => void {
  const { db } = database;
  let running = false;
  const maintain = async () => {
    await ensurePartitionsAhead(db, Date.now());
    const compacted = await compactTelemetry(db, Date.now());
    const removed = await applyRetention(db, Date.now(), retention);
    // Without autovacuum (PGlite) the tables rewritten all day are vacuumed here.
    if (database.kind === 'pglite') await db.execute(sql`vacuum telemetry_rollups, latest_values`);
    log.info({ compacted, removed }, 'telemetry maintenance done');
  };
  return everyPeriodOnce(
    db,
    'telemetry maintenance',
    MAINTENANCE_PERIOD_MS,
    async () => {
      // A run longer than the period is not joined by a second one on this instance.
      if (running) return;
      running = true;
      await database.exclusive('telemetry maintenance', maintain).finally(() => {
        running = false;
      });
    },
    (error) => log.warn({ error }, 'telemetry maintenance failed'),
    MAINTENANCE_FIRST_AFTER_MS,
  );
}
