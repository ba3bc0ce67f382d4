import { readItem, STORAGE_KEYS, writeItem } from '../../shared/storage/keys.ts';

/** Keeps the list from growing without end: old dismissals fall off first. */
const MAX_REMEMBERED = 200;

export function dismissedNotices(storage: Storage = window.localStorage): Set<string> {
  const raw = readItem(storage, STORAGE_KEYS.dismissedNotices);
  if (!raw) return new Set();
  try {
    const parsed: unknown = JSON.parse(raw);
    return new Set(Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : []);
  } catch {
    return new Set();
  }
}

/** Spec 4: a dismissed notice is remembered in local storage and not shown again. */
export function rememberDismissed(id: string, storage: Storage = window.localStorage): void {
  const ids = [...dismissedNotices(storage), id];
  writeItem(storage, STORAGE_KEYS.dismissedNotices, JSON.stringify(ids.slice(-MAX_REMEMBERED)));
}
