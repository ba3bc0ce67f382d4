import { readItem, removeItem, STORAGE_KEYS, writeItem } from '../shared/storage/keys.ts';

/** Spec 4: logout clears the stored scope, the selected organization and the casting-device message flag. */
export function clearSignedInState(storage: Storage): void {
  removeItem(storage, STORAGE_KEYS.scope);
  removeItem(storage, STORAGE_KEYS.selectedOrganization);
  removeItem(storage, STORAGE_KEYS.castingDeviceMessage);
}

export function storedOrganizationId(storage: Storage): string | undefined {
  return readItem(storage, STORAGE_KEYS.selectedOrganization);
}

export function rememberEntry(storage: Storage, organizationId: string, scope: string): void {
  writeItem(storage, STORAGE_KEYS.selectedOrganization, organizationId);
  writeItem(storage, STORAGE_KEYS.scope, scope);
}

/** Spec 8: after an entry error the selection is cleared and the scope removed. */
export function forgetEntry(storage: Storage): void {
  removeItem(storage, STORAGE_KEYS.selectedOrganization);
  removeItem(storage, STORAGE_KEYS.scope);
}
