import type { FastifyBaseLogger } from 'fastify';
import { everyPeriodOnce } from '../cluster/periodic.ts';
import type { TelemetryRetention } from '../config.ts';
import type { Db } from '../db/index.ts';
import { ensurePartitionsAhead } from './partitions.ts';
import { applyRetention } from './retention.ts';
import { foldRollups } from './rollups.ts';

/** How often one instance of the cluster makes the coming days' partitions and applies retention. */
export const MAINTENANCE_PERIOD_MS = 60 * 60 * 1000;
/** How often the rollups take in the minutes that are over: they are at most this much behind a minute's end. */
export const ROLLUP_PERIOD_MS = 15_000;

/**
 * Makes today's and the coming days' partitions now, then every hour on one instance of the cluster, with the
 * retention run after it; folds the queued minutes into the rollups every ROLLUP_PERIOD_MS. Answers the function
 * that stops both.
 */
export async function startTelemetryMaintenance(
  db: Db,
  retention: TelemetryRetention,
  now: () => Date,
  log: FastifyBaseLogger,
): Promise<() => void> {
  await ensurePartitionsAhead(db, now().getTime());
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
    async () => {
      await ensurePartitionsAhead(db, now().getTime());
      const run = await applyRetention(db, now().getTime(), retention);
      log.info(run, 'telemetry retention applied');
    },
    (error) => log.warn({ error }, 'telemetry maintenance failed'),
  );
  return () => {
    stopFolding();
    stopMaintaining();
  };
}
