/** The marker between the realm and the product domain in a host name: `{realm}.app.{domain}`. */
export const APP_HOST_MARKER = '.app.';
/** The cookie that names the realm when the host name does not (spec 1). */
export const REALM_COOKIE = 'realm';

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
