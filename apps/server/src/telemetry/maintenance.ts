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

export type TelemetryMaintenance = {
  /** One run: the coming days' partitions, compaction of the days that are over, retention. */
  run(): Promise<void>;
  stop(): void;
};

/**
 * Makes today's and the coming days' partitions now; then every hour, on one instance of the cluster, the coming
 * days' partitions, the compaction of the days that are over and the retention run; and every ROLLUP_PERIOD_MS the
 * rollups of the minutes that are over. A run holds the cluster-wide lock 'telemetry maintenance' (compaction and
 * retention rewrite blocks: two at once would lose values) and is skipped on this instance while one still runs.
 */
export async function startTelemetryMaintenance(
  database: Pick<Database, 'db' | 'exclusive'>,
  retention: TelemetryRetention,
  now: () => Date,
  log: FastifyBaseLogger,
): Promise<TelemetryMaintenance> {
  const { db } = database;
  await ensurePartitionsAhead(db, now().getTime());
  let running: Promise<void> | undefined;
  const maintain = async () => {
    await ensurePartitionsAhead(db, now().getTime());
    const compacted = await compactTelemetry(db, now().getTime());
    const removed = await applyRetention(db, now().getTime(), retention);
    log.info({ compacted, removed }, 'telemetry maintenance done');
  };
  const run = () => {
    running ??= database.exclusive('telemetry maintenance', maintain).finally(() => {
      running = undefined;
    });
    return running;
  };
  const stopFolding = everyPeriodOnce(
    db,
    'telemetry rollups',
    ROLLUP_PERIOD_MS,
    async () => {
      await foldRollups(db, now().getTime());
    },
    (error) => log.warn({ error }, 'folding telemetry rollups failed'),
  );
  const stopMaintaining = everyPeriodOnce(
    db,
    'telemetry maintenance',
    MAINTENANCE_PERIOD_MS,
    run,
    (error) => log.warn({ error }, 'telemetry maintenance failed'),
    MAINTENANCE_FIRST_AFTER_MS,
  );
  return {
    run,
    stop() {
      stopFolding();
      stopMaintaining();
    },
  };
}
