/** The marker between the realm and the product domain in a host name: `{realm}.app.{domain}`. */
export const APP_HOST_MARKER = '.app.';
/** The cookie that names the realm when the host name does not (spec 1). */
export const REALM_COOKIE = 'realm';
/** Spec 9: the accounts realm, unless one is configured, is named after the brand. */
export const DEFAULT_ACCOUNTS_REALM = 'edgeport';
/** Spec 9: the base host when the portal is not on an app subdomain: the product cloud domain. */
export const DEFAULT_BASE_HOST = 'edgeport.cloud';

/** `acme.app.localhost` -> `acme`; a host without the marker, or with nothing before it, names no realm. */
export function realmFromHostname(hostname: string): string | undefined {
  const index = hostname.toLowerCase().indexOf(APP_HOST_MARKER);
  if (index <= 0) return undefined;
  return hostname.slice(0, index).toLowerCase();
}

/** The value of the realm cookie in a `document.cookie` string, if it is set and not empty. */
export function realmFromCookie(cookieHeader: string): string | undefined {
  for (const part of cookieHeader.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0 || part.slice(0, separator).trim() !== REALM_COOKIE) continue;
    const raw = part.slice(separator + 1).trim();
    let value: string;
    try {
      value = decodeURIComponent(raw);
    } catch {
      value = raw;
    }
    return value === '' ? undefined : value;
  }
  return undefined;
}

/**
 * The realm to sign in to: the host-name prefix before `.app.`, else the realm cookie, else undefined (the caller
 * shows the fatal initialisation error of spec section 8).
 */
export function resolveRealm(hostname: string, cookieHeader: string): string | undefined {
  return realmFromHostname(hostname) ?? realmFromCookie(cookieHeader);
}

/**
 * Where to go when the host names a realm that does not exist: the product domain without the realm prefix
 * (`http://nope.app.example.com:8080/x` -> `http://example.com:8080/`); off an app subdomain, the product cloud
 * domain.
 */
export function baseHostUrl(location: Pick<Location, 'protocol' | 'hostname' | 'port'>): string {
  const index = location.hostname.toLowerCase().indexOf(APP_HOST_MARKER);
  if (index < 0) return `https://${DEFAULT_BASE_HOST}/`;
  const host = location.hostname.slice(index + APP_HOST_MARKER.length);
  return `${location.protocol}//${host}${location.port ? `:${location.port}` : ''}/`;
}

export type RealmResolution =
  | { kind: 'realm'; realm: string; source: 'host' | 'cookie' }
  | { kind: 'unknown'; name: string }
  | { kind: 'none' };

/**
 * Spec 1 with the server's lookup: a host-name prefix is checked with `lookupHost` (undefined when the server knows
 * no realm for the host); without a prefix the realm cookie is taken as is; with neither there is no realm.
 */
export async function resolveStartRealm(
  hostname: string,
  cookieHeader: string,
  lookupHost: (hostname: string) => Promise<{ realm: string } | undefined>,
): Promise<RealmResolution> {
  const fromHost = realmFromHostname(hostname);
  if (fromHost) {
    const info = await lookupHost(hostname);
    return info ? { kind: 'realm', realm: info.realm, source: 'host' } : { kind: 'unknown', name: fromHost };
  }
  const fromCookie = realmFromCookie(cookieHeader);
  return fromCookie ? { kind: 'realm', realm: fromCookie, source: 'cookie' } : { kind: 'none' };
}
