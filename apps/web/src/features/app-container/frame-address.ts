import { decodeJwt } from 'jose';

/** `scheme://host[:port]` of an absolute http(s) address, or undefined. */
export function originOf(address: string | null | undefined): string | undefined {
  if (!address) return undefined;
  try {
    const url = new URL(address);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where the app frame starts: the address kept in the `appHref` query (reload, back/forward, a shared link) when it
 * belongs to the app's registered origin, else the app's entry address. Anything else in appHref is ignored: a link
 * must not make the portal load (and hand the token to) another page.
 */
export function frameAddress(app: { entryUrl: string; origin: string }, appHref: string | null): string {
  return appHref && originOf(appHref) === app.origin ? appHref : app.entryUrl;
}

/** The query parameter that keeps the embedded app's address (spec 4). */
export const APP_HREF = 'appHref';

/** Where appHref is kept: the page query (before the `#`) or the hash query (the portal's route). */
export type AppHrefPlace = 'page' | 'hash';

/**
 * Spec 4 keeps appHref in the page query or in the hash query: the one a link or reload brought is the one kept in
 * sync. The hash query wins when both have one (it belongs to the route); with neither, the hash query is used.
 */
export function appHrefPlace(pageQuery: URLSearchParams, hashQuery: URLSearchParams): AppHrefPlace {
  return pageQuery.has(APP_HREF) && !hashQuery.has(APP_HREF) ? 'page' : 'hash';
}

/** The appHref kept in `place`, or null. */
export function appHrefIn(
  place: AppHrefPlace,
  queries: { page: URLSearchParams; hash: URLSearchParams },
): string | null {
  return queries[place].get(APP_HREF);
}

/** A copy of a hash query with appHref set to `href`. */
export function withHashAppHref(hashQuery: URLSearchParams, href: string): URLSearchParams {
  const next = new URLSearchParams(hashQuery);
  next.set(APP_HREF, href);
  return next;
}

/** The page's address with appHref set to `href` in its page query (null removes it); the hash stays as it is. */
export function withPageAppHref(address: string, href: string | null): string {
  const url = new URL(address);
  if (href === null) url.searchParams.delete(APP_HREF);
  else url.searchParams.set(APP_HREF, href);
  return url.href;
}

/** The host domain of spec 3: the product domain the portal runs under (`acme.app.example.com` -> `example.com`). */
export function hostDomainOf(hostname: string): string {
  const marker = hostname.indexOf('.app.');
  return marker >= 0 ? hostname.slice(marker + '.app.'.length) : hostname;
}

/** Renew the permission token this long before it expires (spec 5: 30 s), plus a second so it is due by then. */
const RENEW_BEFORE_MS = 29_000;
const MIN_DELAY_MS = 1_000;

/**
 * How long until the embedded app's token should be renewed: 29 s before it expires (the permission token store
 * then exchanges a new one), never sooner than a second; undefined when the token carries no expiry.
 */
export function renewalDelay(jwt: string | undefined, now: number): number | undefined {
  if (!jwt) return undefined;
  let exp: number | undefined;
  try {
    exp = decodeJwt(jwt).exp;
  } catch {
    return undefined;
  }
  if (exp === undefined) return undefined;
  return Math.max(MIN_DELAY_MS, exp * 1000 - RENEW_BEFORE_MS - now);
}
