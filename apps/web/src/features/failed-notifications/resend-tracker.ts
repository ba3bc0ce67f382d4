import type { Delivery, DeliveryStatus } from './api.ts';

/** How many of the newest deliveries of a status one look covers (the service's largest page). */
export const LOOKUP_PAGE_SIZE = 500;

export type ListByStatus = (status: DeliveryStatus) => Promise<Delivery[]>;

/** What became of a delivery that was sent again: still queued, sent, failed again, or no longer found. */
export type Tracked = { id: string; delivery: Delivery; state: 'pending' | 'sent' | 'failed' | 'unknown' };

export function stateOf(status: DeliveryStatus): Tracked['state'] {
  if (status === 'SENT') return 'sent';
  if (status === 'FAILED') return 'failed';
  return 'pending';
}

/**
 * Looks the resent deliveries up: first among the queued (PENDING) ones; those no longer queued among the newest
 * FAILED and SENT ones. A delivery found nowhere keeps its last known state as 'unknown' (it left the queue but is
 * older than the newest deliveries looked at).
 */
export async function locate(tracked: readonly Tracked[], list: ListByStatus): Promise<Tracked[]> {
  const open = tracked.filter((entry) => entry.state === 'pending');
  if (open.length === 0) return [...tracked];
  const pending = new Map((await list('PENDING')).map((delivery) => [delivery.id, delivery]));
  const left = open.filter((entry) => !pending.has(entry.id));
  let settled = new Map<string, Delivery>();
  if (left.length > 0) {
    const [failed, sent] = await Promise.all([list('FAILED'), list('SENT')]);
    settled = new Map([...failed, ...sent].map((delivery) => [delivery.id, delivery]));
  }
  return tracked.map((entry): Tracked => {
    if (entry.state !== 'pending') return entry;
    const queued = pending.get(entry.id);
    if (queued) return { ...entry, delivery: queued };
    const found = settled.get(entry.id);
    if (found) return { id: entry.id, delivery: found, state: stateOf(found.status) };
    return { ...entry, state: 'unknown' };
  });
}

/** The failed log's page with the resent deliveries that left it shown on top, each row with its latest state. */
export function mergeRows(
  items: readonly Delivery[],
  tracked: readonly Tracked[],
): { delivery: Delivery; tracked: Tracked | undefined }[] {
  const byId = new Map(tracked.map((entry) => [entry.id, entry]));
  const onPage = new Set(items.map((item) => item.id));
  const pinned = tracked
    .filter((entry) => !onPage.has(entry.id))
    .map((entry) => ({ delivery: entry.delivery, tracked: entry as Tracked | undefined }));
  // A resent row still on the page: what the tracker saw last is newer than the page (fetched before the resend).
  const rows = items.map((item) => {
    const entry = byId.get(item.id);
    return { delivery: entry ? entry.delivery : item, tracked: entry };
  });
  return [...pinned, ...rows];
}
