import type { HrefType } from '@edgeport/bridge';
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  type AppHrefPlace,
  appHrefIn,
  appHrefPlace,
  withHashAppHref,
  withPageAppHref,
} from './frame-address.ts';

export type KeptAppHref = {
  /** The embedded app's address the portal keeps, or null. */
  appHref: string | null;
  /** Keeps the app's new address (a new history entry for `push`). */
  keep: (href: string, type: HrefType) => void;
};

function pageQuery(): URLSearchParams {
  return new URLSearchParams(window.location.search);
}

function writePageAddress(address: string, type: HrefType): void {
  // The portal's router owns the hash: the entry keeps its state so the router sees the same route.
  if (type === 'push') window.history.pushState(window.history.state, '', address);
  else window.history.replaceState(window.history.state, '', address);
}

/**
 * Spec 4: the embedded app's address lives in appHref, in the page query or in the hash query. Both are read when the
 * frame opens; the one used is then kept in sync (the hash query when neither had one). Leaving the app drops an
 * appHref of the page query, so another app of the same origin does not start at this one's address.
 */
export function useAppHref(): KeptAppHref {
  const [hashQuery, setHashQuery] = useSearchParams();
  const [place] = useState<AppHrefPlace>(() => appHrefPlace(pageQuery(), hashQuery));
  const [page, setPage] = useState(pageQuery);

  useEffect(() => {
    if (place !== 'page') return;
    const reread = () => setPage(pageQuery());
    window.addEventListener('popstate', reread);
    const route = window.location.hash;
    return () => {
      window.removeEventListener('popstate', reread);
      if (window.location.hash !== route)
        writePageAddress(withPageAppHref(window.location.href, null), 'replace');
    };
  }, [place]);

  const keep = useCallback(
    (href: string, type: HrefType) => {
      if (place === 'hash') {
        setHashQuery((previous) => withHashAppHref(previous, href), { replace: type === 'replace' });
        return;
      }
      writePageAddress(withPageAppHref(window.location.href, href), type);
      setPage(pageQuery());
    },
    [place, setHashQuery],
  );

  return { appHref: appHrefIn(place, { page, hash: hashQuery }), keep };
}
