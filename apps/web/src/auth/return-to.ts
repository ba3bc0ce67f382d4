import { readItem, removeItem, STORAGE_PREFIX, writeItem } from '../shared/storage/keys.ts';

const RETURN_TO_KEY = `${STORAGE_PREFIX}returnTo`;

/** keycloak-js's answer in the address (response mode fragment): `#state=…&code=…` or `#…&error=…`. */
function isLoginAnswer(hash: string): boolean {
  const params = new URLSearchParams(hash.replace(/^#/, '').replace(/^[^?&=]*\?/, ''));
  return params.has('state') && (params.has('code') || params.has('error'));
}

/**
 * The identity server sends the browser back to the portal's root (the one redirect URI a client registers);
 * the hash route the user asked for, and the page query it came with (`?…`, where spec 4 may keep appHref), are kept
 * here across that round trip.
 */
export function rememberReturnTo(
  hash: string,
  storage: Storage,
  pageQuery: string = globalThis.location?.search ?? '',
): void {
  if (hash === '' || hash === '#' || hash === '#/' || isLoginAnswer(hash)) return;
  writeItem(storage, RETURN_TO_KEY, `${pageQuery}${hash}`);
}

/** After sign-in: puts the remembered page query and hash route back into the address, before the router reads it. */
export function restoreReturnTo(
  storage: Storage,
  history: Pick<History, 'replaceState'>,
  current: string,
): void {
  const saved = readItem(storage, RETURN_TO_KEY);
  removeItem(storage, RETURN_TO_KEY);
  if (!saved || (current !== '' && current !== '#' && current !== '#/')) return;
  history.replaceState(null, '', saved);
}
