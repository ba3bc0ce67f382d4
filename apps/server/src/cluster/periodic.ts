import { sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { periodicRuns } from '../db/schema.ts';

/**
 * A period counts as taken once this share of it has passed since the last run: instances' timers of the same period
 * fire at their own moments, and a claim a few milliseconds early must not skip a whole period.
 */
const DUE_SHARE = 0.9;

/**
 * Claims this period's run of timed work that the cluster needs once, not once per instance: every instance calls it
 * when its timer fires, and only the first call in a period answers true (one conditional upsert, so two instances
 * never both win). On one process it answers true once a period too.
 */
export async function claimPeriod(db: Db, name: string, periodMs: number): Promise<boolean> {
  const dueSeconds = (periodMs * DUE_SHARE) / 1000;
  const claimed = await db
    .insert(periodicRuns)
    .values({ name, lastRunAt: sql`now()` })
    .onConflictDoUpdate({
      target: periodicRuns.name,
      set: { lastRunAt: sql`now()` },
      setWhere: sql`${periodicRuns.lastRunAt} <= now() - make_interval(secs => ${dueSeconds})`,
    })
    .returning({ name: periodicRuns.name });
  return claimed.length > 0;
}

/**
 * Runs `work` every `periodMs` on whichever instance claims the period first (see claimPeriod); with `firstAfterMs`
 * the first claim comes that soon after start (work that must not wait a whole period behind frequent restarts).
 * Answers the function that stops the timers.
 */
export function everyPeriodOnce(
  db: Db,
  name: string,
  periodMs: number,
  work: () => Promise<void>,
  onError: (error: unknown) => void,
  firstAfterMs?: number,
): () => void {
  const tick = () => {
    claimPeriod(db, name, periodMs)
      .then((claimed) => (claimed ? work() : undefined))
      .catch(onError);
  };
  const timer = setInterval(tick, periodMs);
  timer.unref();
  const first = firstAfterMs === undefined ? undefined : setTimeout(tick, firstAfterMs);
  first?.unref();
  return () => {
    clearInterval(timer);
    clearTimeout(first);
  };
}
