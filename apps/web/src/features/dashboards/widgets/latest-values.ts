import { fetchLatestValues } from '../api.ts';
import type { ValueStore } from './value-store.ts';
import { deviceKey } from './value-store.ts';

export type LatestValues = Awaited<ReturnType<typeof fetchLatestValues>>;

/** A prefetched answer is used only this long after it was asked for; later the runtime asks again. */
const FRESH_MS = 10_000;

type Prefetched = { at: number; promise: Promise<LatestValues>; result?: LatestValues };

const prefetched = new Map<string, Prefetched>();

const keyOf = (organizationId: string, deviceId: string) => `${organizationId}/${deviceId}`;

/**
 * Asks for a device's stored latest values ahead of the dashboard that shows them (the viewer knows the devices of
 * the address before the dashboard's document is there): the runtime then starts from the answer instead of asking
 * again, and widgets whose values are there show them in their first frame. Nothing happens when a fresh answer is
 * already on its way.
 */
export function prefetchLatestValues(
  organizationId: string,
  deviceId: string,
  token: () => Promise<string>,
): void {
  const key = keyOf(organizationId, deviceId);
  const known = prefetched.get(key);
  if (known && Date.now() - known.at < FRESH_MS) return;
  const entry: Prefetched = {
    at: Date.now(),
    promise: token().then((bearer) => fetchLatestValues(bearer, organizationId, deviceId)),
  };
  entry.promise.then(
    (result) => {
      entry.result = result;
    },
    () => {
      if (prefetched.get(key) === entry) prefetched.delete(key);
    },
  );
  prefetched.set(key, entry);
}

/** The prefetched answer for the device if it is fresh (taken: each answer serves one runtime). */
export function takePrefetchedLatestValues(
  organizationId: string,
  deviceId: string,
): { promise: Promise<LatestValues>; result?: LatestValues } | undefined {
  const key = keyOf(organizationId, deviceId);
  const entry = prefetched.get(key);
  prefetched.delete(key);
  return entry && Date.now() - entry.at < FRESH_MS ? entry : undefined;
}

/** A device's stored latest values into the store: status, each path's unit, type and writability, and value. */
export function storeLatestValues(store: ValueStore, deviceId: string, latest: LatestValues): void {
  store.setStatus(deviceId, latest.status);
  for (const value of latest.values) {
    const key = deviceKey(deviceId, value.path);
    store.setMeta(key, { unit: value.unit, type: value.type, writable: value.writable });
    store.put(key, Date.parse(value.ts), value.value);
  }
}
