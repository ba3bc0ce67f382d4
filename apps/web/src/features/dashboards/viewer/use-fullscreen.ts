import { useCallback, useEffect, useState } from 'react';

/**
 * Full screen for the dashboard: the page goes to the browser's full screen (Fullscreen API, on the whole document so
 * that confirmation dialogs, drawn outside the dashboard, stay visible) and the dashboard covers the portal's chrome.
 * Esc leaves it (the browser's own Esc ends the API's full screen; without the API, Esc is handled here).
 */
export function useFullscreen(): { active: boolean; toggle: () => void; exit: () => void } {
  const [active, setActive] = useState(false);

  const exit = useCallback(() => {
    setActive(false);
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
  }, []);

  const toggle = useCallback(() => {
    if (active) {
      exit();
      return;
    }
    setActive(true);
    const root = document.documentElement;
    if (!document.fullscreenElement && typeof root.requestFullscreen === 'function') {
      void root.requestFullscreen().catch(() => {
        // Refused (no user gesture, an iframe without permission): the dashboard still covers the portal.
      });
    }
  }, [active, exit]);

  useEffect(() => {
    if (!active) return;
    let native = document.fullscreenElement !== null;
    const onChange = () => {
      if (document.fullscreenElement) native = true;
      else if (native) setActive(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      // Esc in a dialog (a write confirmation) closes the dialog only.
      if (event.target instanceof Element && event.target.closest('[role="dialog"]')) return;
      exit();
    };
    document.addEventListener('fullscreenchange', onChange);
    window.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('fullscreenchange', onChange);
      window.removeEventListener('keydown', onKey);
    };
  }, [active, exit]);

  // Leaving the page leaves full screen.
  useEffect(
    () => () => {
      if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
    },
    [],
  );

  return { active, toggle, exit };
}
