import type { Trigger } from './api.ts';

type RunFields = Pick<Trigger, 'lastError' | 'lastErrorAt' | 'lastRunAt' | 'runCount'>;

export type RunOutcome = { ok: true } | { ok: false; error: string };

/**
 * What "Run now" did, from the trigger before and after the run: it failed when the answer carries an error that was
 * recorded by this run (its time changed, or it is new); otherwise the action ran.
 */
export function runOutcome(before: RunFields, after: RunFields): RunOutcome {
  if (after.lastError && (after.lastErrorAt !== before.lastErrorAt || after.lastError !== before.lastError))
    return { ok: false, error: after.lastError };
  if (after.lastError && after.lastRunAt === before.lastRunAt && after.runCount === before.runCount)
    return { ok: false, error: after.lastError };
  return { ok: true };
}
