import type L from 'leaflet';

/** After this many failed tiles and none loaded, a map's background is given up: the markers stay on a plain one. */
export const TILE_FAILURES_BEFORE_GIVING_UP = 4;

/**
 * A tile layer's event handlers that count failed and loaded tiles and call `onGiveUp` when only failures come (no
 * tile server reachable).
 */
export function tileWatch(onGiveUp: () => void): L.LeafletEventHandlerFnMap {
  let failed = 0;
  let loaded = 0;
  return {
    tileload: () => {
      loaded += 1;
    },
    tileerror: () => {
      failed += 1;
      if (loaded === 0 && failed >= TILE_FAILURES_BEFORE_GIVING_UP) onGiveUp();
    },
  };
}
