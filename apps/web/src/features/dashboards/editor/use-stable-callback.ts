import { useCallback, useLayoutEffect, useRef } from 'react';

/**
 * A function whose identity never changes and that calls the latest `callback` given: memoized children (toolbar,
 * panels, canvas) can take handlers that read the editor's current state without rendering again on every change.
 * Not for calls during render (the latest callback is set when the render commits).
 */
export function useStableCallback<Args extends unknown[], Result>(
  callback: (...args: Args) => Result,
): (...args: Args) => Result {
  const latest = useRef(callback);
  useLayoutEffect(() => {
    latest.current = callback;
  });
  return useCallback((...args: Args) => latest.current(...args), []);
}
