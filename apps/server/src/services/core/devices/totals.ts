/**
 * How many devices match a list's filter, remembered for a few seconds: paging through a list of 100,000 devices asks
 * the same total on every page, and counting them costs more than reading the page itself (about 20-50 ms on the
 * embedded database). Only large totals are remembered. A change made through this area forgets the organization's
 * totals at once; changes made elsewhere (activation, ingest status changes, another server instance) show within
 * TTL_MS.
 */
const TTL_MS = 5_000;
const MAX_ENTRIES = 1_000;
/** Smaller totals are cheap to count again (and exact at once, which tests and small organizations expect). */
export const REMEMBER_FROM = 10_000;

type Entry = { total: number; at: number };
const entries = new Map<string, Entry>();

export function totalKey(organizationId: string, filter: Record<string, unknown>): string {
  return `${organizationId}|${JSON.stringify(filter)}`;
}

export function rememberedTotal(key: string, now = Date.now()): number | undefined {
  const entry = entries.get(key);
  if (!entry) return undefined;
  if (now - entry.at > TTL_MS) {
    entries.delete(key);
    return undefined;
  }
  return entry.total;
}

export function rememberTotal(key: string, total: number, now = Date.now()): void {
  if (total < REMEMBER_FROM) return;
  if (entries.size >= MAX_ENTRIES) {
    const oldest = entries.keys().next().value;
    if (oldest !== undefined) entries.delete(oldest);
  }
  entries.set(key, { total, at: now });
}

/** Forgets the remembered totals of one organization (after a change), or all of them. */
export function forgetTotals(organizationId?: string): void {
  if (organizationId === undefined) {
    entries.clear();
    slowAnswers.clear();
    return;
  }
  for (const key of entries.keys()) if (key.startsWith(`${organizationId}|`)) entries.delete(key);
  for (const key of slowAnswers.keys()) if (key.startsWith(`${organizationId}|`)) slowAnswers.delete(key);
}

/**
 * Work whose answer may be remembered for `ttlMs` when computing it took longer than `slowMs` (the distinct tags of
 * 100,000 devices); quick answers are computed every time, so small organizations always see the current state.
 */
const slowAnswers = new Map<string, { value: unknown; at: number }>();

export async function rememberedIfSlow<Value>(
  key: string,
  compute: () => Promise<Value>,
  options: { slowMs: number; ttlMs: number },
): Promise<Value> {
  const known = slowAnswers.get(key);
  if (known && Date.now() - known.at <= options.ttlMs) return known.value as Value;
  const started = performance.now();
  const value = await compute();
  if (performance.now() - started > options.slowMs) {
    if (slowAnswers.size >= MAX_ENTRIES) {
      const oldest = slowAnswers.keys().next().value;
      if (oldest !== undefined) slowAnswers.delete(oldest);
    }
    slowAnswers.set(key, { value, at: Date.now() });
  } else slowAnswers.delete(key);
  return value;
}
