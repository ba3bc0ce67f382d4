import { type AppConnection, connect, type PageId, pageOfPortalRoute } from '@edgeport/bridge';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useNavigationType } from 'react-router';

/**
 * The portal as guest (spec 1): when a host page embeds the portal and answers the bridge's initialise request, the
 * portal's menu asks the host to navigate to the page identifier of the chosen screen instead of navigating itself,
 * follows the address the host gives it (the host keeps it as appHref), and reports its own address changes.
 * Standalone (no parent window, or a parent that does not answer within 5 s) nothing changes.
 */

let hosted: Promise<AppConnection | undefined> | undefined;

/** The connection to the host page, asked once per page load; undefined when the portal is not hosted. */
export function hostConnection(): Promise<AppConnection | undefined> {
  if (window.parent === window) return Promise.resolve(undefined);
  hosted ??= connect().catch((error: unknown) => {
    console.info('the portal is framed but no host page answered; it runs on its own', error);
    return undefined;
  });
  return hosted;
}

/** The page identifier a link of the portal's menu stands for (`#/devices/groups` -> device-manage). */
export function pageOfLink(href: string | null | undefined): PageId | undefined {
  if (!href?.startsWith('#/')) return undefined;
  return pageOfPortalRoute(href.slice(1));
}

/** The hash route of an address the host gives the portal, if it is the portal's own (`…/#/devices` -> /devices). */
export function routeOfHostHref(href: string, portalOrigin: string): string | undefined {
  try {
    const url = new URL(href);
    if (url.origin !== portalOrigin || !url.hash.startsWith('#/')) return undefined;
    return url.hash.slice(1);
  } catch {
    return undefined;
  }
}

/** The menu link a click landed on, if the click is a plain one (no modifier: a new tab stays a new tab). */
function menuLink(event: MouseEvent): HTMLAnchorElement | undefined {
  if (event.defaultPrevented || event.button !== 0) return undefined;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return undefined;
  const target = event.target instanceof Element ? event.target : undefined;
  return target?.closest<HTMLAnchorElement>('#side-menu a[href]') ?? undefined;
}

/** Wires the portal shell to its host page, when there is one. */
export function useGuestBridge(): void {
  const navigate = useNavigate();
  const location = useLocation();
  const navigationType = useNavigationType();
  const [host, setHost] = useState<AppConnection | undefined>(undefined);

  useEffect(() => {
    let active = true;
    void hostConnection().then((connection) => {
      if (active) setHost(connection);
    });
    return () => {
      active = false;
    };
  }, []);

  // The host moved the portal (its own navigation, back/forward or reload of the host page).
  useEffect(() => {
    if (!host) return;
    return host.subscribe('href', (href) => {
      const route = routeOfHostHref(href, window.location.origin);
      if (route && route !== `${window.location.hash.slice(1)}`) navigate(route);
    });
  }, [host, navigate]);

  // The portal's own address, for the host to keep.
  // biome-ignore lint/correctness/useExhaustiveDependencies: every change of the route is reported.
  useEffect(() => {
    host?.reportHref(window.location.href, navigationType === 'PUSH' ? 'push' : 'replace');
  }, [host, location.pathname, location.search, navigationType]);

  // The menu asks the host instead of navigating.
  useEffect(() => {
    if (!host) return;
    const onClick = (event: MouseEvent) => {
      const link = menuLink(event);
      const page = pageOfLink(link?.getAttribute('href'));
      if (!page) return;
      event.preventDefault();
      event.stopPropagation();
      host.navigate(page);
    };
    document.addEventListener('click', onClick, true);
    return () => document.removeEventListener('click', onClick, true);
  }, [host]);
}
