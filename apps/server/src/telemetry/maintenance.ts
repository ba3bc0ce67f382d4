import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { everyPeriodOnce } from '../cluster/periodic.ts';
import type { TelemetryRetention } from '../config.ts';
import type { Database, Db } from '../db/index.ts';
import { compactTelemetry } from './compaction.ts';
import { ensurePartitionsAhead } from './partitions.ts';
import { applyRetention } from './retention.ts';

/** How often one instance of the cluster makes the coming days' partitions, compacts and applies retention. */
export const MAINTENANCE_PERIOD_MS = 60 * 60 * 1000;
/** The first maintenance comes this soon after start, so frequent restarts never put compaction off. */
export const MAINTENANCE_FIRST_AFTER_MS = 2 * 60 * 1000;

/** What every server needs to store values: today's and the coming days' partitions, made now. */
export async function startTelemetryStorage(db: Db): Promise<void> {
  await ensurePartitionsAhead(db, Date.now());
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
    if (database.kind === 'pglite')
      await db.execute(sql`vacuum telemetry_rollups, latest_values, telemetry_rollup_flushes`);
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
