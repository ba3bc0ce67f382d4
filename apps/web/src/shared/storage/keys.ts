/** Every key the portal keeps in browser storage, under one prefix. */
export const STORAGE_PREFIX = 'edgeport.';

export const STORAGE_KEYS = {
  /** Spec 4: the scope of the last permission token ('org:{id} app:*'), removed on logout and on entry errors. */
  scope: `${STORAGE_PREFIX}scope`,
  /** The organization the user entered last; cleared on logout and on entry errors. */
  selectedOrganization: `${STORAGE_PREFIX}selectedOrganization`,
  /** Spec 4: whether the casting-device message was shown; cleared on logout. */
  castingDeviceMessage: `${STORAGE_PREFIX}castingDeviceMessageShown`,
  /** Session storage: the identity session whose agreements were already checked (spec 4: once per session). */
  agreementsChecked: `${STORAGE_PREFIX}agreementsCheckedFor`,
  /** Spec 4: the status notices the user dismissed. */
  dismissedNotices: `${STORAGE_PREFIX}statusNotices.dismissed`,
  /** Spec 3: experimental feature flags, one key each under this prefix. */
  featureFlagPrefix: `${STORAGE_PREFIX}feature.`,
  colorScheme: `${STORAGE_PREFIX}colorScheme`,
} as const;

/** Storage can throw (quota, privacy modes): treat that as "nothing stored". */
export function readItem(storage: Storage, key: string): string | undefined {
  try {
    return storage.getItem(key) ?? undefined;
  } catch {
    return undefined;
  }
}

export function writeItem(storage: Storage, key: string, value: string): void {
  try {
    storage.setItem(key, value);
  } catch (error) {
    console.warn(`cannot store ${key}`, error);
  }
}

export function removeItem(storage: Storage, key: string): void {
  try {
    storage.removeItem(key);
  } catch {
    // Nothing stored, nothing to remove.
  }
}
